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
  bfloat16 at the cast before they reach the float32 weight; a region a pass sums them in float32;
* ``torch-seed=K``: the trainer's torch seed K instead of the record's, which draws the classifier head's first
  weights and every dropout mask; the sample and the batch order keep the record's seed;
* ``mask-seed=K``: torch seeded again with K once the model and its head are built from the record's seed: another
  draw of the dropout masks alone, as another split into passes is;
* ``dropout=off``: every dropout of the model at p = 0, so that no mask is drawn: two codes whose trials differ only
  in their masks train alike up to rounding;
* ``dropout-masks=reference`` (or ``pass``): the trial's ``training.dropout_masks``; ``reference`` gives every split
  the masks of the batch's passes of 32 sentences (``sns.dropout_masks``), so that its split changes only rounding.

``passes=old,optimizer=foreach,autocast=pass`` undoes the three changes of c64b652 to the trials' arithmetic. It does
not give 992529d's number again (Directional on the Intel Xeon of the record: 84.25 against 85.16); with no dropout
the two codes train that trial to the same number (``dropout=off``, fp32), so what else differs is in the masks drawn.
The spread, not the old number, is what this benchmark measures. Seen on two CPUs (bf16 and fp32): the same split
moves the Directional trial by a tenth of a point at most, another split by several points
(`benchmarks/results/trial_numerics.json`).

``--code DIR`` trains in another checkout's code: the children run on ``DIR/.venv/bin/python`` (which imports DIR's
package) on a run folder of that code. With ``torch-seed`` or ``mask-seed`` variants in both, the old code's draws
are set beside the new's (Welch's t-test of the two, in the output file's ``comparisons``), which is what a change
that redraws the masks has to be judged by, not one trial of each.

    .venv/bin/python benchmarks/trial_numerics.py --run /path/to/run --search minilm/sns/directional \\
        --variant passes=old,optimizer=foreach --variant pass-cost=0 [...] \\
        [--code /path/to/old/checkout] [--jobs 2] [--output benchmarks/results/trial_numerics.json]

