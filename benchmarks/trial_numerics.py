"""Benchmark: how far one trial's best dev AUCnorm moves under changes to how a batch is computed, not to what.

A trial is deterministic: the same code, config, CPU and number format give the same bytes. Two kinds of change leave
what a batch computes as it was and still move a trial. The optimiser's fused or per-tensor kernel and the autocast
region compute the same numbers in exact arithmetic and round differently; training amplifies the difference. How a
batch's sentences are split into forward passes does that too, and more: torch draws the dropout masks a pass, by the
pass's shape, so another split gives each sentence other masks, a draw as another seed's would be. This replays one
finished trial of a run folder (its inputs, hyperparameters and settings read from its training record, and checked
by fingerprint) under such variants, and reports each variant's best dev AUCnorm beside the run's own:

* ``passes=least-cost`` (the code's), ``passes=old`` (chunks of at most 32 sentences in length order, as before
  least-cost passes), and least-cost passes at other fixed costs a pass (``pass-cost=N`` padded tokens);
* ``optimizer=fused`` (the code's) or ``optimizer=foreach`` (the per-tensor AdamW of before);
* ``autocast=batch`` (the code's: one bf16 autocast region for a batch's passes) or ``autocast=pass`` (a region a
  pass, as before). One region casts each weight once and its passes share the cast: their gradients are summed in
  bfloat16 at the cast before they reach the float32 weight; a region a pass sums them in float32.

``passes=old,optimizer=foreach,autocast=pass`` undoes the three changes of c64b652 to the trials' arithmetic. It does
not give 992529d's number again (Directional on the Intel Xeon of the record: 84.25 against 85.16), so something else
in that code differs too, in rounding or in the masks drawn; not found. The spread, not the old number, is what this
benchmark measures. Seen on two CPUs (bf16 and fp32): the same split moves the Directional trial by a tenth of a point
at most, another split by several points (`benchmarks/results/trial_numerics.json`).

    .venv/bin/python benchmarks/trial_numerics.py --run /path/to/run --search minilm/sns/directional \\
        --variant passes=old,optimizer=foreach --variant pass-cost=0 [...] \\
        [--output benchmarks/results/trial_numerics.json]

Each variant trains in a fresh process on one thread (as the default's trials do); run two at once on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


def parse_variant(text: str) -> dict[str, str]:
    """``passes=old,optimizer=foreach`` -> {"passes": "old", "optimizer": "foreach"}; an empty text is the code as it is."""
    variant = dict(part.split("=", 1) for part in text.split(",") if part)
    unknown = set(variant) - {"passes", "pass-cost", "optimizer", "autocast"}
    if unknown:
        raise SystemExit(f"--variant {text!r}: unknown key(s) {sorted(unknown)}; use passes, pass-cost, optimizer, autocast")
    return variant


def apply_variant(variant: dict[str, str]) -> None:
    """Set the pass split and the optimiser of this process to the variant's."""
    import torch

    from directional_inference.sns import model as sns_model

    if variant.get("passes") == "old":  # one pass per 32 sentences in length order: a pass costs more than any padding
        sns_model.PASS_COST_TOKENS["cpu"] = {"fp32": 1 << 30, "bf16": 1 << 30}
    if "pass-cost" in variant:
        cost = int(variant["pass-cost"])
        sns_model.PASS_COST_TOKENS["cpu"] = {"fp32": cost, "bf16": cost}
    if variant.get("optimizer") == "foreach":
        adamw = torch.optim.AdamW

        def per_tensor(params, **kwargs):
            kwargs.pop("fused", None)
            return adamw(params, **{**kwargs, "foreach": True})

        torch.optim.AdamW = per_tensor
    if variant.get("autocast") == "pass":  # each pass casts the weights again, as a region of its own did
        padded = sns_model.PromptScorer.padded  # called once a pass, before its forward

        def padded_after_the_cache_cleared(self, id_lists):
            torch.clear_autocast_cache()
            return padded(self, id_lists)

        sns_model.PromptScorer.padded = padded_after_the_cache_cleared


def train_variant(run: Path, search: str, variant: dict[str, str]) -> dict:
    """Train the search's trial 0 of ``run`` under ``variant``; its best dev AUCnorm and seconds."""
    from directional_inference.compute import set_threads
    from directional_inference.levyholt.entries import read_subset_tsv, stratified_sample
    from directional_inference.sns.search import read_trials
    from directional_inference.sns.training import TrainingSettings, fingerprint, train_prompt_model

    apply_variant(variant)
    record = json.loads((run / "results" / "models" / search / "trial-0" / "training.json").read_text())
    settings = TrainingSettings(**record["settings"])
    set_threads(settings.threads)
    subset = run / "results" / "levyholt" / search.split("/")[-1]
    train = stratified_sample(read_subset_tsv(subset / "train.tsv"), record["train_pairs"], settings.seed)
    dev = stratified_sample(read_subset_tsv(subset / "dev.tsv"), record["dev_pairs"], settings.seed)
    if (fingerprint(train), fingerprint(dev)) != (record["train"], record["dev"]):
        raise SystemExit(f"{search}: the train or dev sample differs from the run's record (not its inputs)")
    from directional_inference import layout

    hp = read_trials(run / layout.drawn_trials_file())[record["hp"]["trial"]]
    if asdict(hp) != record["hp"]:
        raise SystemExit(f"{search}: trial {record['hp']['trial']} of {layout.drawn_trials_file()} is not the record's")
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        result = train_prompt_model(
            run / "resources" / "models" / search.split("/")[0],
            train,
            dev,
            hp,
            settings,
            Path(scratch) / "weights",
            Path(scratch) / "checkpoint",
            selection_floor=record["selection_floor"],
        )
    return {"best_dev_auc_norm": round(100 * result.record["best"]["dev_auc_norm"], 2), "seconds": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True, help="a finished run's folder (holding results/ and resources/)")
    parser.add_argument("--search", required=True, help="<lm>/<variant>/<subset>, e.g. minilm/sns/directional")
    parser.add_argument("--variant", action="append", default=[], help="key=value[,key=value]: passes=old, pass-cost=N, optimizer=foreach")
    parser.add_argument("--output", type=Path, help="JSON file to add this search's results to")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process: train this one variant, print JSON
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(train_variant(args.run, args.search, parse_variant(args.one))))
        return
    record = json.loads((args.run / "results" / "models" / args.search / "trial-0" / "training.json").read_text())
    results = {"run's own": round(100 * record["best"]["dev_auc_norm"], 2)}
    for text in args.variant or [""]:
        parse_variant(text)
        child = subprocess.run(
            [sys.executable, __file__, "--run", str(args.run), "--search", args.search, "--one", text], capture_output=True, text=True
        )
        if child.returncode:
            raise SystemExit(child.stderr[-3000:])
        results[text or "the code as it is"] = json.loads(child.stdout.strip().splitlines()[-1])
        print(args.search, text or "the code as it is", results[text or "the code as it is"], flush=True)
    if args.output:
        from directional_inference.compute import cpu_name

        found = json.loads(args.output.read_text()) if args.output.exists() else {}
        # a search's replays kept per number format and CPU
        found.setdefault("searches", {})[f"{args.search} {record['precision']} {cpu_name()}"] = {
            "run": str(args.run),
            "cpu": cpu_name(),
            "precision": record["precision"],
            "dev_pairs": record["dev_pairs"],
            "variants": results,
        }
        found["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        args.output.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
