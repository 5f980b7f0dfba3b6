#!/usr/bin/env python3
"""Independent numpy reference for Javelin's grpo module.

Re-implements, vectorised over (B, T) arrays, the formulas of VeRL's
verl/trainer/ppo/core_algos.py (advantage estimators, policy losses, KL estimators,
loss aggregation), rollout_corr_helper.py (truncated IS, rejection sampling) and DAPO's
overlong shaping, together with hand-derived gradients with respect to the current
log-probs. Every gradient is checked here against central finite differences before
anything is written.

Writes grpo/src/test/resources/grpo/reference.json (the fixtures the Java tests read).

  .venv/bin/python tools/grpo_reference.py            # write fixtures
  .venv/bin/python tools/grpo_reference.py --bench    # time B=256, T=512 (docs/perf/grpo.md)
"""

import argparse
import json
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "grpo", "src", "test", "resources", "grpo", "reference.json")
EPS_GRPO = 1e-6


# ----------------------------------------------------------------------------- helpers


def masked_mean(v, m):
    return (v * m).sum() / (m.sum() + 1e-8)


def groups_of(uids):
    order, rows = [], {}
    for i, u in enumerate(uids):
        if u not in rows:
            rows[u] = []
            order.append(u)
        rows[u].append(i)
    return [np.array(rows[u]) for u in order]


def whiten(v, m):
    n = m.sum()
    mean = masked_mean(v, m)
    var = masked_mean((v - mean) ** 2, m) * n / (n - 1)
    return (v - mean) / np.sqrt(var + 1e-8) * m


# ------------------------------------------------------------------- advantage estimators


def adv_grpo(r, m, uids, norm=True, **_):
    s = r.sum(-1)
    a = np.zeros_like(s)
    for g in groups_of(uids):
        mu, sd = (s.dtype.type(0), s.dtype.type(1)) if len(g) == 1 else (s[g].mean(), s[g].std(ddof=1))
        a[g] = (s[g] - mu) / (sd + s.dtype.type(EPS_GRPO)) if norm else s[g] - mu
    return a[:, None] * m, a[:, None] * m


def adv_passk(r, m, uids, norm=True, **_):
    s = r.sum(-1)
    a = np.zeros_like(s)
    for g in groups_of(uids):
        order = g[np.argsort(-s[g], kind="stable")]
        adv = s[order[0]] - s[order[1]]
        a[order[0]] = adv / (s[g].std(ddof=1) + s.dtype.type(EPS_GRPO)) if norm else adv
    return a[:, None] * m, a[:, None] * m


def adv_rloo(r, m, uids, **_):
    s = r.sum(-1)
    a = s.copy()
    for g in groups_of(uids):
        n = len(g)
        if n > 1:
            a[g] = (s[g] - s[g].mean()) * (n / (n - 1))
    return a[:, None] * m, a[:, None] * m


def adv_opo(r, m, uids, **_):
    s = r.sum(-1)
    ln = m.sum(-1)
    a = s.copy()
    for g in groups_of(uids):
        if len(g) > 1:
            a[g] = s[g] - (ln[g] * s[g]).sum() / ln[g].sum()
    return a[:, None] * m, a[:, None] * m


def adv_gpg(r, m, uids, **_):
    s = r.sum(-1)
    alpha = len(s) / max(np.count_nonzero(s), 1)
    a = s.copy()
    for g in groups_of(uids):
        a[g] = s[g] - (s[g].mean() if len(g) > 1 else 0)
    a = alpha * a
    return a[:, None] * m, a[:, None] * m


def adv_rpp(r, m, uids, gamma=1.0, **_):
    ret = np.zeros_like(r)
    run = np.zeros(r.shape[0], dtype=r.dtype)
    for t in reversed(range(r.shape[1])):
        run = r[:, t] + r.dtype.type(gamma) * run
        ret[:, t] = run
        run = run * m[:, t]
    return whiten(ret, m) * m, ret


def adv_rpp_baseline(r, m, uids, **_):
    s = r.sum(-1)
    c = s.copy()
    for g in groups_of(uids):
        if len(g) > 1:
            c[g] = s[g] - s[g].mean()
    a = whiten(np.repeat(c[:, None], r.shape[1], 1) * m, m) * m
    return a, a


def adv_remax(r, m, uids, baselines=None, **_):
    ret = np.flip(np.cumsum(np.flip(r * m, -1), -1), -1)
    return ret - baselines[:, None] * m, ret


