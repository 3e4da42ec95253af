"""BoOQA's evidence density over a grid of window lengths and starring thresholds (issue 45), and the default it picks.

    .venv/bin/python benchmarks/booqa_density.py run --run RUN --sweep DIR [--points NAME ...] [--tables 4 5] [--cores 2]
    .venv/bin/python benchmarks/booqa_density.py record --sweep DIR     # -> benchmarks/results/booqa_density.json
    .venv/bin/python benchmarks/booqa_density.py plot                   # -> benchmarks/results/booqa_density.png
    .venv/bin/python benchmarks/booqa_density.py markdown [--markdown docs/results.md]   # the record as a table

``RUN`` is a finished default run (its relations, and for Table 5 its trained models). Each point of
``GRID`` is built by the workflow itself, in a copy of ``RUN`` (results and resources linked, not copied) under
``DIR/points/<name>``, with a config overlay that imports ``RUN``'s relations (``relations.imported``: the same rows,
their windows recomputed from their dates for the point's ``window_days``) and sets the point's thresholds;
Snakemake then re-makes only what depends on them (the corpus table, BoOQA, its evidence, graphs and scores, the
tables), not the relation extraction or the trained models. An imported corpus lists only the articles that have a
relation, so the bundles' per-window quotas can differ slightly from a run that reads the corpus: the record says
whether the sparse point reproduces the Table 4 of a run at those settings that read the corpus (``--run-table4``).

``record`` reads each point's Table 4 (entries, positives and evidence per entry, per language and split), its
candidate positives, and where it was made its Table 5 (every method's tie-aware AUCnorm with its interval, the chance
range, the signal verdict), and applies the method notes' rule (``choose``) per language.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO / "benchmarks" / "results" / "booqa_density.json"
FIGURE = REPO / "benchmarks" / "results" / "booqa_density.png"
LANGUAGES = ("en", "zh")
PAPER_EVIDENCE = 14  # pieces of evidence per entry that the paper's starring rule gives (method notes)
MIN_TEST_ENTRIES = 300

# (name, {lang: (window_days, starring_min_articles, starring_min_predicates, felicity_min_pairs)}); first the settings
# before the sweep (config/booqa-sparse.yaml: the default until the sweep chose w30-s4-f3 in English, w21-s3 in
# Chinese). Round 1: the English grid (wider windows, stricter starring); round 2, after round 1 showed that
# strict starring leaves too few bundles (few positives of a strict pair have a WordNet negative): finer steps, longer
# Chinese windows with mild starring, and English felicity 3; round 3 around round 2's best.
SETTING_KEYS = ("window_days", "starring_min_articles", "starring_min_predicates", "felicity_min_pairs")
GRID = [
    ("sparse", {"en": (3, 2, 2, 5), "zh": (122, 2, 1, 3)}),
    ("w30-s2", {"en": (30, 2, 2, 5), "zh": (183, 2, 1, 3)}),
    ("w3-s5", {"en": (3, 5, 5, 5), "zh": (122, 3, 3, 3)}),
    ("w30-s3", {"en": (30, 3, 3, 5), "zh": (122, 5, 3, 3)}),
    ("w30-s5", {"en": (30, 5, 5, 5), "zh": (183, 5, 3, 3)}),
    ("w30-s8", {"en": (30, 8, 8, 5), "zh": (183, 5, 5, 3)}),
    ("w61-s5", {"en": (61, 5, 5, 5), "zh": (366, 5, 5, 3)}),
    ("w30-s4", {"en": (30, 4, 4, 5), "zh": (122, 2, 2, 3)}),
    ("w61-s3", {"en": (61, 3, 3, 5), "zh": (183, 2, 2, 3)}),
    ("w61-s4", {"en": (61, 4, 4, 5), "zh": (366, 2, 2, 3)}),
    ("w14-s3", {"en": (14, 3, 3, 5), "zh": (366, 3, 2, 3)}),
    ("w30-s4-f3", {"en": (30, 4, 4, 3), "zh": (183, 3, 2, 3)}),
    ("w61-s5-f3", {"en": (61, 5, 5, 3), "zh": (366, 2, 1, 3)}),
    # round 3, around round 2's best: English between 14 and 30 days at 3-4, Chinese a year at 2-3
    ("w21-s4", {"en": (21, 4, 4, 5), "zh": (244, 2, 2, 3)}),
    ("w14-s4", {"en": (14, 4, 4, 5), "zh": (366, 2, 3, 3)}),
    ("w21-s3", {"en": (21, 3, 3, 5), "zh": (366, 3, 1, 3)}),
]
TABLE5_COLUMNS = (
    "auc_norm_tie_aware",
    "auc_norm_tie_aware_low",
    "auc_norm_tie_aware_high",
    "chance_auc_norm_low",
    "chance_auc_norm_high",
    "signal",
    "entries",
    "coverage",
)


def overlay(point: dict, sweep: Path) -> dict:
    """The config overlay of one point: imported relations, window lengths, starring (and felicity) thresholds, the
    Chinese ones through ``booqa.overrides.zh``."""
    en, zh = (dict(zip(SETTING_KEYS, point[lang])) for lang in LANGUAGES)
    return {
        "relations": {"imported": {lang: str(sweep / "relations" / lang) for lang in LANGUAGES}},
        "corpus": {"en": {"window_days": en.pop("window_days")}, "zh": {"window_days": zh.pop("window_days")}},
        "booqa": {**en, "overrides": {"zh": zh}},
    }


def export_relations(run: Path, sweep: Path) -> None:
    """``RUN``'s merged relations without their window column, one file per language (windows come from dates). The
    import refuses control characters in text: a sentence's line breaks (Reuters wraps its lines) become spaces, which
    only the sentence-level LM variants of Tables 15-16 read."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    for lang in LANGUAGES:
        target = sweep / "relations" / lang / "relations.parquet"
        if target.exists():
            continue
        table = pq.read_table(run / "results" / lang / "relations" / "merged.parquet").drop(["window"])
        for column in ("sentence", "subj", "pred", "obj"):
            index = table.schema.get_field_index(column)
            table = table.set_column(index, column, pc.replace_substring_regex(table.column(column), r"[\x00-\x1f\x7f-\x9f]", " "))
        target.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(table, str(target) + ".tmp")
        os.replace(str(target) + ".tmp", target)