Each variant trains in a fresh process on one thread (as the default's trials do); ``--jobs 2`` runs two at once, or
run one code's invocation beside the other's, each on a core: they add to the output file in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")


VARIANT_KEYS = ("passes", "pass-cost", "optimizer", "autocast", "torch-seed", "mask-seed", "dropout", "dropout-masks")


def parse_variant(text: str) -> dict[str, str]:
    """``passes=old,optimizer=foreach`` -> {"passes": "old", "optimizer": "foreach"}; an empty text is the code as it is."""
    variant = dict(part.split("=", 1) for part in text.split(",") if part)
    unknown = set(variant) - set(VARIANT_KEYS)
    if unknown:
        raise SystemExit(f"--variant {text!r}: unknown key(s) {sorted(unknown)}; use {', '.join(VARIANT_KEYS)}")
    return variant


def apply_variant(variant: dict[str, str]) -> None:
    """Set the pass split, the optimiser and the torch seed of this process to the variant's."""
    import torch

    if "torch-seed" in variant:  # the trainer seeds torch once, before it builds its model and head
        seed, manual_seed = int(variant["torch-seed"]), torch.manual_seed
        torch.manual_seed = lambda _record_seed: manual_seed(seed)
    from directional_inference.sns import model as sns_model

    if variant.keys() & {"mask-seed", "dropout"}:
        built = sns_model.PromptScorer.__init__

        def built_then_set(self, *args, **kwargs):
            built(self, *args, **kwargs)
            if variant.get("dropout") == "off":
                for module in self.model.modules():
                    if isinstance(module, torch.nn.Dropout):
                        module.p = 0.0  # BERT's attention reads its dropout's p too
            if "mask-seed" in variant:  # nothing draws from torch between the built model and the first batch but dropout
                torch.manual_seed(int(variant["mask-seed"]))

        sns_model.PromptScorer.__init__ = built_then_set
    if variant.get("optimizer") == "foreach":
        adamw = torch.optim.AdamW

        def per_tensor(params, **kwargs):
            kwargs.pop("fused", None)
            return adamw(params, **{**kwargs, "foreach": True})

        torch.optim.AdamW = per_tensor
    if variant.keys() & {"passes", "pass-cost", "autocast"} and not hasattr(sns_model, "PASS_COST_TOKENS"):
        raise SystemExit(f"{sns_model.__file__}: this code has no least-cost passes; its variants are the seeds and optimizer")
    if variant.get("passes") == "old":  # one pass per 32 sentences in length order: a pass costs more than any padding
        sns_model.PASS_COST_TOKENS["cpu"] = {"fp32": 1 << 30, "bf16": 1 << 30}
    if "pass-cost" in variant:
        cost = int(variant["pass-cost"])
        sns_model.PASS_COST_TOKENS["cpu"] = {"fp32": cost, "bf16": cost}
    if variant.get("autocast") == "pass":  # each pass casts the weights again, as a region of its own did
        padded = sns_model.PromptScorer.padded  # called once a pass, before its forward

        def padded_after_the_cache_cleared(self, id_lists):
            torch.clear_autocast_cache()
            return padded(self, id_lists)

        sns_model.PromptScorer.padded = padded_after_the_cache_cleared


def train_variant(run: Path, search: str, trials_file: str, variant: dict[str, str]) -> dict:
    """Train the search's trial 0 of ``run`` under ``variant``; its best dev AUCnorm and seconds."""
    import directional_inference

    from directional_inference.compute import set_threads
    from directional_inference.levyholt.entries import read_subset_tsv, stratified_sample
    from directional_inference.sns.search import read_trials
    from directional_inference.sns.training import TrainingSettings, fingerprint, train_prompt_model

    apply_variant(variant)
    record = json.loads((run / "results" / "models" / search / "trial-0" / "training.json").read_text())
    settings = TrainingSettings(**record["settings"])
    if "dropout_masks" not in record["settings"] and hasattr(settings, "dropout_masks"):  # the record predates the key
        from directional_inference.sns.training import DROPOUT_MASKS_BEFORE_THE_KEY

        settings = replace(settings, dropout_masks=DROPOUT_MASKS_BEFORE_THE_KEY)
    if "dropout-masks" in variant:
        settings = replace(settings, dropout_masks=variant["dropout-masks"])
    set_threads(getattr(settings, "threads", 1))  # older code trained on one thread and has no such setting
    subset = run / "results" / "levyholt" / search.split("/")[-1]
    train = stratified_sample(read_subset_tsv(subset / "train.tsv"), record["train_pairs"], settings.seed)
    dev = stratified_sample(read_subset_tsv(subset / "dev.tsv"), record["dev_pairs"], settings.seed)
    if (fingerprint(train), fingerprint(dev)) != (record["train"], record["dev"]):
        raise SystemExit(f"{search}: the train or dev sample differs from the run's record (not its inputs)")
    hp = read_trials(run / trials_file)[record["hp"]["trial"]]
    if asdict(hp) != record["hp"]:
        raise SystemExit(f"{search}: trial {record['hp']['trial']} of {trials_file} is not the record's")
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
    return {
        "best_dev_auc_norm": round(100 * result.record["best"]["dev_auc_norm"], 2),
        "seconds": round(time.perf_counter() - start, 1),
        "code": str(Path(directional_inference.__file__).parents[2]),
    }


def draws_of(variants: dict, kind: str) -> list[float]:
    """The run's own best dev AUCnorm and its replays under the ``kind``-seed variants (``torch`` or ``mask``)."""
    return [variants["run's own"]] + [v["best_dev_auc_norm"] for k, v in variants.items() if k.startswith(f"{kind}-seed=")]


def seed_draws(variants: dict, kind: str) -> dict:
    """Their number, mean, standard deviation and range."""
    draws = draws_of(variants, kind)
    sd = statistics.stdev(draws) if len(draws) > 1 else 0.0
    return {"n": len(draws), "mean": round(statistics.mean(draws), 2), "sd": round(sd, 2), "min": min(draws), "max": max(draws)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True, help="a finished run's folder (holding results/ and resources/)")
    parser.add_argument("--search", required=True, help="<lm>/<variant>/<subset>, e.g. minilm/sns/directional")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="key=value[,key=value]: passes=old, pass-cost=N, optimizer=foreach, autocast=pass, torch-seed=K, mask-seed=K, dropout=off, dropout-masks=reference",
    )
    parser.add_argument("--code", type=Path, help="another checkout (with its .venv) whose code trains, on a run of that code")
    parser.add_argument("--jobs", type=int, default=1, help="variants trained at once, one thread each")
    parser.add_argument("--output", type=Path, help="JSON file to add this search's results to")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process: train this one variant, print JSON
    parser.add_argument("--trials-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(train_variant(args.run, args.search, args.trials_file, parse_variant(args.one))))
        return
    from concurrent.futures import ThreadPoolExecutor

    from directional_inference import layout

    python = str(args.code / ".venv" / "bin" / "python") if args.code else sys.executable
    code = args.code.resolve() if args.code else Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    record = json.loads((args.run / "results" / "models" / args.search / "trial-0" / "training.json").read_text())
    texts = args.variant or [""]
    for text in texts:
        parse_variant(text)

    def train(text: str) -> dict:
        command = [python, __file__, "--run", str(args.run), "--search", args.search, "--trials-file", layout.drawn_trials_file(), "--one", text]
        child = subprocess.run(command, capture_output=True, text=True)
        if child.returncode:
            raise SystemExit(child.stderr[-3000:])
        result = json.loads(child.stdout.strip().splitlines()[-1])
        if Path(result.pop("code")).resolve() != code:
            raise SystemExit(f"{python} imported another checkout's code than {code}")
        print(args.search, commit, text or "the code as it is", result, flush=True)
        return result

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        trained = dict(zip(texts, pool.map(train, texts)))
    if not args.output:
        return
    import fcntl

    # runs of two codes at once (each on a core) add their results in turn
    with open(Path(tempfile.gettempdir()) / f"{args.output.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        add_results(args, record, commit, trained)


def add_results(args: argparse.Namespace, record: dict, commit: str, trained: dict) -> None:
    """Merge this run's variants into the output file's entry for its search, format, CPU and code."""
    from directional_inference.compute import cpu_name

    found = json.loads(args.output.read_text()) if args.output.exists() else {}
    # a search's replays kept per number format, CPU and, for another checkout, its commit
    base = f"{args.search} {record['precision']} {cpu_name()}"
    key = base + (f" at {commit}" if args.code else "")
    entry = found.setdefault("searches", {}).setdefault(key, {"run": str(args.run), "variants": {}})
    entry.update(cpu=cpu_name(), precision=record["precision"], dev_pairs=record["dev_pairs"])
    if args.code:
        entry["code"] = commit
    entry["variants"].update({"run's own": round(100 * record["best"]["dev_auc_norm"], 2)})
    entry["variants"].update({text or "the code as it is": result for text, result in trained.items()})
    for kind in ("torch", "mask"):
        if any(k.startswith(f"{kind}-seed=") for k in entry["variants"]):
            entry[f"{kind}_seed_draws"] = seed_draws(entry["variants"], kind)
            print(key, f"draws of the {kind} seed:", entry[f"{kind}_seed_draws"], flush=True)
    compare_codes(found, base)
    found["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    args.output.write_text(json.dumps(found, indent=1) + "\n")


def compare_codes(found: dict, base: str) -> None:
    """Where this checkout's draws of a seed and another code's (``base at C``) are both recorded: this code's mean minus
    the other's and Welch's t-test of the two samples (the draws of one code are independent of each other)."""
    from scipy.stats import ttest_ind

    searches = found["searches"]
    if base not in searches:
        return
    for key in [k for k in searches if k.startswith(f"{base} at ")]:
        for kind in ("torch", "mask"):
            new, old = (draws_of(searches[k]["variants"], kind) for k in (base, key))
            if len(new) > 1 and len(old) > 1:
                test = ttest_ind(new, old, equal_var=False)
                found.setdefault("comparisons", {})[f"{base}, {kind} seed: this code against {searches[key]['code']}"] = {
                    "mean_difference": round(statistics.mean(new) - statistics.mean(old), 2),
                    "n": [len(new), len(old)],
                    "welch_t": round(float(test.statistic), 2),
                    "p_value": round(float(test.pvalue), 3),
                }


if __name__ == "__main__":
    main()