ADV = {
    "grpo": adv_grpo,
    "grpo_passk": adv_passk,
    "rloo": adv_rloo,
    "opo": adv_opo,
    "gpg": adv_gpg,
    "reinforce_plus_plus": adv_rpp,
    "reinforce_plus_plus_baseline": adv_rpp_baseline,
    "remax": adv_remax,
}


# ----------------------------------------------------------------------- KL estimators


def kl_forward(name, lp, ref):
    base = name.rstrip("+")
    x = lp - ref
    if base in ("kl", "k1"):
        return x
    if base == "abs":
        return np.abs(x)
    if base in ("mse", "k2"):
        return 0.5 * x * x
    kl = np.clip(ref - lp, -20, 20)
    return np.clip(np.exp(kl) - kl - 1, -10, 10)


def kl_grad(name, lp, ref):
    x = lp - ref
    if name.endswith("+"):
        return x
    if name in ("kl", "k1"):
        return np.ones_like(x)
    if name == "abs":
        return np.sign(x)
    if name in ("mse", "k2"):
        return x
    kl = ref - lp
    inside = (kl >= -20) & (kl <= 20)
    kld = np.exp(np.clip(kl, -20, 20)) - np.clip(kl, -20, 20) - 1
    return np.where(inside & (kld <= 10), 1 - np.exp(np.clip(kl, -20, 20)), 0 * x)


KL_NAMES = ["kl", "k1", "abs", "mse", "k2", "low_var_kl", "k3", "k1+", "abs+", "k3+", "low_var_kl+", "k2+"]


# ------------------------------------------------------------------------- aggregation


def agg_weights(mode, m, n_tok, n_seq, norm_len):
    """w with agg(L) = sum(w * L), the global-denominator form."""
    ln = m.sum(-1, keepdims=True)
    if mode == "token-mean":
        return m / n_tok
    if mode == "seq-mean-token-sum":
        return m / n_seq
    if mode == "seq-mean-token-mean":
        return m / ((ln + 1e-8) * n_seq)
    return m / norm_len


def agg_verl(mode, L, m):
    """VeRL's agg_loss with local counts (no global_batch_info), written the VeRL way."""
    if mode == "token-mean":
        return (L * m).sum() / m.sum()
    if mode == "seq-mean-token-sum":
        seq = (L * m).sum(-1)
        valid = (m.sum(-1) > 0).astype(L.dtype)
        return (seq * valid).sum() / valid.sum()
    if mode == "seq-mean-token-mean":
        cnt = m.sum(-1)
        seq = (L * m).sum(-1) / (cnt + 1e-8)
        valid = (cnt > 0).astype(L.dtype)
        return (seq * valid).sum() / valid.sum()
    return (L * m).sum(-1).sum() / L.shape[-1]


AGG_MODES = ["token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"]


# ------------------------------------------------------------------------ policy losses


def pg_vanilla(lp, old, adv, m, cfg, lp_sg=None):
    x = lp - old
    nk = np.clip(x, -20, 20)
    ratio = np.exp(nk)
    dratio = np.where((x >= -20) & (x <= 20), ratio, 0 * ratio)
    lo, hi, c = 1 - cfg["low"], 1 + cfg["high"], cfg["c"]
    l1, d1 = -adv * ratio, -adv * dratio
    l2 = -adv * np.clip(ratio, lo, hi)
    d2 = np.where((ratio >= lo) & (ratio <= hi), d1, 0 * d1)
    lc = np.maximum(l1, l2)
    dc = np.where(l1 > l2, d1, np.where(l2 > l1, d2, 0.5 * (d1 + d2)))
    l3 = -adv * c
    ldual = np.minimum(l3, lc)
    ddual = np.where(lc < l3, dc, np.where(lc > l3, 0 * dc, 0.5 * dc))
    L = np.where(adv < 0, ldual, lc)
    D = np.where(adv < 0, ddual, dc)
    metrics = {
        "actor/pg_clipfrac": masked_mean((l2 > l1).astype(lp.dtype), m),
        "actor/pg_clipfrac_lower": masked_mean(((lc > l3) & (adv < 0)).astype(lp.dtype), m),
        "actor/ppo_kl": masked_mean(-nk, m),
    }
    return L, D, None, metrics


