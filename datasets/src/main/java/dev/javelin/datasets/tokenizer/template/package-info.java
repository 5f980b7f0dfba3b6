/**
 * Hugging Face chat templates: a small Jinja interpreter (lexer, parser to a sealed-record AST,
 * evaluator) rendering {@code tokenizer_config.json} templates as {@code transformers}' {@code
 * apply_chat_template} does. Entry point: {@link
 * dev.javelin.datasets.tokenizer.template.ChatTemplate}.
 */
package dev.javelin.datasets.tokenizer.template;