# NLTK refuses a multiply-linked file (a hard link could point outside its data root): WordNet is copied, not linked
COPIED = "resources/nltk_data"


def copy_run(run: Path, point_dir: Path) -> None:
    """A working copy of ``RUN``: results and resources hard-linked (every job replaces its outputs, never writes into
    them) but for ``COPIED``, Snakemake's records and the logs copied (Snakemake rewrites those in place), the
    environment shared."""
    linked = {"results", "resources"}
    shared = {".venv"}
    point_dir.mkdir(parents=True)
    for entry in run.iterdir():
        target = point_dir / entry.name
        if entry.name in shared:
            target.symlink_to(entry.resolve())
        elif entry.is_dir() and not entry.is_symlink():
            link = entry.name in linked
            shutil.copytree(
                entry,
                target,
                symlinks=True,
                copy_function=os.link if link else shutil.copy2,
                ignore=shutil.ignore_patterns("nltk_data") if link else None,
            )
        else:
            shutil.copy2(entry, target, follow_symlinks=False)
    if (run / COPIED).is_dir():
        shutil.copytree(run / COPIED, point_dir / COPIED, symlinks=True)


# What a point takes from RUN after its copy: what no BoOQA setting changes (the trained models, the LevyHolt files
# they were trained on, the prepared LLMs, the inputs). RUN's BoOQA-dependent outputs (evidence, graphs, scores) made
# after the copy would be newer than the point's own BoOQA and pass for up to date: they are never taken.
SETTING_FREE = ("results/models", "results/levyholt", "results/llm/models", "resources")


