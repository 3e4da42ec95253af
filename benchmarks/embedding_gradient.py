"""Benchmark: an S&S training step with the word embeddings' gradient summed on touched rows against torch's dense one.

On LevyHolt Directional (the authors' training file, from the mirror), with the offline MiniLM, per number format and
prompt set (S&S, 'S&S): the same seeded batches of 8 pairs trained from the same weights, once with the gradient on
touched rows (``sns.embedding_gradient``, what ``PromptScorer`` does on a CPU) and once with torch's dense gradient,
in turn (dense, touched, dense, touched, ...): milliseconds a batch (loss, backward, clipping, AdamW step), and whether
the weights after the last step are the same bytes.

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/embedding_gradient.py [--threads 1] [--batches 24]

Writes ``benchmarks/results/embedding_gradient.json``. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sns_throughput import _entries, machine  # noqa: E402


def train(
    model_dir: str,
    train_entries,
    *,
    touched_rows: bool,
    precision: str,
    symmetric: bool,
    batches: int,
    warmup: int,
    seed: int,
    dropout_masks: str = "pass",
) -> dict:
    """Milliseconds a batch (after ``warmup`` batches) and the weights' digest after ``batches`` batches."""
    import torch

    from directional_inference.sns import embedding_gradient
    from directional_inference.sns.model import PromptScorer
    from directional_inference.sns.training import Hyperparameters, _optimizer

    install = embedding_gradient.sum_touched_rows
    if not touched_rows:
        embedding_gradient.sum_touched_rows = lambda model: False
    try:
        torch.manual_seed(seed)
        scorer = PromptScorer(model_dir, max_length=48, symmetric=symmetric, precision=precision, dropout_masks=dropout_masks)
    finally:
        embedding_gradient.sum_touched_rows = install
    pairs = scorer.encode(train_entries)
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    optimizer = _optimizer(scorer.model, Hyperparameters(0, 5e-5, 0.01, 1))
    scorer.model.train()
    seconds = 0.0
    for index in range(batches):
        start = time.perf_counter()
        scorer.loss([pairs[i] for i in order[index * 8 : (index + 1) * 8]]).backward()
        torch.nn.utils.clip_grad_norm_(scorer.model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad()
        if index >= warmup:
            seconds += time.perf_counter() - start
    digest = hashlib.sha256()
    for name, value in scorer.model.state_dict().items():
        digest.update(name.encode() + value.detach().contiguous().view(torch.uint8).numpy().tobytes())
    return {"ms_per_batch": 1000 * seconds / (batches - warmup), "weights_sha256": digest.hexdigest()}


def main() -> None:
    from directional_inference.compute import set_threads
    from directional_inference.resources.models import resolve_model

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--batches", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (dense, touched) per format and prompt set")
    parser.add_argument("--seed", type=int, default=47110815)
    parser.add_argument("--output", default="benchmarks/results/embedding_gradient.json")
    args = parser.parse_args()
    set_threads(args.threads)
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    model_dir = str(resolve_model("sentence-transformers/all-MiniLM-L6-v2"))
    train_entries = _entries(mirror, "train")
    rows = []
    for precision in ("fp32", "bf16"):
        for variant, symmetric in (("sns", False), ("sns_sym", True)):
            runs = {"dense": [], "touched": []}
            for _ in range(args.rounds):
                for kind in ("dense", "touched"):
                    runs[kind].append(
                        train(
                            model_dir,
                            train_entries,
                            touched_rows=kind == "touched",
                            precision=precision,
                            symmetric=symmetric,
                            batches=args.batches,
                            warmup=args.warmup,
                            seed=args.seed,
                        )
                    )
            dense, touched = (statistics.median(r["ms_per_batch"] for r in runs[k]) for k in ("dense", "touched"))
            rows.append(
                {
                    "precision": precision,
                    "variant": variant,
                    "dense_ms_per_batch": [round(r["ms_per_batch"], 1) for r in runs["dense"]],
                    "touched_ms_per_batch": [round(r["ms_per_batch"], 1) for r in runs["touched"]],
                    "change": round(touched / dense - 1, 4),
                    "same_weights": len({r["weights_sha256"] for r in runs["dense"] + runs["touched"]}) == 1,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    write_steps(args, "in turn: dense, touched, dense, touched (one process)", rows)


def write_steps(args: argparse.Namespace, order: str, rows: list[dict]) -> None:
    """The output file of a comparison of training steps (this one's or another benchmark's): machine, model, data,
    order of the runs, and a row per format and prompt set."""
    results = {
        "machine": machine(args.threads),
        "model": "all-MiniLM-L6-v2 (22.7M parameters) as a 2-label sequence classifier",
        "data": f"LevyHolt Directional (authors' training file): {args.batches} seeded batches of 8 pairs, the first "
        f"{args.warmup} not timed; token limit 48",
        "order": order,
        "rows": rows,
    }
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
