"""Benchmark: an S&S training step with the batch's reference dropout masks against masks drawn a pass.

On LevyHolt Directional (the authors' training file, from the mirror), with the offline MiniLM, per number format and
prompt set (S&S, 'S&S): the same seeded batches of 8 pairs trained from the same weights (the step of
``benchmarks/embedding_gradient.py``: loss, backward, clipping, AdamW step), once with ``dropout_masks="pass"`` and
once with ``"reference"`` (``sns.dropout_masks``: each reference pass of 32 sentences drawn whole, its rows taken by the
passes of least cost), in turn (pass, reference, pass, reference, ...): milliseconds a batch and the change.

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/dropout_masks.py [--threads 1] [--precisions fp32]

Writes ``benchmarks/results/dropout_masks.json``. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embedding_gradient import train, write_steps  # noqa: E402
from sns_throughput import _entries  # noqa: E402

KINDS = ("pass", "reference")


def main() -> None:
    from directional_inference.compute import set_threads
    from directional_inference.resources.models import resolve_model

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--precisions", nargs="+", default=["fp32", "bf16"], choices=["fp32", "bf16"])
    parser.add_argument("--batches", type=int, default=16)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2, help="pairs of runs (pass, reference) per format and prompt set")
    parser.add_argument("--seed", type=int, default=47110815)
    parser.add_argument("--output", default="benchmarks/results/dropout_masks.json")
    args = parser.parse_args()
    set_threads(args.threads)
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    model_dir = str(resolve_model("sentence-transformers/all-MiniLM-L6-v2"))
    train_entries = _entries(mirror, "train")
    rows = []
    for precision in args.precisions:
        for variant, symmetric in (("sns", False), ("sns_sym", True)):
            runs = {kind: [] for kind in KINDS}
            for _ in range(args.rounds):
                for kind in KINDS:
                    result = train(
                        model_dir,
                        train_entries,
                        touched_rows=True,
                        precision=precision,
                        symmetric=symmetric,
                        batches=args.batches,
                        warmup=args.warmup,
                        seed=args.seed,
                        dropout_masks=kind,
                    )
                    runs[kind].append(result["ms_per_batch"])
            by_pass, by_reference = (statistics.median(runs[kind]) for kind in KINDS)
            rows.append(
                {
                    "precision": precision,
                    "variant": variant,
                    "pass_ms_per_batch": [round(ms, 1) for ms in runs["pass"]],
                    "reference_ms_per_batch": [round(ms, 1) for ms in runs["reference"]],
                    "change": round(by_reference / by_pass - 1, 4),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    write_steps(args, "in turn: pass, reference, pass, reference (one process)", rows)


if __name__ == "__main__":
    main()
