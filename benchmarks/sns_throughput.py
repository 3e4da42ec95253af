"""Benchmark: S&S training and scoring throughput against the same model's plain forward(+backward) limit.

On LevyHolt Directional (the authors' released train / test files, from the mirror), with the offline MiniLM:

* training: prompt sentences per second of the S&S loop (``PromptScorer.loss``, backward, clipping, AdamW step, as in
  ``sns.training``) against plain forward+backward of the classifier on tensors of the same shapes (the chunks of
  similar-length sentences the scorer makes of each batch);
* scoring: prompt sentences per second of ``PromptScorer.scores`` against plain forward passes of the same shapes;
* each in fp32 and under bf16 autocast, and the share of padding tokens in the batches;
* the fixed cost of a pass in tokens (``pass_cost``): forward and backward timed over chunks of several shapes (sentences
  x tokens), fitted as seconds = a + b x tokens, per format: a / b is what ``sns.model.PASS_COST_TOKENS`` holds for the
  CPU;
* the workload a trial's forecast reads (``workload``): padded tokens and passes per prompt sentence on LevyHolt Full.

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
    share = probe_share(scorer, precision, (padded, sum(len(t[0]) for t in tensors), loop_s), score_tensors, score_s)
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
        "train_passes": sum(len(t[0]) for t in tensors),
        "probe_share": share,
    }


def probe_share(scorer, precision: str, training: tuple[int, int, float], score_tensors, score_s: float) -> dict:
    """What share of the precision probe's rate (``compute.measure_step`` on this model, threads and format, as the run
    forecast scales it to tokens and passes: ``tools.run_forecast.StepRate``) the S&S loop and the scoring reach:
    the probe's seconds for the loop's padded tokens and passes over the loop's measured seconds (``training``: padded
    tokens, passes, seconds), and the same for scoring."""
    from directional_inference.compute import measure_step
    from directional_inference.sns.model import PASS_COST_TOKENS
    from directional_inference.tools.run_forecast import StepRate

    train = measure_step(scorer.model, scorer.device, precisions=(precision,))[precision]
    forward = measure_step(scorer.model, scorer.device, forward_only=True, precisions=(precision,))[precision]
    rate = StepRate("cpu", precision, 0, train, forward, "measured by the benchmark")
    cost = PASS_COST_TOKENS["cpu"][precision]
    tokens, passes, loop_s = training
    score_tokens = sum(input_ids.numel() for passes_, _, _ in score_tensors for input_ids, _ in passes_)
    score_passes = sum(len(passes_) for passes_, _, _ in score_tensors)
    return {
        "probe_train_s": train,
        "probe_forward_s": forward,
        "train": rate.seconds(tokens, passes, training=True, pass_cost=cost) / loop_s,
        "score": rate.seconds(score_tokens, score_passes, training=False, pass_cost=cost) / score_s,
    }


def workload(model_dir: str, mirror: Path, *, max_length: int = 48, batch_size: int = 8, seed: int = 47110815) -> dict:
    """Per variant (S&S, 'S&S) and number format, the padded tokens and forward passes per prompt sentence that a trial computes on
    LevyHolt Full (the authors' files; the default's token limit and batch size): training in the seeded random batches
    of ``batch_size`` pairs, scoring (dev evaluations) in batches of 32 pairs by length, each batch in the scorer's
    chunks. What the run forecast (``tools.run_forecast``) multiplies a trial's sentences by."""
    import itertools

    from directional_inference.levyholt.english import read_authors_subset
    from directional_inference.sns.model import PASS_COST_TOKENS, PromptScorer

    train = read_authors_subset(mirror / "levyholt-authors", "full", "train")
    dev = read_authors_subset(mirror / "levyholt-authors", "full", "dev")
    figures = {}
    for (variant, symmetric), precision in itertools.product((("sns", False), ("sns_sym", True)), ("fp32", "bf16")):
        scorer = PromptScorer(model_dir, max_length=max_length, symmetric=symmetric, precision="fp32")
        scorer.pass_cost = PASS_COST_TOKENS["cpu"][precision]  # the passes of that format, whatever this CPU computes
        figures.setdefault(variant, {})[precision] = found = {}
        for what, entries in (("train", train), ("score", dev)):
            pairs = scorer.encode(entries)
            order = list(range(len(pairs)))
            if what == "train":
                random.Random(seed).shuffle(order)
                size = batch_size
            else:
                order.sort(key=lambda k: (pairs[k].longest, k))
                size = 32
            sentences = tokens = passes = real_tokens = 0
            for start in range(0, len(order), size):
                batch = [pairs[k] for k in order[start : start + size]]
                chunks, real, padded = _tensors(scorer, batch)
                sentences += sum(len(p.prompts) + len(p.antiprompts) for p in batch)
                tokens, real_tokens, passes = tokens + padded, real_tokens + real, passes + len(chunks)
            found |= {
                f"{what}_tokens_per_sentence": tokens / sentences,
                f"{what}_passes_per_sentence": passes / sentences,
                f"{what}_padding_share": 1 - real_tokens / tokens,
            }
    return figures


def pass_cost(model_dir: str, *, precision: str, rounds: int = 3) -> dict:
    """Seconds of a forward and backward pass over chunks of several shapes (sentences x tokens, random ids), the least
    of ``rounds``, fitted as a + b x tokens (least squares): the fixed cost of a pass, a / b, in tokens."""
    import numpy as np
    import torch

    from directional_inference.sns.model import PromptScorer

    scorer = PromptScorer(model_dir, max_length=128, symmetric=False, precision=precision)
    model, generator = scorer.model, torch.Generator().manual_seed(0)
    model.eval()  # no dropout: the same work each round
    shapes = [(sentences, tokens) for sentences in (4, 8, 16, 32, 64) for tokens in (12, 18, 24, 32)]
    seconds = []
    for sentences, tokens in shapes:
        ids = torch.randint(5, int(model.config.vocab_size), (sentences, tokens), generator=generator)
        times = []
        for _ in range(rounds + 1):
            start = time.perf_counter()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=precision == "bf16"):
                logits = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits
            logits.float().sum().backward()
            times.append(time.perf_counter() - start)
        model.zero_grad(set_to_none=True)
        seconds.append(min(times[1:]))  # the first warms up
    tokens = np.array([s * t for s, t in shapes], dtype=float)
    slope, intercept = np.polyfit(tokens, np.array(seconds), 1)
    return {
        "precision": precision,
        "shapes": [{"sentences": s, "tokens": t, "seconds": round(x, 6)} for (s, t), x in zip(shapes, seconds)],
        "seconds_per_pass": intercept,
        "seconds_per_token": slope,
        "pass_cost_tokens": intercept / slope,
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
    results["pass_cost"] = [pass_cost(model_dir, precision=p) for p in ("fp32", "bf16")]
    results["workload"] = workload(model_dir, mirror)
    results["auto_precision"] = auto_choice(model_dir, results["runs"])
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