def sync_run(run: Path, point_dir: Path) -> None:
    """Adds what ``RUN`` made since the copy under ``SETTING_FREE`` (its trained models, say), with Snakemake's
    records of those files, without touching what the point re-made; the jobs that were running in ``RUN`` at the copy
    are no longer marked incomplete."""
    import base64

    incomplete = point_dir / ".snakemake" / "incomplete"
    shutil.rmtree(incomplete, ignore_errors=True)
    if (run / ".snakemake" / "incomplete").is_dir():
        shutil.copytree(run / ".snakemake" / "incomplete", incomplete)
    for folder in SETTING_FREE:
        for directory, _, files in os.walk(run / folder):
            for name in files:
                relative = (Path(directory) / name).relative_to(run)
                target = point_dir / relative
                if target.exists() or target.is_symlink():
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                (shutil.copy2 if str(relative).startswith(COPIED) else os.link)(run / relative, target)
    records = run / ".snakemake" / "metadata"
    for directory, _, files in os.walk(records):  # a record's name is its file's path in URL-safe base64, long ones split
        for name in files:  # into folders named "@" + a part (Snakemake's persistence)
            record = (Path(directory) / name).relative_to(records)
            path = base64.urlsafe_b64decode("".join(part.removeprefix("@") for part in record.parts)).decode()
            target = point_dir / ".snakemake" / "metadata" / record
            if path.startswith(SETTING_FREE) and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(records / record, target)


def run_points(run: Path, sweep: Path, names: list[str], tables: list[str], cores: int) -> None:
    import yaml

    export_relations(run, sweep)
    for name, point in GRID:
        if names and name not in names:
            continue
        point_dir = sweep / "points" / name
        if not point_dir.exists():
            copy_run(run, point_dir)
        else:
            sync_run(run, point_dir)
        shutil.rmtree(point_dir / ".snakemake" / "locks", ignore_errors=True)  # RUN's own, copied while it ran
        (point_dir / "sweep.yaml").write_text(yaml.safe_dump(overlay(point, sweep), sort_keys=True))
        targets = [f"results/table{t}.csv" for t in tables]
        command = [str(point_dir / "bin" / "snakemake"), *targets, "--cores", str(cores), "--configfile", "config/config.yaml", "sweep.yaml"]
        print(f"[{name}] {' '.join(command[1:])}", flush=True)
        started = time.monotonic()
        with open(point_dir / f"sweep-{'-'.join(tables)}.log", "w") as log:
            done = subprocess.run(command, cwd=point_dir, stdout=log, stderr=subprocess.STDOUT)
        seconds = round(time.monotonic() - started, 1)
        times = json.loads((point_dir / "sweep-times.json").read_text()) if (point_dir / "sweep-times.json").exists() else {}
        times["table" + "+".join(tables)] = seconds
        (point_dir / "sweep-times.json").write_text(json.dumps(times, indent=1) + "\n")
        print(f"[{name}] exit {done.returncode} after {seconds} s", flush=True)
        if done.returncode:
            sys.exit(f"point {name} failed: see {point_dir}/sweep-{'-'.join(tables)}.log")


def point_figures(point_dir: Path, times: dict) -> dict:
    """Table 4 per language and split, candidate positives per language, Table 5's English rows where made."""
    import pandas as pd

    table4 = pd.read_csv(point_dir / "results" / "table4.csv")
    splits = {
        f"{row.language}/{row.split}": {
            "entries": int(row.positives + row.negatives),
            "positives": int(row.positives),
            "evidence_median": float(row.evidence_median),
            "evidence_mean": float(row.evidence_mean),
            "evidence_single_share": float(row.evidence_single_share),
            "evidence_none_share": float(row.evidence_none_share),
        }
        for row in table4.itertuples()
    }
    candidates = {lang: len(pd.read_parquet(point_dir / "results" / lang / "booqa" / "positives.parquet", columns=["pred"])) for lang in LANGUAGES}
    figures = {"splits": splits, "candidate_positives": candidates}
    if any("5" in key for key in times):  # a Table 5 the point made (a copy of RUN may hold RUN's own)
        frame = pd.read_csv(point_dir / "results" / "table5.csv")
        figures["table5_en"] = {
            row["method"]: {"label": row["label"], **{c: (None if pd.isna(row.get(f"en_{c}")) else row.get(f"en_{c}")) for c in TABLE5_COLUMNS}}
            for _, row in frame.iterrows()
            if not pd.isna(row.get("en_auc_norm_tie_aware"))
        }
    return figures


RULE = (
    f"among the settings whose test split keeps at least {MIN_TEST_ENTRIES} entries, the one whose test median evidence "
    f"per entry is closest to {PAPER_EVIDENCE} (ties: the mean closer to it, then more test entries); if none keeps "
    f"{MIN_TEST_ENTRIES}, the one with most test entries"
)