def pg_gspo(lp, old, adv, m, cfg, lp_sg=None):
    x = lp - old
    ln = np.maximum(m.sum(-1, keepdims=True), 1)
    seq = (x * m).sum(-1, keepdims=True) / ln
    s = np.exp(np.minimum(seq, 10)) + 0 * lp
    ds = np.where(seq <= 10, s, 0 * s)
    lo, hi = 1 - cfg["low"], 1 + cfg["high"]
    l1, d1 = -adv * s, -adv * ds
    l2 = -adv * np.clip(s, lo, hi)
    d2 = np.where((s >= lo) & (s <= hi), d1, 0 * d1)
    L = np.maximum(l1, l2)
    D = np.where(l1 > l2, d1, np.where(l2 > l1, d2, 0.5 * (d1 + d2)))
    metrics = {
        "actor/pg_clipfrac": masked_mean((l2 > l1).astype(lp.dtype), m),
        "actor/pg_clipfrac_lower": 0.0,
        "actor/ppo_kl": masked_mean(-x, m),
    }
    return L, D, "seq-mean-token-mean", metrics


def pg_cispo(lp, old, adv, m, cfg, lp_sg=None):
    # the clipped weight is detached: it is computed from lp_sg (= lp unless a check freezes it)
    nk = np.clip((lp if lp_sg is None else lp_sg) - old, -20, 20)
    ratio = np.exp(nk)
    w = np.clip(ratio, 1 - cfg["low"], 1 + cfg["high"])
    metrics = {
        "actor/pg_clipfrac": masked_mean((ratio != w).astype(lp.dtype), m),
        "actor/pg_clipfrac_lower": 0.0,
        "actor/ppo_kl": masked_mean(-nk, m),
    }
    return -w * adv * lp, -w * adv, None, metrics


def pg_gpg(lp, old, adv, m, cfg, lp_sg=None):
    return -lp * adv, -adv, None, {}


# -------------------------------------------------------------------- rollout correction


def is_weights(log_ratio, m, level, thr, batch_norm=False):
    if level == "token":
        w = np.exp(np.clip(log_ratio, -20, 20)) * m
        metrics = {
            "rollout_is_mean": masked_mean(w, m),
            "rollout_is_ratio_fraction_high": masked_mean((w > thr).astype(w.dtype), m),
            "rollout_is_ratio_fraction_low": masked_mean((w < 1 / thr).astype(w.dtype), m),
            "rollout_is_max": w[m > 0].max(),
            "rollout_is_min": w[m > 0].min(),
        }
    else:
        s = (log_ratio * m).sum(-1, keepdims=True)
        w = np.exp(np.clip(s, -20, 20)) * m
        metrics = {
            "rollout_is_mean": masked_mean(w, m),
            "rollout_is_ratio_fraction_high": (s > np.log(thr)).mean(),
            "rollout_is_ratio_fraction_low": (s < np.log(1 / thr)).mean(),
            "rollout_is_max": np.exp(min(s.max(), 20)),
            "rollout_is_min": np.exp(s.min()),
        }
    w = np.minimum(w, thr)
    if batch_norm:
        if level == "token":
            mean = masked_mean(w, m)
        else:
            cnt = m.sum(-1)
            seqw = (w * m).sum(-1) / (cnt + 1e-8)
            valid = (cnt > 0).astype(w.dtype)
            mean = (seqw * valid).sum() / max(valid.sum(), 1e-8)
        metrics["rollout_is_batch_norm_factor"] = mean if mean > 1e-8 else 1.0
        if mean > 1e-8:
            w = w / mean
    return w, metrics


def parse_rs(options, thresholds):
    opts = list(dict.fromkeys(o.strip() for o in options.split(",") if o.strip()))
    specs = [t.strip() for t in thresholds.split(",") if t.strip()]
    if len(specs) == 1:
        specs = specs * len(opts)
    rules = []
    for o, spec in zip(opts, specs):
        if o.endswith("k1"):
            lo, up = (spec.split("_") if "_" in spec else (1 / float(spec), spec))
            rules.append((o, float(lo), float(up)))
        else:
            rules.append((o, None, float(spec)))
    return rules


