"""The numbers of docs/results.md and of the README's findings, generated from one run's result files, never typed.

The default run's tables and findings are kept in ``docs/default-run/`` (copies of its ``results/*.csv`` files, with
``RUN.json``: the commit, CPU and date of the run); every block of the documents is rendered
from those copies, and a test fails when a block differs from its rendering:

    .venv/bin/python -m directional_inference.tools.results_page --run RESULTS --commit C   # copy a run's files, render every block
    .venv/bin/python -m directional_inference.tools.results_page --check                     # exit 1 where a block is stale
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from ..generated import splice_block
from ..workflow.phases import TABLE_FILES
from ..tables.findings import READING_END, READING_START, findings_markdown, findings_summary

REPO = Path(__file__).resolve().parents[3]
SNAPSHOT = REPO / "docs" / "default-run"
# The default run at the BoOQA settings before the density sweep (config/booqa-sparse.yaml; issue 45), kept so that the
# page reads Tables 4-5 and the findings at both densities
SPARSE_SNAPSHOT = REPO / "docs" / "default-run-sparse"
RESULTS_PAGE, README = REPO / "docs" / "results.md", REPO / "README.md"
# The tables the pages render, of the run's (the dev and LM-variant BoOQA tables and Table 17 are not rendered)
SNAPSHOT_FILES = tuple(name for name in TABLE_FILES if name not in ("table16.csv", "table17.csv"))
TABLE1_SETS = ("directional", "symmetric", "full")
SUBSET_NAMES = {
    "directional": "Directional",
    "symmetric": "Symmetric",
    "full": "Full",
    "sherliic": "SherLIiC",
    "para_dirtrue": "Para-DirTrue",
    "para_dirfalse": "Para-DirFalse",
}


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def cell(row: dict, column: str, *, bold: bool = False, signal: str | None = None) -> str:
    """``value [low, high]`` of a measured column (``no number`` where it has none), ``: no signal`` where the row's
    interval reaches into the chance range (``signal``: the column that says so)."""
    value = row.get(column, "")
    if value == "":
        return "no number"
    text = f"**{value}**" if bold else value
    if row.get(f"{column}_low", "") != "":
        text += f" [{row[f'{column}_low']}, {row[f'{column}_high']}]"
    if signal is not None and row.get(signal, "").startswith("NO SIGNAL"):
        text += ": no signal"
    return text


def _paper(value: str) -> str:
    return f" (paper {value})" if value else ""


def table1_markdown(table1: list[dict], table6: list[dict]) -> str:
    """The main model's train x test matrix of Table 1, with Table 6's SherLIiC row and column."""
    main = table1[0]["model"]
    cells = {(r["train"], r["test"]): r for r in table1 if r["model"] == main}
    cells.update({(r["train"], r["test"]): r for r in table6 if r["model"] == main and "sherliic" in (r["train"], r["test"])})
    tests = [*TABLE1_SETS, "sherliic"]
    sizes = {t: next((r["n_test"] for (_, test), r in cells.items() if test == t), "") for t in tests}
    lines = [
        f"Model `{main}` ({table1[0]['model_name']}); AUCnorm % [95% interval]; bold: trained and tested on one subset.",
        "",
        "| train \\ test | " + " | ".join(f"{SUBSET_NAMES[t]} ({int(sizes[t]):,} pairs)" if sizes[t] else SUBSET_NAMES[t] for t in tests) + " |",
        "|---|" + "---|" * len(tests),
    ]
    for train in tests:
        if not any((train, t) in cells for t in tests):
            continue
        row = [SUBSET_NAMES[train]]
        for test in tests:
            r = cells.get((train, test))
            row.append("" if r is None else cell(r, "auc_norm", bold=train == test, signal="signal") + _paper(r.get("auc_norm_paper", "")))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


TABLE2_DIFFERENCE = "'S&S minus S&S"  # the order of table2.csv's difference columns (tables.levyholt: symmetric - directional)


def table2_markdown(table2: list[dict]) -> str:
    """Table 2 of the main model: each model's authors' AUCnorm and tie-aware AUCnorm (the findings' metric; ``no
    signal`` where its interval reaches into the chance range), and the paired difference in both, its order named."""
    main = table2[0]["model"]
    lines = [
        f'AUCnorm % [95% interval]: "authors\'" is the authors\' rule (the paper\'s metric), "tie-aware" the expectation '
        f"over every order of tied entries (the findings' metric); the difference is {TABLE2_DIFFERENCE}, paired on the same "
        "test entries, as `table2.csv` stores it (the findings name theirs: S&S minus 'S&S).",
        "",
        f"| subset (test pairs) | S&S, authors' | S&S, tie-aware | 'S&S, authors' | 'S&S, tie-aware | {TABLE2_DIFFERENCE}, authors' | "
        f"{TABLE2_DIFFERENCE}, tie-aware | paper (S&S / 'S&S) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in (r for r in table2 if r["model"] == main):
        lines.append(
            f"| {SUBSET_NAMES[r['subset']]} ({int(r['n_test']):,}) | {cell(r, 'sns_auc_norm')} | "
            f"{cell(r, 'sns_auc_norm_tie_aware', signal='sns_signal')} | {cell(r, 'sym_sns_auc_norm')} | "
            f"{cell(r, 'sym_sns_auc_norm_tie_aware', signal='sym_sns_signal')} | {cell(r, 'difference')} | "
            f"{cell(r, 'difference_tie_aware')} | {r['sns_auc_norm_paper']} / {r['sym_sns_auc_norm_paper']} |"
        )
    return "\n".join(lines) + "\n"


def _not_run(row: dict, lang: str) -> str:
    """Why a Table 5 row has no number in a language: its note's clause for the language (``<lang>: ...``), or, for a
    row the paper reports that cannot run here, the whole note (in the English column)."""
    clauses = re.split(r"; (?=(?:en|zh): )", row.get("note", ""))
    for clause in clauses:
        if clause.startswith(f"{lang}: "):
            return clause[len(lang) + 2 :]
    return row.get("note", "") if lang == "en" else ""


def table5_markdown(table5: list[dict]) -> str:
    """Every method of Table 5 with its English and Chinese numbers: the authors' AUCnorm, the tie-aware one (with
    ``no signal`` where its interval reaches into the chance range), the share of bundles whose positive is ranked above
    their negatives (English), the paper's; a note where a method could not run."""
    lines = [
        "| method | English, authors' | English, tie-aware | within bundle | paper | Chinese, authors' | Chinese, tie-aware | paper |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in table5:
        row = [r["label"]]
        for lang in ("en", "zh"):
            if r.get(f"{lang}_auc_norm", "") == "" and r.get(f"{lang}_auc_norm_tie_aware", "") == "":
                row += [_not_run(r, lang) if r.get("note") else "", ""]
            else:
                row += [cell(r, f"{lang}_auc_norm"), cell(r, f"{lang}_auc_norm_tie_aware", signal=f"{lang}_signal")]
            if lang == "en":
                row.append(cell(r, "en_within_bundle") + "%" if r.get("en_within_bundle", "") != "" else "")
            row.append(r.get(f"{lang}_auc_norm_paper", ""))
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"


def table3_markdown(table3: list[dict], generality: list[dict]) -> str:
    """Table 3's English rows (the hypothesis-only models and the BoOQA-trained one on BoOQA English test) beside their
    generality checks: how a model's score follows the predicate's WordNet depth and frequency within a bundle."""
    checks = {(r["trained_on"], r["tested_on"]): r for r in generality}
    lines = [
        "| trained on | AUCnorm, authors' | tie-aware | within bundle | paper | positive above its negative | shallower above deeper | "
        "more frequent above | score against depth (Spearman) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def share(row: dict, column: str) -> str:
        return f"{row[column]}% (p {row[column + '_p']})" if row.get(column, "") != "" else ""

    for r in table3:
        if r["auc_norm"] == "" or not r["tested_on"].endswith("EN (test)"):
            continue
        check = checks.get((r["trained_on"], r["tested_on"]), {})
        lines.append(
            f"| {r['trained_on']} | {cell(r, 'auc_norm')} | {cell(r, 'auc_norm_tie_aware', signal='signal')} | "
            f"{cell(r, 'within_bundle')}% | {r['auc_norm_paper']} | {share(check, 'positive_above')} | "
            f"{share(check, 'shallower_above')} | {share(check, 'more_frequent_above')} | "
            f"{check.get('spearman_score_depth', '')} (p {check.get('spearman_p', '')}) |"
        )
    return "\n".join(lines) + "\n"


def llm_markdown(table: list[dict]) -> str:
    """The LLM table's rows: test set, model, setting, AUCnorm (tie-aware, with its interval), ties and entries."""
    lines = ["| test | model | setting | AUCnorm | tie-aware [95%] | chance | ties | entries |", "|---|---|---|---|---|---|---|---|"]
    for r in table:
        tied = f"{float(r['tied']):.0%}" if r.get("tied", "") != "" else ""
        lines.append(
            f"| {r['test']} | {r['model']} | {r['setting']} | {r['auc_norm'] or 'no number'} | "
            f"{cell(r, 'auc_norm_tie_aware', signal='signal')} | {r.get('chance_auc_norm', '')} | {tied} | "
            f"{int(r['entries']):,} of {int(r['test_entries']):,} |"
        )
    return "\n".join(lines) + "\n"


def pairs_unit(table1: list[dict]) -> str:
    """The unit of the training records' pair counts, said where they are shown: a pair is one line of a subset (premise,
    hypothesis, label); Directional holds each of its converse pairs twice (a DirTrue pair and its DirFalse converse),
    and the paper counts it in converse pairs (its sub-group sizes, ``levyholt.english.PAPER_SUBGROUP_SIZES``)."""
    from ..levyholt.english import PAPER_SUBGROUP_SIZES

    paper = PAPER_SUBGROUP_SIZES["dirtrue"]
    line = "Pairs: premise-hypothesis pairs, one line of a subset each."
    directional = next((r for r in table1 if r["train"] == r["test"] == "directional"), None)
    counted = re.match(r"(\d+) train / (\d+) dev pairs", directional["training"]) if directional else None
    if counted:
        train, dev = (int(n) for n in counted.groups())
        same = (train // 2, dev // 2) == paper[:2]
        line += (
            f" Directional holds a pair and its converse (DirTrue and DirFalse) for each of its converse pairs: its "
            f"{train:,} / {dev:,} premise-hypothesis pairs are {train // 2:,} / {dev // 2:,} converse pairs"
            + (", as the paper counts them." if same else f" (the paper's: {paper[0]:,} / {paper[1]:,} converse pairs).")
        )
    return line


def models_markdown(table1: list[dict], table2: list[dict], table5: list[dict], table6: list[dict]) -> str:
    """The main model's fine-tuned models as the tables record them: number format, training (pairs, best dev point,
    where and why it stopped) and the sanity cases."""
    main = table1[0]["model"]
    models = []
    for r in table1:
        if r["model"] == main and r["train"] == r["test"]:
            models.append((f"S&S {SUBSET_NAMES[r['train']]} (Tables 1, 5)", r["precision"], r["training"], r["sanity"]))
    models += [(r["label"] + " (Table 5)", r["precision"], r["training"], r["sanity"]) for r in table5 if r["method"] == "sym_sns_full"]
    for r in (r for r in table2 if r["model"] == main):
        models.append((f"S&S {SUBSET_NAMES[r['subset']]} (Table 2)", r["precision"].split(" / ")[0], r["sns_training"], r["sns_sanity"]))
        models.append((f"'S&S {SUBSET_NAMES[r['subset']]} (Table 2)", r["precision"].split(" / ")[-1], r["sym_sns_training"], r["sym_sns_sanity"]))
    models += [
        ("S&S SherLIiC (Table 6)", r["precision"], r["training"], r["sanity"])
        for r in table6
        if r["model"] == main and r["train"] == r["test"] == "sherliic"
    ]
    lines = [pairs_unit(table1), "", "| model | format | training | sanity: identity / paraphrase / non-entailment |", "|---|---|---|---|"]
    lines += [f"| {name} | {fmt} | {training} | {sanity} |" for name, fmt, training, sanity in models]
    return "\n".join(lines) + "\n"


def run_line(run: dict) -> str:
    return (
        f"From `docs/default-run/` (the result files of a clean clone of commit {run['commit']} at the default configuration, "
        f"run on {run['date']} on {run['cpu']}).\n\n"
    )


def density_markdown(sparse: Path, dense: Path) -> str:
    """The default run at both BoOQA densities (``sparse``: the settings before the sweep, ``dense``: the default):
    Table 4's test splits, Table 5's tie-aware rows per language, and the verdicts of the findings that read BoOQA."""
    snapshots = {"sparse": sparse, "dense": dense}
    runs = {name: json.loads((path / "RUN.json").read_text(encoding="utf-8")) for name, path in snapshots.items()}
    lines = [
        f"From `docs/{sparse.name}/` (commit {runs['sparse']['commit']}, {runs['sparse']['cpu']}, {runs['sparse']['date']}; "
        f"the settings of `config/booqa-sparse.yaml`) and `docs/{dense.name}/` (commit {runs['dense']['commit']}, "
        f"{runs['dense']['cpu']}, {runs['dense']['date']}; the default settings{'; ' + runs['dense']['made'] if 'made' in runs['dense'] else ''})."
    ]
    lines += [
        "",
        "| Table 4, test split | sparse: entries (positives) | sparse: evidence median / mean | default: entries (positives) | default: evidence median / mean |",
        "|---|---|---|---|---|",
    ]
    table4 = {name: {r["language"]: r for r in read_rows(path / "table4.csv") if r["split"] == "test"} for name, path in snapshots.items()}
    for lang in table4["dense"]:
        cells = []
        for name in ("sparse", "dense"):
            r = table4[name].get(lang)
            cells += (
                ["", ""]
                if r is None
                else [
                    f"{int(r['positives']) + int(r['negatives']):,} ({int(r['positives']):,})",
                    f"{float(r['evidence_median']):g} / {float(r['evidence_mean']):.2f}",
                ]
            )
        lines.append(f"| {lang} | " + " | ".join(cells) + " |")
    table5 = {name: {r["method"]: r for r in read_rows(path / "table5.csv")} for name, path in snapshots.items()}
    lines += [
        "",
        "| Table 5 method (tie-aware AUCnorm %) | English, sparse | English, default | Chinese, sparse | Chinese, default |",
        "|---|---|---|---|---|",
    ]
    for method, row in table5["dense"].items():
        cells = []
        for lang in ("en", "zh"):
            for name in ("sparse", "dense"):
                r = table5[name].get(method, {})
                cells.append("" if r.get(f"{lang}_auc_norm_tie_aware", "") == "" else cell(r, f"{lang}_auc_norm_tie_aware", signal=f"{lang}_signal"))
        if any(cells):
            lines.append(f"| {row['label']} | " + " | ".join(cells) + " |")
    chance = {
        name: next(
            (
                f"{r['en_chance_auc_norm_low']}-{r['en_chance_auc_norm_high']}"
                for r in table5[name].values()
                if r.get("en_chance_auc_norm_high", "") != ""
            ),
            "",
        )
        for name in snapshots
    }
    lines += ["", f"English chance range (random scorers' AUCnorm, 95%): sparse {chance['sparse']}, default {chance['dense']}."]
    findings = {
        name: {r["claim"]: r for r in read_rows(path / "findings.csv") if r["source"] in ("Table 3", "Table 5")} for name, path in snapshots.items()
    }
    lines += ["", "| finding (BoOQA) | sparse | default |", "|---|---|---|"]
    for claim, row in findings["dense"].items():
        before = findings["sparse"].get(claim, {}).get("verdict", "")
        lines.append(f"| {claim} ({row['source']}) | {before} | {row['verdict']} |")
    return "\n".join(lines) + "\n"


BLOCKS: dict[str, tuple[tuple[str, ...], Callable[..., str]]] = {
    "models": (("table1.csv", "table2.csv", "table5.csv", "table6.csv"), models_markdown),
    "table1": (("table1.csv", "table6.csv"), table1_markdown),
    "table2": (("table2.csv",), table2_markdown),
    "table5": (("table5.csv",), table5_markdown),
    "table3": (("table3.csv", "table3_generality.csv"), table3_markdown),
    "llm": (("table_llm.csv",), llm_markdown),
}


def markers(name: str) -> tuple[str, str]:
    return f"<!-- results:{name}:start -->", f"<!-- results:{name}:end -->"


def rendered_documents(snapshot: Path = SNAPSHOT) -> dict[Path, str]:
    """docs/results.md and README.md with every generated block rendered from ``snapshot``."""
    run = json.loads((snapshot / "RUN.json").read_text(encoding="utf-8"))
    page = RESULTS_PAGE.read_text(encoding="utf-8")
    for name, (files, render) in BLOCKS.items():
        start, end = markers(name)
        page = splice_block(page, start, end, run_line(run) + render(*(read_rows(snapshot / f) for f in files)))
    # the findings of both documents are rendered from the one table, results/findings.csv (the reading the run writes,
    # findings.md, is this rendering too)
    with open(snapshot / "findings.csv", newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    scale = read_rows(snapshot / "table1.csv")[0]["scale"]
    page = splice_block(page, READING_START, READING_END, findings_markdown(header, rows, scale))
    page = splice_block(page, *markers("density"), density_markdown(SPARSE_SNAPSHOT, snapshot))
    readme = splice_block(README.read_text(encoding="utf-8"), READING_START, READING_END, findings_summary(header, rows))
    return {RESULTS_PAGE: page, README: readme}


def stale_documents(snapshot: Path = SNAPSHOT) -> list[Path]:
    return [path for path, text in rendered_documents(snapshot).items() if path.read_text(encoding="utf-8") != text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, help="a finished default run's results/ directory: copy its files into docs/default-run/")
    parser.add_argument("--commit", help="the commit the run was made from (with --run)")
    parser.add_argument("--cpu", help="the CPU it ran on (with --run; default: this machine's)")
    parser.add_argument("--check", action="store_true", help="only compare: exit 1 when a block differs from its rendering")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_documents()
        for path in stale:
            print(f"{path} is stale: run .venv/bin/python -m directional_inference.tools.results_page", file=sys.stderr)
        return 1 if stale else 0
    if args.run is not None:
        import datetime

        from ..compute import cpu_name

        SNAPSHOT.mkdir(parents=True, exist_ok=True)
        for name in SNAPSHOT_FILES:
            shutil.copyfile(args.run / name, SNAPSHOT / name)
        run = {"commit": args.commit or "unknown", "cpu": args.cpu or cpu_name(), "date": datetime.date.today().isoformat()}
        (SNAPSHOT / "RUN.json").write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    for path, text in rendered_documents().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
