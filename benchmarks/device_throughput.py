"""Benchmark: prompt sentences per second of the paper's architectures on this machine's device, for the forecasts of
``bin/plan --device`` (``src/directional_inference/tools/forecast.py``).

Each architecture is built from its config with random weights (speed does not depend on the weights' values, and no
hub is needed): RoBERTa-base and -large, BERT-base and -large as 2-label sequence classifiers. A training step is
forward, backward and an AdamW step over an S&S batch (6 pairs x 8 prompt sentences = 48 sentences) of ``--tokens``
random token ids; scoring is a forward pass of the same batch under ``inference_mode``. The least time of ``--steps``
after a warm-up, in the number format ``precision: auto`` takes here (measured, ``compute.resolve_precision``), or the
one given.

    .venv/bin/python benchmarks/device_throughput.py [--threads 2] [--steps 3] [--tokens 24] [--precision fp32|bf16]

Appends one row per architecture size to ``benchmarks/results/device_throughput.json`` (rows of the same device and
size are replaced). Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from importlib.metadata import version as package_version
from pathlib import Path

# the paper's English architectures, as their configs define them (transformers' defaults for BERT and RoBERTa base
# are the base sizes)
ARCHITECTURES = {
    "roberta-base": ("roberta", {}),
    "roberta-large": ("roberta", {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096}),
    "bert-base": ("bert", {}),
    "bert-large": ("bert", {"hidden_size": 1024, "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096}),
}
BATCH_SENTENCES = 48  # 6 pairs (the paper's base batch) x 8 prompt sentences


def build(name: str):
    import torch
    from transformers import BertConfig, BertForSequenceClassification, RobertaConfig, RobertaForSequenceClassification

    kind, sizes = ARCHITECTURES[name]
    torch.manual_seed(0)
    if kind == "roberta":
        return RobertaForSequenceClassification(
            RobertaConfig(vocab_size=50265, max_position_embeddings=514, type_vocab_size=1, num_labels=2, **sizes)
        )
    return BertForSequenceClassification(BertConfig(vocab_size=30522, num_labels=2, **sizes))


def measure(name: str, device, precision: str, tokens: int, steps: int) -> dict:
    import torch

    model = build(name).to(device)
    ids = torch.randint(5, model.config.vocab_size, (BATCH_SENTENCES, tokens), generator=torch.Generator().manual_seed(1)).to(device)
    mask, labels = torch.ones_like(ids), torch.zeros(BATCH_SENTENCES, dtype=torch.long, device=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    autocast = dict(device_type=device.type, dtype=torch.bfloat16, enabled=precision == "bf16")

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    def train_step():
        model.train()
        with torch.autocast(**autocast):
            loss = torch.nn.functional.cross_entropy(model(input_ids=ids, attention_mask=mask).logits.float(), labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

    def score_step():
        model.eval()
        with torch.inference_mode(), torch.autocast(**autocast):
            model(input_ids=ids, attention_mask=mask)

    timings = {}
    for what, step in (("train", train_step), ("score", score_step)):
        step()  # warm-up
        times = []
        for _ in range(steps):
            sync()
            start = time.perf_counter()
            step()
            sync()
            times.append(time.perf_counter() - start)
        timings[what] = min(times)
    return {"train_sentences_per_s": BATCH_SENTENCES / timings["train"], "score_sentences_per_s": BATCH_SENTENCES / timings["score"]}


def main() -> None:
    import torch

    from directional_inference.compute import device_label, resolve_precision, set_threads

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=24, help="tokens per prompt sentence (S&S prompt sentences: 15-30)")
    parser.add_argument("--precision", choices=("auto", "fp32", "bf16"), default="auto")
    parser.add_argument("--output", default="benchmarks/results/device_throughput.json")
    args = parser.parse_args()
    set_threads(args.threads)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    kind, device_name = device_label(device, args.threads)
    output = Path(args.output)
    rows = json.loads(output.read_text(encoding="utf-8"))["rows"] if output.is_file() else []
    for size, name in (("base", "roberta-base"), ("large", "roberta-large")):
        precision, reason = (
            resolve_precision(args.precision, device.type, model=build(name).to(device), device=device)
            if args.precision == "auto"
            else (args.precision, "as given")
        )
        row = {
            "device": kind,
            "device_name": device_name,
            "size": size,
            "architecture": name,
            "precision": precision,
            "precision_reason": reason,
            "batch_sentences": BATCH_SENTENCES,
            "tokens": args.tokens,
            "torch": torch.__version__,
            "transformers": package_version("transformers"),
            "date": dt.date.today().isoformat(),
            **measure(name, device, precision, args.tokens, args.steps),
        }
        # the other architecture of the size, for the record (the forecast reads the RoBERTa row)
        other = "bert-base" if size == "base" else "bert-large"
        row["bert_" + "train_sentences_per_s"] = measure(other, device, precision, args.tokens, args.steps)["train_sentences_per_s"]
        rows = [r for r in rows if (r["device"], r["size"]) != (kind, size)] + [row]
        print(json.dumps(row, indent=1), flush=True)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps({"rows": rows}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