def rejection(log_ratio, m, rules):
    lr = np.clip(log_ratio, -20, 20)
    stats = {"k1": -lr, "k2": 0.5 * lr**2, "k3": np.exp(lr) - 1 - lr}
    combined = np.ones_like(m)
    metrics = {}
    cnt = m.sum(-1, keepdims=True)
    for name, lower, upper in rules:
        level, k = name.rsplit("_", 1)
        st = stats[k]
        if level == "token":
            val = st
        elif level == "seq_sum":
            val = (st * m).sum(-1, keepdims=True) + 0 * st
        elif level == "seq_mean":
            val = (st * m).sum(-1, keepdims=True) / (cnt + 1e-8) + 0 * st
        else:
            mx = np.where(m > 0, st, -np.inf).max(-1, keepdims=True)
            val = np.where(np.isinf(mx), 0, mx) + 0 * st
        keep = (val >= np.log(lower)) & (val <= np.log(upper)) if k == "k1" else val <= upper
        keep = keep.astype(m.dtype)
        metrics[f"rollout_rs_{name}_masked_fraction"] = masked_mean(1 - keep, m)
        seq_valid = (cnt[:, 0] > 0).astype(m.dtype)
        seq_keep = np.all(~((keep == 0) & (m > 0)), -1).astype(m.dtype)
        metrics[f"rollout_rs_{name}_seq_masked_fraction"] = (
            ((1 - seq_keep) * seq_valid).sum() / seq_valid.sum() if seq_valid.sum() > 0 else 0.0
        )
        combined = combined * keep
    metrics["rollout_rs_masked_fraction"] = masked_mean(1 - combined, m)
    metrics["rollout_rs_seq_masked_fraction"] = np.any((combined <= 0.5) & (m > 0), -1).mean()
    return m * combined, metrics


def correction(train_lp, rollout_lp, m, rc):
    lr = train_lp - rollout_lp
    w, metrics = (None, {})
    if rc.get("is"):
        w, metrics = is_weights(lr, m, rc["is"], rc["thr"], rc.get("batch_norm", False))
    m2 = m
    if rc.get("rs"):
        m2, rs_metrics = rejection(lr, m, parse_rs(rc["rs"], rc["rs_thr"]))
        metrics.update(rs_metrics)
    return w, m2, {"rollout_corr/" + k: v for k, v in metrics.items()}


def pg_bypass(lp, old, adv, m, cfg, lp_sg=None):
    rollout = old
    # IS weights and the rejection mask are detached: computed from lp_sg
    w, m2, metrics = correction(lp if lp_sg is None else lp_sg, rollout, m, cfg["rc"])
    if cfg["rc"]["loss_type"] == "ppo_clip":
        L, D, _, met = pg_vanilla(lp, rollout, adv, m2, cfg)
        metrics.update(met)
        return L, D, None, metrics, m2
    w = np.ones_like(lp) if w is None else w
    metrics["actor/ppo_kl"] = masked_mean(-(lp - rollout), m2)
    return -adv * lp * w, -adv * w, None, metrics, m2


PG = {"vanilla": pg_vanilla, "gspo": pg_gspo, "cispo": pg_cispo, "gpg": pg_gpg}


# ---------------------------------------------------------------------------- actor loss


def actor_loss(b, cfg, glob, lp_sg=None):
    """Returns value, dlogp, dentropy, metrics for the composed actor objective.

    lp_sg, when given, is the value that stop-gradient terms see (finite-difference checks
    freeze it so that they differentiate the same surrogate autodiff does)."""
    lp, m = b["log_prob"], b["mask"]
    mode = cfg["loss_mode"]
    if mode == "bypass_mode":
        L, D, force, metrics, pg_mask = pg_bypass(lp, b["old_log_prob"], b["advantages"], m, cfg, lp_sg)
    else:
        L, D, force, metrics = PG[mode](lp, b["old_log_prob"], b["advantages"], m, cfg, lp_sg)
        pg_mask = m
        if b.get("is_weights") is not None:
            L, D = L * b["is_weights"], D * b["is_weights"]
    n_tok, n_seq, norm_len = glob
    w_pg = agg_weights(force or cfg["agg"], pg_mask, n_tok, n_seq, norm_len)
    pg = (w_pg * np.where(w_pg != 0, L, 0)).sum()
    dlp = w_pg * D
    metrics = dict(metrics)
    metrics["actor/pg_loss"] = pg
    total = pg
    w = agg_weights(cfg["agg"], m, n_tok, n_seq, norm_len)
    dent = None
    if b.get("entropy") is not None:
        ent = (w * b["entropy"]).sum()
        metrics["actor/entropy"] = ent
        total = total - cfg["entropy_coeff"] * ent
        dent = -cfg["entropy_coeff"] * w
    if cfg.get("kl_type"):
        kl_mat = kl_forward(cfg["kl_type"], lp, b["ref_log_prob"])
        if cfg["kl_type"].endswith("+") and lp_sg is not None:
            # straight-through: forward of the estimator at sg, plus k2(x) - sg(k2(x))
            k2 = lambda v: 0.5 * (v - b["ref_log_prob"]) ** 2  # noqa: E731
            kl_mat = kl_forward(cfg["kl_type"], lp_sg, b["ref_log_prob"]) + k2(lp) - k2(lp_sg)
        kv = (w * kl_mat).sum()
        metrics["actor/kl_loss"] = kv
        metrics["actor/kl_coef"] = cfg["kl_coef"]
        total = total + cfg["kl_coef"] * kv
        dlp = dlp + cfg["kl_coef"] * w * kl_grad(cfg["kl_type"], lp, b["ref_log_prob"])
    return total, dlp, dent, metrics


