package dev.javelin.datasets.tokenizer.template;

/**
 * Jinja's default undefined value: prints as nothing, is falsy, iterates as empty; using it in
 * arithmetic or reading its attributes is an error naming the variable.
 *
 * @param name what was looked up, for error messages
 */
record Undefined(String name) {}