def choose(points: dict[str, dict], lang: str) -> dict:
    """The method notes' rule: among the points whose test split keeps at least ``MIN_TEST_ENTRIES`` entries, the one
    whose test median evidence is closest to ``PAPER_EVIDENCE`` (ties: mean closer to it, then more entries); if none
    keeps that many, the one with most test entries."""
    tests = {name: figures["splits"][f"{lang}/test"] for name, figures in points.items()}
    eligible = [name for name, test in tests.items() if test["entries"] >= MIN_TEST_ENTRIES]
    if eligible:
        chosen = min(
            eligible,
            key=lambda n: (
                abs(tests[n]["evidence_median"] - PAPER_EVIDENCE),
                abs(tests[n]["evidence_mean"] - PAPER_EVIDENCE),
                -tests[n]["entries"],
                n,
            ),
        )
        reason = f"of {len(eligible)} settings with at least {MIN_TEST_ENTRIES} test entries, the test median evidence closest to {PAPER_EVIDENCE}"
    else:
        chosen = max(tests, key=lambda n: (tests[n]["entries"], n))
        reason = f"no setting keeps {MIN_TEST_ENTRIES} test entries: the one with most"
    return {"point": chosen, "reason": reason, "test": tests[chosen]}


def against_run(table4_csv: Path, sparse: dict) -> dict:
    """The sparse point beside the Table 4 of a run at the sparse settings (which read the corpus, not the imported
    relations)."""
    import pandas as pd

    table4 = pd.read_csv(table4_csv)
    rows = {}
    for row in table4.itertuples():
        point = sparse["splits"][f"{row.language}/{row.split}"]
        rows[f"{row.language}/{row.split}"] = {
            "run_entries": int(row.positives + row.negatives),
            "point_entries": point["entries"],
            "run_evidence_mean": float(row.evidence_mean),
            "point_evidence_mean": point["evidence_mean"],
            "run_evidence_median": float(row.evidence_median),
            "point_evidence_median": point["evidence_median"],
        }
    return rows


def record(sweep: Path, run_table4: Path | None = None, run_label: str | None = None) -> dict:
    from directional_inference.compute import cpu_name

    points = {}
    for name, point in GRID:
        point_dir = sweep / "points" / name
        if not (point_dir / "sweep-times.json").exists():
            continue
        times = json.loads((point_dir / "sweep-times.json").read_text())
        points[name] = {
            "settings": {lang: dict(zip(SETTING_KEYS, point[lang])) for lang in LANGUAGES},
            "seconds": times,
            **point_figures(point_dir, times),
        }
    result = {
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "date": datetime.date.today().isoformat(),
        "rule": RULE,
        "min_test_entries": MIN_TEST_ENTRIES,
        "paper_evidence": PAPER_EVIDENCE,
        "points": points,
        "choice": {lang: choose(points, lang) for lang in LANGUAGES},
    }
    if run_table4 is not None and "sparse" in points:
        result["sparse_point_against_run"] = against_run(run_table4, points["sparse"])
        result["run_table4"] = run_label or str(run_table4)
    RECORD.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return result


BLOCK = ("<!-- booqa-density:start -->", "<!-- booqa-density:end -->")


def _settings(settings: dict) -> str:
    felicity = f", felicity {settings['felicity_min_pairs']}" if "felicity_min_pairs" in settings else ""
    return f"{settings['window_days']} d, {settings['starring_min_articles']}/{settings['starring_min_predicates']}{felicity}"


