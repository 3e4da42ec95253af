"""Benchmark: a BoOQA scoring job's peak memory against the number of entries it scores (it reads and scores the
evidence in bounded batches, so memory should not grow).

    .venv/bin/python benchmarks/scoring_memory.py [--entries 5000 50000] [--evidence-per-entry 20] [--methods sns_full lm_rel]

The smoke scale's tiny encoder (``resources.models.build_tiny_model``, the smoke config's spec) stands in for the model;
entries and evidence are synthetic (predicates and arguments drawn from LevyHolt's words, so that they tokenise like
real ones). For each size and method ``evaluation.scoring.score_split`` (what rule score_booqa runs) scores every entry
in a process of its own, on the GPU where there is one; its peak resident memory (``getrusage``), its peak GPU memory
(``torch.cuda.max_memory_allocated``) and time go to ``benchmarks/results/scoring_memory.json`` (``--output``) with the
CPU and the device.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version as package_version
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "src"))

from paper_scale import cpu  # noqa: E402

SCORE = """
import json, resource, sys, time
import pandas as pd
from directional_inference.compute import set_threads
from directional_inference.engine import Engine
from directional_inference.evaluation.scoring import score_split
set_threads(1)
method, model, entries, evidence, settings = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], json.loads(sys.argv[5])
started = time.monotonic()
with Engine(4000, 1, None) as engine:
    frame = score_split(engine, method, "en", pd.read_parquet(entries), evidence, settings, model=model)
import torch
gpu = torch.cuda.max_memory_allocated() / 2**20 if torch.cuda.is_available() else 0.0
print(len(frame), time.monotonic() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, gpu,
      torch.cuda.get_device_name() if torch.cuda.is_available() else "cpu")
"""
SETTINGS = {"sns_full": {"max_length": 48, "precision": "fp32"}, "lm_rel": {"lm_pooling": "predicate_mean", "lm_window": 64}}


def synthetic_split(entries: int, per_entry: int, words: list[str], seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Bundles of a positive and two negatives over random words, and ``per_entry`` evidence rows per entry on average."""
    rng = np.random.default_rng(seed)
    pick = lambda n: np.array(words)[rng.integers(0, len(words), size=n)]  # noqa: E731
    bundle = np.arange(entries) // 3
    split = pd.DataFrame(
        {
            "id": [f"en-{k:07d}" for k in range(entries)],
            "bundle_id": [f"en-{b:07d}" for b in bundle],
            "label": np.arange(entries) % 3 == 0,
            "subj": pick(entries),
            "pred": pick(entries),
            "obj": pick(entries),
            "subj_type": "thing",
            "obj_type": "thing",
        }
    )
    counts = rng.poisson(per_entry, size=entries)
    owner = np.repeat(np.arange(entries), counts)
    evidence = pd.DataFrame(
        {
            "entry": split["id"].to_numpy()[owner],
            "pred": pick(len(owner)),
            "subj": split["subj"].to_numpy()[owner],
            "obj": split["obj"].to_numpy()[owner],
            "aligned": rng.random(len(owner)) < 0.7,
            "sentence": "",
        }
    )
    return split, evidence


def main(argv: list[str] | None = None) -> int:
    from directional_inference.resources.models import build_tiny_model
    from directional_inference.sns.prompts import template_texts

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, nargs="+", default=[5_000, 50_000])
    parser.add_argument("--evidence-per-entry", type=int, default=20)
    parser.add_argument("--methods", nargs="+", default=["sns_full", "lm_rel"])
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "scoring_memory.json")
    args = parser.parse_args(argv)
    spec = yaml.safe_load((REPO / "config" / "smoke.yaml").read_text())["models"]["tiny"]["tiny"]
    words = sorted(
        {w for t in template_texts() for w in t.lower().split() if w.isalpha()}
        | {"acquire", "buy", "sue", "visit", "own", "apple", "beats", "google", "paris"}
    )
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        model = build_tiny_model(spec, template_texts() + [" ".join(words)], Path(tmp) / "tiny", seed=1)
        for size in args.entries:
            split, evidence = synthetic_split(size, args.evidence_per_entry, words, seed=size)
            split.to_parquet(Path(tmp) / f"split-{size}.parquet", index=False)
            evidence.to_parquet(Path(tmp) / f"evidence-{size}.parquet", index=False)
            for method in args.methods:
                out = subprocess.run(
                    [
                        sys.executable,
                        "-c",
                        SCORE,
                        method,
                        str(model),
                        str(Path(tmp) / f"split-{size}.parquet"),
                        str(Path(tmp) / f"evidence-{size}.parquet"),
                        json.dumps(SETTINGS[method]),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.split()
                runs.append(
                    {
                        "method": method,
                        "entries": size,
                        "evidence_rows": len(evidence),
                        "seconds": round(float(out[1]), 1),
                        "peak_mb": round(float(out[2]), 1),
                        "gpu_peak_mb": round(float(out[3]), 1),
                        "device": " ".join(out[4:]),
                    }
                )
                print(runs[-1])
    record = {
        "benchmark": "score_split of one job, the smoke scale's tiny model, one thread",
        "cpu": cpu(),
        "torch": package_version("torch"),
        "transformers": package_version("transformers"),
        "date": time.strftime("%Y-%m-%d"),
        "batch_rows": "evaluation.scoring.BATCH_ROWS",
        "runs": runs,
    }
    args.output.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
