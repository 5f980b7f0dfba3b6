package dev.javelin.recipes.config;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * VeRL keys that only tune VeRL's own engines (FSDP, vLLM/SGLang, Megatron, its cluster layout): a
 * recipe or a pasted VeRL script may set them, they have no effect here, and the run says so in one
 * start-up line each ({@link Settings#noEffectNotes()}). Anything else the schema does not know is
 * still an error with the closest key suggested.
 */
public final class VerlEngineKeys {
  private record Rule(Pattern key, String why) {}

  private static final String FSDP = "Javelin's trainer is one JAX/XLA program, not FSDP shards";
  private static final List<Rule> RULES =
      List.of(
          rule("actor_rollout_ref\\.(actor|ref)\\.fsdp_config\\..+", FSDP),
          rule("actor_rollout_ref\\.(actor|ref)\\.strategy", FSDP),
          rule("actor_rollout_ref\\.(actor|ref)\\.ulysses_sequence_parallel_size", FSDP),
          rule(
              "actor_rollout_ref\\.(actor\\.use_dynamic_bsz|(ref|rollout)\\.log_prob_use_dynamic_bsz)",
              "micro-batches are fixed-size here"),
          rule(
              "actor_rollout_ref\\.(actor|ref|rollout)\\.(ppo|log_prob)_max_token_len_per_gpu",
              "micro-batches are fixed-size here (use_dynamic_bsz has no effect)"),
          rule(
              "actor_rollout_ref\\.model\\.use_shm",
              "the trainer reads the checkpoint from its path once; there is no shared-memory copy"),
          rule(
              "actor_rollout_ref\\.rollout\\.layered_summon",
              "samplers receive merged LoRA weights whole over the weight sync"),
          rule(
              "actor_rollout_ref\\.model\\.use_remove_padding",
              "Javelin packs responses itself; VeRL's padding-removal kernel switch does not apply"),
          rule(
              "actor_rollout_ref\\.ref\\.log_prob_micro_batch_size_per_gpu",
              "the reference pass uses actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu"),
          rule(
              "actor_rollout_ref\\.rollout\\.(name|mode"
                  + "|gpu_memory_utilization|enforce_eager|free_cache_engine|enable_chunked_prefill"
                  + "|max_num_batched_tokens|load_format|dtype)",
              "Javelin's samplers are its own engine (trainer.samplers, max_num_seqs), not vLLM/SGLang"),
          rule(
              "actor_rollout_ref\\.rollout\\.engine_kwargs\\..+",
              "Javelin's samplers are its own engine (trainer.samplers, max_num_seqs), not vLLM/SGLang"),
          rule(
              "actor_rollout_ref\\.actor\\.use_torch_compile",
              "each program is compiled once per shape bucket by Javelin's backend (XLA or the cpu"
                  + " engine), not by torch.compile"),
          rule(
              "actor_rollout_ref\\.model\\.(use_fused_kernels|fused_kernel_options\\..+|use_liger)",
              "the backend fuses its own kernels, and chosen-token log-probs never build the"
                  + " (batch, length, vocab) logits"),
          rule(
              "actor_rollout_ref\\.actor\\.(entropy_checkpointing|entropy_from_logits_with_chunking)",
              "entropy is computed with the chosen-token log-probs, without keeping the whole"
                  + " logits; recomputation is actor_rollout_ref.model.enable_gradient_checkpointing"),
          rule(
              "actor_rollout_ref\\.nccl_timeout",
              "there is no NCCL process group: chips talk through XLA collectives, actors through"
                  + " Ray (trainer.max_restarts)"),
          rule(
              "actor_rollout_ref\\.model\\.torch_dtype",
              "weights load as f32 master copies; compute types are"
                  + " actor_rollout_ref.actor.fsdp_config.mixed_precision.param_dtype (trainer) and"
                  + " actor_rollout_ref.rollout.dtype (samplers)"),
          rule(
              "data\\.return_raw_chat",
              "prompts are rendered with the tokenizer's chat template in Java; there is no"
                  + " rollout server to hand raw chats to"),
          rule(
              "actor_rollout_ref\\.ref\\.megatron\\..+",
              "the reference log-probs come from the trainer's own program and mesh, not from a"
                  + " separate Megatron worker"),
          rule(
              "actor_rollout_ref\\.actor\\.megatron\\..+",
              "the trainer is one SPMD program over its mesh (trainer.n_gpus_per_node,"
                  + " actor_rollout_ref.actor.megatron.tensor_model_parallel_size), not Megatron"
                  + " pipeline, expert or offload settings"),
          rule("trainer\\.critic_warmup", "there is no critic (no GAE)"),
          rule(
              "reward_model\\.reward_manager",
              "rewards are Java functions scored by Javelin's reward scorer; DAPO's overlong"
                  + " shaping is reward_model.overlong_buffer.* (or"
                  + " reward_model.reward_kwargs.overlong_buffer_cfg.*)"),
          rule(
              "data\\.truncation",
              "prompts over data.max_prompt_length are dropped (data.filter_overlong_prompts),"
                  + " never truncated"));

  private VerlEngineKeys() {}

  private static Rule rule(String regex, String why) {
    return new Rule(Pattern.compile(regex), why);
  }

  /** Why {@code key} has no effect here, when it is one of VeRL's engine keys. */
  public static Optional<String> reason(String key) {
    for (Rule r : RULES) {
      if (r.key().matcher(key).matches()) {
        return Optional.of(r.why());
      }
    }
    return Optional.empty();
  }
}