def local_global(m):
    return (m.sum(), (m.sum(-1) > 0).sum(), m.shape[1])


# --------------------------------------------------------------------- finite differences


def fd_check(fn, lp, grad, label, rng, h=1e-6, tol=1e-6):
    """Directional central differences along a few random directions."""
    for _ in range(3):
        v = rng.standard_normal(lp.shape)
        num = (fn(lp + h * v) - fn(lp - h * v)) / (2 * h)
        ana = (grad * v).sum()
        if abs(num - ana) > tol * max(1.0, abs(ana)):
            raise SystemExit(f"finite-difference check failed for {label}: {num} vs {ana}")


# -------------------------------------------------------------------------------- data


def make_case(rng, group_sizes, cols, dtype, binary=False):
    rows = sum(group_sizes)
    uids = np.concatenate([[f"p{g}"] * n for g, n in enumerate(group_sizes)])
    perm = rng.permutation(rows)
    uids = uids[perm]  # groups interleaved, keyed by uid not by position
    lengths = rng.integers(1, cols + 1, rows)
    lengths[rng.integers(0, rows)] = 0  # one empty response
    m = (np.arange(cols)[None, :] < lengths[:, None]).astype(dtype)
    scores = rng.integers(0, 2, rows).astype(dtype) if binary else rng.standard_normal(rows).astype(dtype)
    r = np.zeros((rows, cols), dtype)
    r[np.arange(rows), np.where(lengths > 0, lengths - 1, cols - 1)] = scores
    old = (-np.abs(rng.standard_normal((rows, cols))) * 1.5).astype(dtype)
    lp = (old + rng.standard_normal((rows, cols)) * 0.3).astype(dtype)
    ref = (old + rng.standard_normal((rows, cols)) * 0.2).astype(dtype)
    rollout = (old + rng.standard_normal((rows, cols)) * 0.15).astype(dtype)
    ent = np.abs(rng.standard_normal((rows, cols))).astype(dtype)
    return {
        "rows": rows,
        "cols": cols,
        "uids": list(uids),
        "mask": m,
        "token_rewards": r,
        "reward_baselines": rng.standard_normal(rows).astype(dtype) * dtype(0.5),
        "log_prob": lp,
        "old_log_prob": old,
        "ref_log_prob": ref,
        "rollout_log_prob": rollout,
        "entropy": ent,
    }


BASE_CFG = {"low": 0.2, "high": 0.28, "c": 3.0, "entropy_coeff": 0.0}
RC_CONFIGS = {
    "tis_token": {"is": "token", "thr": 1.5},
    "tis_sequence": {"is": "sequence", "thr": 2.0},
    "tis_token_norm": {"is": "token", "thr": 1.5, "batch_norm": True},
    "tis_sequence_norm": {"is": "sequence", "thr": 2.0, "batch_norm": True},
    "rs_mixed": {"rs": "token_k1,seq_mean_k3,seq_max_k2,seq_sum_k2", "rs_thr": "0.8_1.25,0.01,0.05,0.3"},
    "tis_rs": {"is": "token", "thr": 2.0, "rs": "token_k3,seq_sum_k1", "rs_thr": "0.02,1.5"},
}


