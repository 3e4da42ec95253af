"""Benchmark: S&S training and scoring throughput against the same model's plain forward(+backward) limit.

On LevyHolt Directional (the authors' released train / test files, from the mirror), with the offline MiniLM:

* training: prompt sentences per second of the S&S loop (``PromptScorer.loss``, backward, clipping, AdamW step, as in
  ``sns.training``) against plain forward+backward of the classifier on tensors of the same shapes (the chunks of
  similar-length sentences the scorer makes of each batch);
* scoring: prompt sentences per second of ``PromptScorer.scores`` against plain forward passes of the same shapes;
* each in fp32 and under bf16 autocast, and the share of padding tokens in the batches.

Whether bf16 changes AUC is ``benchmarks/precision_auc.py``.

    BOOQA_MIRROR=../shared/mirror .venv/bin/python benchmarks/sns_throughput.py [--threads 2] [--batches 12]

Writes ``benchmarks/results/sns_throughput.json``. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path


def _entries(mirror: Path, split: str):
    from directional_inference.levyholt.english import read_authors_subset

    return read_authors_subset(mirror / "levyholt-authors", "directional", split)


def _tensors(scorer, pairs):
    """The forward passes of one batch as the scorer makes them: (input ids, attention mask) per chunk of sentences of
    similar length, with the batch's real and padded token counts."""
    ids = [s for p in pairs for s in p.prompts] + [s for p in pairs for s in p.antiprompts]
    passes = [scorer.padded([ids[k] for k in chunk]) for chunk in scorer.chunks(ids)]
    return passes, sum(len(s) for s in ids), sum(input_ids.numel() for input_ids, _ in passes)


def measure(model_dir: str, train, test, *, precision: str, batch_size: int, batches: int, seed: int) -> dict:
    import torch

    from directional_inference.sns.model import PromptScorer
    from directional_inference.sns.training import Hyperparameters, _optimizer

    torch.manual_seed(seed)
    scorer = PromptScorer(model_dir, max_length=128, symmetric=False, precision=precision)
    pairs = scorer.encode(train)
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    batch_list = [[pairs[i] for i in order[k * batch_size : (k + 1) * batch_size]] for k in range(batches)]
    sentences = sum(len(p.prompts) + len(p.antiprompts) for b in batch_list for p in b)
    optimizer = _optimizer(scorer.model, Hyperparameters(0, 5e-5, 0.01, 1))
    autocast = dict(device_type="cpu", dtype=torch.bfloat16, enabled=precision == "bf16")
    scorer.model.train()

    def loop():
        for batch in batch_list:
            scorer.loss(batch).backward()
            torch.nn.utils.clip_grad_norm_(scorer.model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad()

    tensors = [_tensors(scorer, b) for b in batch_list]

    def plain():
        for passes, _, _ in tensors:
            for input_ids, mask in passes:
                with torch.autocast(**autocast):
                    logits = scorer.model(input_ids=input_ids, attention_mask=mask).logits
                logits.float().sum().backward()
            scorer.model.zero_grad()

    loop()  # warm-up (allocator, oneDNN kernels)
    start = time.perf_counter()
    plain()
    plain_s = time.perf_counter() - start
    start = time.perf_counter()
    loop()
    loop_s = time.perf_counter() - start
    test_pairs = scorer.encode(test)
    scorer.scores(test_pairs[:64])  # warm-up
    start = time.perf_counter()
    scorer.scores(test_pairs)
    score_s = time.perf_counter() - start
    order = sorted(range(len(test_pairs)), key=lambda k: (test_pairs[k].longest, k))
    score_tensors = [_tensors(scorer, [test_pairs[k] for k in order[i : i + 32]]) for i in range(0, len(order), 32)]
    scorer.model.eval()
    start = time.perf_counter()
    with torch.inference_mode():
        for passes, _, _ in score_tensors:
            for input_ids, mask in passes:
                with torch.autocast(**autocast):
                    scorer.model(input_ids=input_ids, attention_mask=mask)
    forward_s = time.perf_counter() - start
    test_sentences = sum(len(p.prompts) + len(p.antiprompts) for p in test_pairs)
    real, padded = sum(t[1] for t in tensors), sum(t[2] for t in tensors)
    return {
        "precision": precision,
        "train_sentences": sentences,
        "train_sentences_per_s": sentences / loop_s,
        "forward_backward_sentences_per_s": sentences / plain_s,
        "train_share_of_limit": plain_s / loop_s,
        "train_padding_share": 1 - real / padded,
        "score_sentences": test_sentences,
        "score_sentences_per_s": test_sentences / score_s,
        "forward_sentences_per_s": test_sentences / forward_s,
        "score_share_of_limit": forward_s / score_s,
    }


def machine(threads: int) -> dict:
    """The CPU a benchmark ran on (its model name, family and model, its bf16 flags)."""
    import torch

    from directional_inference.compute import NATIVE_BF16_CPU_FLAGS, cpu_flags, cpu_name

    flags = cpu_flags()
    return {
        "cpu": cpu_name() if Path("/proc/cpuinfo").is_file() else platform.processor() or platform.machine(),
        "bf16_flags": sorted(f for f in NATIVE_BF16_CPU_FLAGS if f in flags),
        "threads": threads,
        "torch": torch.__version__,
    }


def auto_choice(model_dir: str, runs: list[dict]) -> dict:
    """What ``precision: auto`` takes for this model here (measured afresh, not from the cache), and whether it is the
    format this benchmark's training and scoring loops ran faster in."""
    import tempfile

    from directional_inference.compute import PrecisionCache, resolve_precision
    from directional_inference.sns.model import PromptScorer

    scorer = PromptScorer(model_dir, max_length=128, symmetric=False, precision="fp32")
    with tempfile.TemporaryDirectory() as cache:
        chosen, reason = resolve_precision("auto", "cpu", model=scorer.model, device=scorer.device, cache=PrecisionCache(cache))
    fastest = {what: max(runs, key=lambda run: run[f"{what}_sentences_per_s"])["precision"] for what in ("train", "score")}
    return {
        "chosen": chosen,
        "reason": reason,
        "faster_in_training": fastest["train"],
        "faster_in_scoring": fastest["score"],
        "chose_the_faster_in_training": chosen == fastest["train"],
    }


def main() -> None:
    import os

    from directional_inference.resources.models import resolve_model
    from directional_inference.compute import set_threads

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--batches", type=int, default=12)
    parser.add_argument("--test", type=int, default=200, help="test pairs scored")
    parser.add_argument("--seed", type=int, default=47110815)
    parser.add_argument("--output", default="benchmarks/results/sns_throughput.json")
    args = parser.parse_args()
    mirror = Path(os.environ.get("BOOQA_MIRROR", "../shared/mirror").split(":")[0])
    set_threads(args.threads)
    model_dir = str(resolve_model("sentence-transformers/all-MiniLM-L6-v2"))
    train, test = _entries(mirror, "train"), _entries(mirror, "test")
    test_sample = random.Random(args.seed).sample(test, args.test)
    results = {
        "machine": machine(args.threads),
        "model": "all-MiniLM-L6-v2 (22.7M parameters) as a 2-label sequence classifier",
        "data": f"LevyHolt Directional (authors' files): {args.batches} training batches of {args.batch_size} pairs "
        f"(8 prompt sentences each), {args.test} test pairs",
        "runs": [
            measure(model_dir, train, test_sample, precision=p, batch_size=args.batch_size, batches=args.batches, seed=args.seed)
            for p in ("fp32", "bf16")
        ],
    }
    results["auto_precision"] = auto_choice(model_dir, results["runs"])
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