def density_markdown(result: dict) -> str:
    """The record as tables: per point and language, the test split's entries and evidence per entry, and the English
    Table 5 rows (tie-aware AUCnorm [interval], chance range) where the point made them."""
    points = result["points"]
    lines = [
        "| setting | language: window, starring articles/predicates | candidate positives | dev entries (evidence mean) | "
        "test entries (positives) | test evidence median / mean | one piece / none | chosen |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, point in points.items():
        for lang in LANGUAGES:
            test, dev = point["splits"][f"{lang}/test"], point["splits"][f"{lang}/dev"]
            chosen = "**yes**" if result["choice"][lang]["point"] == name else ""
            lines.append(
                f"| {name} | {lang}: {_settings(point['settings'][lang])} | {point['candidate_positives'][lang]:,} | "
                f"{dev['entries']:,} ({dev['evidence_mean']:.1f}) | "
                f"{test['entries']:,} ({test['positives']:,}) | {test['evidence_median']:g} / {test['evidence_mean']:.1f} | "
                f"{test['evidence_single_share']:.0%} / {test['evidence_none_share']:.0%} | {chosen} |"
            )
    seconds = sum(sum(point["seconds"].values()) for point in points.values())
    text = (
        f"Generated from `benchmarks/results/booqa_density.json` by `.venv/bin/python benchmarks/booqa_density.py markdown` ({result['cpu']}, "
        f"{result['cores']} cores, {result['date']}; {len(points)} settings in {seconds / 60:.0f} min; rule: {result['rule']}).\n\n"
        + "\n".join(lines)
        + "\n"
    )
    if "sparse_point_against_run" in result:
        text += (
            f"\nThe sparse setting built from the imported relations, against {result['run_table4']} (the same relations, read from the corpus: "
            "an imported corpus lists only articles with a relation, so the bundles' per-window quotas differ a little): "
            + "; ".join(
                f"{key} {r['point_entries']:,} vs {r['run_entries']:,} entries, evidence mean {r['point_evidence_mean']:.2f} vs "
                f"{r['run_evidence_mean']:.2f}"
                for key, r in result["sparse_point_against_run"].items()
            )
            + ".\n"
        )
    made = [name for name, point in points.items() if "table5_en" in point]
    if made:
        methods = list(dict.fromkeys(m for name in made for m in points[name]["table5_en"]))
        header = "| method | " + " | ".join(made) + " |"
        rows = [header, "|---|" + "---|" * len(made)]
        for method in methods:
            cells = []
            for name in made:
                row = points[name]["table5_en"].get(method)
                cells.append(
                    "-"
                    if row is None
                    else f"{row['auc_norm_tie_aware']:.1f} [{row['auc_norm_tie_aware_low']:.1f}, "
                    f"{row['auc_norm_tie_aware_high']:.1f}]" + ("" if row["signal"] == "above chance" else " (no signal)")
                )
            label = next(points[n]["table5_en"][method]["label"] for n in made if method in points[n]["table5_en"])
            rows.append(f"| {label} | " + " | ".join(cells) + " |")
        chance = [next(iter(points[n]["table5_en"].values())) for n in made]
        rows.append("| chance range | " + " | ".join(f"{c['chance_auc_norm_low']:.1f}-{c['chance_auc_norm_high']:.1f}" for c in chance) + " |")
        text += "\nTable 5, English, tie-aware AUCnorm % [95% interval], per setting:\n\n" + "\n".join(rows) + "\n"
        text += "\n" + signal_summary(points, made, methods) + "\n"
        chosen = result["choice"]["en"]["point"]
        if "sparse" in made and chosen in made and chosen != "sparse":
            took = {n: sum(points[n]["seconds"].values()) for n in ("sparse", chosen)}
            text += (
                f"\nTables 4 and 5 from the same trained models (the work BoOQA's settings change: the corpus table, BoOQA, "
                f"evidence, graphs, scores, tables) took {took[chosen]:.0f} s at the chosen English setting ({chosen}; its Chinese setting is another) and "
                f"{took['sparse']:.0f} s at the sparse one: {took[chosen] - took['sparse']:+.0f} s.\n"
            )
    return text


def signal_summary(points: dict, made: list[str], methods: list[str]) -> str:
    """Per method, at how many of the settings with a Table 5 its interval lies above the chance range (of those whose
    English test split keeps ``MIN_TEST_ENTRIES``, and of all)."""
    large = [n for n in made if points[n]["splits"]["en/test"]["entries"] >= MIN_TEST_ENTRIES]
    parts = []
    for method in methods:
        label = next(points[n]["table5_en"][method]["label"] for n in made if method in points[n]["table5_en"])
        above = [n for n in made if points[n]["table5_en"].get(method, {}).get("signal") == "above chance"]
        parts.append(f"{label} {sum(n in above for n in large)} of {len(large)} ({len(above)} of {len(made)})")
    return (
        f"Above chance (interval above the chance range), at the settings with at least {MIN_TEST_ENTRIES} English test entries "
        f"(and at all {len(made)}): " + "; ".join(parts) + "."
    )


def plot() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    result = json.loads(RECORD.read_text())
    points = result["points"]
    figure, (density, signal) = plt.subplots(1, 2, figsize=(13, 4.5))
    for lang, marker in zip(LANGUAGES, "os"):
        xs = [p["splits"][f"{lang}/test"]["entries"] for p in points.values()]
        ys = [p["splits"][f"{lang}/test"]["evidence_mean"] for p in points.values()]
        density.scatter(xs, ys, marker=marker, label=f"{lang} test")
        for name, x, y in zip(points, xs, ys):
            density.annotate(name + (" *" if result["choice"][lang]["point"] == name else ""), (x, y), fontsize=7)
    density.axhline(PAPER_EVIDENCE, ls="--", c="grey", lw=0.8, label="paper (about 14)")
    density.axvline(MIN_TEST_ENTRIES, ls=":", c="grey", lw=0.8, label=f"{MIN_TEST_ENTRIES} test entries")
    density.set(xlabel="test entries", ylabel="test evidence per entry (mean; the rule reads the median)", title="BoOQA density (* chosen)")
    density.legend(fontsize=7)
    # the settings that keep MIN_TEST_ENTRIES English test entries (the others' intervals span most of the range)
    names = [n for n, p in points.items() if "table5_en" in p and p["splits"]["en/test"]["entries"] >= MIN_TEST_ENTRIES]
    methods = sorted({m for n in names for m in points[n]["table5_en"]})
    for k, method in enumerate(methods):
        xs, ys, lows, highs = [], [], [], []
        for i, name in enumerate(names):
            row = points[name]["table5_en"].get(method)
            if row:
                xs.append(i + (k - len(methods) / 2) * 0.07)
                ys.append(row["auc_norm_tie_aware"])
                lows.append(row["auc_norm_tie_aware"] - row["auc_norm_tie_aware_low"])
                highs.append(row["auc_norm_tie_aware_high"] - row["auc_norm_tie_aware"])
        signal.errorbar(xs, ys, yerr=[lows, highs], fmt="o", ms=3, capsize=2, label=method)
    for i, name in enumerate(names):
        row = next(iter(points[name]["table5_en"].values()))
        signal.fill_between([i - 0.4, i + 0.4], row["chance_auc_norm_low"], row["chance_auc_norm_high"], color="grey", alpha=0.25)
    signal.set_xticks(range(len(names)), names, fontsize=7)
    signal.set(ylabel="tie-aware AUCnorm (%)", title=f"Table 5, English, settings with {MIN_TEST_ENTRIES}+ test entries (grey: chance)")
    if names:
        signal.legend(fontsize=6, ncol=2)
    else:
        signal.text(0.5, 0.5, "no setting's Table 5 recorded", ha="center", transform=signal.transAxes)
    figure.suptitle(f"{result['cpu']}, {result['date']}", fontsize=8)
    figure.tight_layout()
    figure.savefig(FIGURE, dpi=120)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run")
    run.add_argument("--run", type=Path, required=True)
    run.add_argument("--sweep", type=Path, required=True)
    run.add_argument("--points", nargs="*", default=[])
    run.add_argument("--tables", nargs="+", default=["4"], choices=["4", "5"])
    run.add_argument("--cores", type=int, default=2)
    rec = commands.add_parser("record")
    rec.add_argument("--sweep", type=Path, required=True)
    rec.add_argument(
        "--run-table4", type=Path, default=None, help="the Table 4 of a run at the sparse settings with the same relations, beside the sparse point"
    )
    rec.add_argument("--run-label", default=None, help="what the record calls that run (default: the path)")
    commands.add_parser("plot")
    show = commands.add_parser("markdown")
    show.add_argument("--markdown", type=Path, default=None, help="a document with the booqa-density:start/end markers")
    args = parser.parse_args(argv)
    if args.command == "run":
        run_points(args.run.resolve(), args.sweep.resolve(), args.points, args.tables, args.cores)
    elif args.command == "record":
        print(json.dumps(record(args.sweep.resolve(), args.run_table4, args.run_label)["choice"], indent=1))
    elif args.command == "plot":
        plot()
    else:
        from directional_inference.generated import splice_block

        block = density_markdown(json.loads(RECORD.read_text()))
        if args.markdown is None:
            print(block)
        else:
            args.markdown.write_text(splice_block(args.markdown.read_text(), *BLOCK, block))


if __name__ == "__main__":
    main()