def compute_case(case, rng, check):
    m, r, uids = case["mask"], case["token_rewards"], case["uids"]
    out = {"advantages": {}, "kl": {}, "aggregation": {}, "policy_loss": {}, "correction": {}, "actor": {}}
    groups = groups_of(uids)
    for name, fn in ADV.items():
        if name == "grpo_passk" and min(len(g) for g in groups) < 2:
            continue
        variants = {"": {}}
        if name in ("grpo", "grpo_passk"):
            variants = {"": {"norm": True}, "/no_std": {"norm": False}}
        if name == "reinforce_plus_plus":
            variants = {"": {"gamma": 1.0}, "/gamma0.9": {"gamma": 0.9}}
        for suffix, kw in variants.items():
            a, ret = fn(r, m, uids, baselines=case["reward_baselines"], **kw)
            out["advantages"][name + suffix] = {"advantages": a, "returns": ret}
    adv = out["advantages"]["grpo"]["advantages"]
    case["advantages"] = adv
    lp, ref = case["log_prob"], case["ref_log_prob"]
    for name in KL_NAMES:
        out["kl"][name] = {"value": kl_forward(name, lp, ref), "grad": kl_grad(name, lp, ref)}
    loss_mat = rng.standard_normal(m.shape).astype(m.dtype)
    case["loss_matrix"] = loss_mat
    for mode in AGG_MODES:
        out["aggregation"][mode] = agg_verl(mode, loss_mat, m)
    batch = {k: case[k] for k in ("log_prob", "old_log_prob", "advantages", "mask")}
    glob = local_global(m)
    for mode in list(PG) + ["bypass_reinforce", "bypass_ppo_clip"]:
        for agg in AGG_MODES:
            cfg = dict(BASE_CFG, loss_mode=mode, agg=agg)
            if mode.startswith("bypass"):
                cfg["loss_mode"] = "bypass_mode"
                cfg["rc"] = {"is": "token", "thr": 1.5, "rs": "token_k1", "rs_thr": "0.7_1.4",
                             "loss_type": mode[len("bypass_"):]}
            val, dlp, _, met = actor_loss(batch, cfg, glob)
            if check:
                fd_check(lambda x: actor_loss(dict(batch, log_prob=x), cfg, glob, lp)[0], lp, dlp,
                         f"{mode}/{agg}", rng)
            out["policy_loss"][f"{mode}/{agg}"] = {"value": val, "grad": dlp, "metrics": met}
    for name, rc in RC_CONFIGS.items():
        w, m2, met = correction(case["old_log_prob"], case["rollout_log_prob"], m, rc)
        entry = {"mask": m2, "metrics": met}
        if w is not None:
            entry["weights"] = w
            cfg = dict(BASE_CFG, loss_mode="vanilla", agg="token-mean")
            b2 = dict(batch, is_weights=w, mask=m2)
            val, dlp, _, met2 = actor_loss(b2, cfg, local_global(m2))
            entry["vanilla_token_mean"] = {"value": val, "grad": dlp}
        out["correction"][name] = entry
    full = dict(batch, entropy=case["entropy"], ref_log_prob=ref)
    for agg in AGG_MODES:
        for kl_type in ("low_var_kl", "k3+", "k1"):
            cfg = dict(BASE_CFG, loss_mode="vanilla", agg=agg, entropy_coeff=0.01,
                       kl_type=kl_type, kl_coef=0.001)
            val, dlp, dent, met = actor_loss(full, cfg, glob)
            if check:
                fd_check(lambda x: actor_loss(dict(full, log_prob=x), cfg, glob, lp)[0], lp, dlp,
                         f"actor/{agg}/{kl_type}", rng)
                fd_check(lambda x: actor_loss(dict(full, entropy=x), cfg, glob)[0], case["entropy"],
                         dent, f"actor-entropy/{agg}", rng)
            out["actor"][f"{agg}/{kl_type}"] = {"value": val, "dlogp": dlp, "dentropy": dent, "metrics": met}
    return out


