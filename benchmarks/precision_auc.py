"""Benchmark: does bf16 change AUC? The same S&S model trained in fp32 and in bf16, each scored in its own format,
and the fp32-trained model also scored in bf16 (inference alone), on the same dev and test sets.

On LevyHolt Directional and Symmetric (the authors' released files, from the mirror) with the offline MiniLM, the
default scale's recipe (batch 8, learning rate 5.2e-5, 4 dev evaluations an epoch, patience 3, at most 3 epochs; a
stratified test sample of ``--test`` pairs with converse pairs together). For each set: AUCnorm of each run and the
paired bootstrap interval of the difference bf16 - fp32 (converse pairs resampled together, 1,000 resamples). If
every interval holds 0, bf16 is within noise and ``training.precision: auto`` may take it where the CPU computes it
natively.

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/precision_auc.py [--subsets directional symmetric]

Writes ``benchmarks/results/precision_auc.json``. It trains two models per subset: on 2 cores, Directional takes
minutes, Symmetric most of an hour in fp32.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def compare(fp32_scores, bf16_scores, entries, *, seed: int) -> dict:
    from directional_inference.metrics import auc_norm, bootstrap_difference, precision_recall_curve
    from directional_inference.levyholt.scores import converse_group_ids

    labels = np.array([e.label for e in entries], dtype=bool)
    a, b = (auc_norm(precision_recall_curve(s, labels)) for s in (fp32_scores, bf16_scores))
    low, high = bootstrap_difference(fp32_scores, bf16_scores, labels, converse_group_ids(entries), resamples=1000, seed=seed)
    return {
        "n": len(entries),
        "fp32_auc_norm": round(100 * a, 2),
        "bf16_auc_norm": round(100 * b, 2),
        "difference": round(100 * (b - a), 2),
        "difference_low": round(100 * low, 2),
        "difference_high": round(100 * high, 2),
        "within_noise": bool(low <= 0 <= high),
    }


def run_subset(model_dir: str, subset: str, mirror: Path, *, test_size: int, seed: int) -> dict:
    from directional_inference.levyholt.english import read_authors_subset
    from directional_inference.levyholt.entries import stratified_sample
    from directional_inference.sns.model import PromptScorer
    from directional_inference.sns.training import Hyperparameters, TrainingSettings, train_prompt_model

    train, dev = read_authors_subset(mirror / "levyholt-authors", subset, "train"), read_authors_subset(mirror / "levyholt-authors", subset, "dev")
    test = stratified_sample(read_authors_subset(mirror / "levyholt-authors", subset, "test"), test_size, seed)
    hp = Hyperparameters(0, 5.2e-5, 0.01, 1)
    runs, scores = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for precision in ("fp32", "bf16"):
            settings = TrainingSettings(
                epochs=3, batch_size=8, max_length=48, seed=seed, symmetric=False, evaluations_per_epoch=4, patience=3, precision=precision
            )
            start = time.perf_counter()
            result = train_prompt_model(model_dir, train, dev, hp, settings, Path(tmp) / precision, Path(tmp) / f"{precision}-ckpt")
            seconds = time.perf_counter() - start
            scores[precision] = {"dev": result.dev_scores, "test": result.scorer.scores(test)}
            runs[precision] = {
                "training_s": round(seconds, 1),
                "best": result.best,
                "stop_reason": result.record["stop_reason"],
                "evaluations": len(result.evaluations),
            }
        inference_only = PromptScorer(Path(tmp) / "fp32", max_length=48, symmetric=False, precision="bf16")
        scores["fp32 weights, bf16 scoring"] = {"dev": inference_only.scores(dev), "test": inference_only.scores(test)}
    return {
        "train_pairs": len(train),
        "runs": runs,
        "trained_and_scored": {
            split: compare(scores["fp32"][split], scores["bf16"][split], data, seed=seed) for split, data in (("dev", dev), ("test", test))
        },
        "scored_only": {
            split: compare(scores["fp32"][split], scores["fp32 weights, bf16 scoring"][split], data, seed=seed)
            for split, data in (("dev", dev), ("test", test))
        },
    }


def main() -> None:
    from sns_throughput import machine

    from directional_inference.compute import set_threads
    from directional_inference.resources.models import resolve_model

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--subsets", nargs="+", default=["directional"])
    parser.add_argument("--test", type=int, default=2000, help="test pairs sampled per subset (stratified, converse pairs together)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=47110815)
    parser.add_argument("--output", default="benchmarks/results/precision_auc.json")
    args = parser.parse_args()
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    set_threads(args.threads)
    model_dir = str(resolve_model("sentence-transformers/all-MiniLM-L6-v2"))
    results = {
        "machine": machine(args.threads),
        "model": "all-MiniLM-L6-v2, S&S prompts",
        "subsets": {subset: run_subset(model_dir, subset, mirror, test_size=args.test, seed=args.seed) for subset in args.subsets},
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=1, default=float) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1, default=float))


if __name__ == "__main__":
    main()