def misc_fixtures(rng):
    m = (np.arange(7)[None, :] < np.array([7, 3, 5, 1])[:, None]).astype(np.float64)
    scores = rng.standard_normal((4, 7)) * m
    old, ref = -np.abs(rng.standard_normal((4, 7))), -np.abs(rng.standard_normal((4, 7)))
    kl = kl_forward("kl", old, ref) * m
    cur = ((kl * m).sum(-1) / (m.sum(-1) + 1e-8)).mean()
    beta, target, horizon = 0.05, 0.1, 100
    err = np.clip(cur / target - 1, -0.2, 0.2)
    kl_reward = {
        "mask": m, "scores": scores, "old": old, "ref": ref, "beta": beta,
        "rewards": scores - beta * kl, "current_kl": cur,
        "adaptive_next": beta * (1 + err * 4 / horizon), "target": target, "horizon": horizon,
    }
    lengths = [0, 100, 3000, 3072, 3500, 4095, 4096]
    overlong = {"max_len": 4096, "buffer": 1024, "factor": 1.0, "lengths": lengths,
                "penalty": [min(-(n - (4096 - 1024)) / 1024 * 1.0, 0) for n in lengths]}
    n, v, temp = 6, 11, 0.7
    logits = (rng.standard_normal((n, v)) * 3).astype(np.float32)
    z = logits.astype(np.float64) / temp
    zs = z - z.max(-1, keepdims=True)
    p = np.exp(zs) / np.exp(zs).sum(-1, keepdims=True)
    lse = np.log(np.exp(zs).sum(-1)) + z.max(-1)
    h = lse - (p * z).sum(-1)
    dh = rng.standard_normal(n)
    dlogits = -dh[:, None] * p * (z - (p * z).sum(-1, keepdims=True)) / temp
    entropy = {"tokens": n, "vocab": v, "temperature": temp, "logits": logits.astype(np.float64),
               "entropy": h, "d_entropy": dh, "d_logits": dlogits}
    return {"kl_in_reward": kl_reward, "overlong": overlong, "entropy_from_logits": entropy}


def to_json(x):
    if isinstance(x, dict):
        return {k: to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    if isinstance(x, np.ndarray):
        return [to_json(v) for v in x.reshape(-1).tolist()] if x.dtype != object else list(x)
    if isinstance(x, (np.floating, float)):
        return float(f"{float(x):.17g}")
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x


def write_fixtures():
    rng = np.random.default_rng(20260329)
    cases = []
    specs = [
        ("ragged_1_16_3", [1, 16, 3], 11, np.float64, False),
        ("mixed_2_5_4_1_8", [2, 5, 4, 1, 8], 9, np.float64, False),
        ("binary_4x4", [4, 4, 4, 4], 8, np.float64, True),
        ("f32_3_6_2", [3, 6, 2], 10, np.float32, False),
    ]
    for name, sizes, cols, dtype, binary in specs:
        case = make_case(rng, sizes, cols, dtype, binary)
        out = compute_case(case, rng, check=dtype == np.float64)
        inputs = {k: case[k] for k in ("rows", "cols", "uids", "mask", "token_rewards", "reward_baselines",
                                         "log_prob", "old_log_prob", "ref_log_prob", "rollout_log_prob",
                                         "entropy", "loss_matrix")}
        cases.append({"name": name, "dtype": np.dtype(dtype).name, "inputs": inputs, "expected": out})
    doc = {
        "generator": "tools/grpo_reference.py",
        "config": {"clip_ratio_low": 0.2, "clip_ratio_high": 0.28, "clip_ratio_c": 3.0,
                   "rollout_correction": RC_CONFIGS,
                   "bypass": {"is": "token", "thr": 1.5, "rs": "token_k1", "rs_thr": "0.7_1.4"}},
        "cases": cases,
        "misc": misc_fixtures(rng),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(to_json(doc), f, separators=(",", ":"))
    print(f"wrote {OUT} ({os.path.getsize(OUT)} bytes)")


def bench(rows=256, cols=512, group=16, repeats=21):
    """Times advantages (grpo) + actor loss (vanilla, entropy, k3 KL loss) at (B, T)."""
    rng = np.random.default_rng(1)
    case = make_case(rng, [group] * (rows // group), cols, np.float64)
    cfg = dict(BASE_CFG, loss_mode="vanilla", agg="token-mean", entropy_coeff=0.01, kl_type="low_var_kl",
               kl_coef=0.001)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        adv, _ = adv_grpo(case["token_rewards"], case["mask"], case["uids"])
        b = {"log_prob": case["log_prob"], "old_log_prob": case["old_log_prob"], "advantages": adv,
             "mask": case["mask"], "entropy": case["entropy"], "ref_log_prob": case["ref_log_prob"]}
        actor_loss(b, cfg, local_global(case["mask"]))
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    print(f"numpy B={rows} T={cols}: median {times[len(times) // 2]:.2f} ms over {repeats} runs "
          f"(min {times[0]:.2f}, max {times[-1]:.2f})")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bench", action="store_true", help="time B=256,T=512 instead of writing fixtures")
    args = p.parse_args()
    if args.bench:
        bench()
    else:
        write_fixtures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
