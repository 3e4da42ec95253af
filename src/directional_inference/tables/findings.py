"""Which of the paper's findings hold in this run: one row per claim the run can test (``results/findings.csv``), each
with the paper's numbers, this run's (tie-aware AUCnorm, %), the paired difference with its 95% bootstrap interval on
the same test entries, and a verdict that follows from the interval.

Kinds of claim:

* ``greater``: A ranks better than B on the same test entries; the difference A - B is a paired bootstrap (whole
  groups resampled, ties in random orders). *supported* when its interval is above 0, *contradicted* when below 0.
* ``similar``: A and B are within ``margin`` points; *supported* when the interval of A - B lies within +-margin,
  *contradicted* when it excludes 0 otherwise.
* ``near_chance``: A is at most ``margin`` points above the chance mean of its test set (random scorers); the
  difference is A - (chance + margin): *supported* when its interval is below 0, *contradicted* when above.
* ``above_chance``: A ranks better than random scorers; the difference is A - chance mean: *supported* when A's
  interval clears the chance range, *contradicted* when A's interval lies within it.

Beside the 2022 paper's claims, claims of its authors' 2023 paper on large language models (McKenna, Li et al.,
"Sources of Hallucination by Large Language Models on Inference Tasks"), tested on their released predictions
(``llm``).

Anything else is *inconclusive*. A claim whose score sets carry no number (``tables.common.measure``) is
inconclusive with the reason; the reason also names a model that failed its sanity cases or may be undertrained, and,
for BoOQA claims, evidence too thin for the benchmark to reward inference over similarity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from . import paper_values as paper
from .. import layout
from ..evaluation.methods import BOOQA_TABLES, LABELS, PAPER_TABLE3
from .common import Evaluation, ModelRecord, difference_interval, measure, pct

KINDS = ("greater", "similar", "near_chance", "above_chance")
HEADER = [
    "claim",
    "source",
    "model",
    "kind",
    "a",
    "b",
    "paper_a",
    "paper_b",
    "ours_a",
    "ours_a_low",
    "ours_a_high",
    "ours_b",
    "ours_b_low",
    "ours_b_high",
    "chance",
    "difference",
    "difference_low",
    "difference_high",
    "verdict",
    "reason",
]
PAPER_EVIDENCE_PER_ENTRY = 14  # the paper's starring rule: 15 predicates of an argument pair in a window, one the entry's
THIN_EVIDENCE = 3  # below this median, BoOQA rewards similarity to a piece of evidence more than inference


@dataclass(frozen=True)
class Scores:
    """One score set of a claim: which table it comes from, its name in words, and how to find it
    (``kind``: "levyholt" (variant, train subset, test set), "booqa" (lang, method), "robustness" (lang, trained on) or
    "llm" (test set of ``tables.llm.TEST_SETS``, model, setting))."""

    kind: str
    key: tuple
    name: str

    @property
    def model(self) -> tuple[str, str] | None:
        """(variant, training subset) of the fine-tuned model behind the scores, if any."""
        if self.kind == "levyholt":
            return self.key[0], self.key[1]
        if self.kind == "booqa" and self.key[1] in ("sns_full", "sym_sns_full", "sns_symmetric", "sns_directional"):
            from ..evaluation.methods import METHODS

            return METHODS[self.key[1]][1]
        if self.kind == "robustness" and self.key[1] != "booqa":
            return "hyponly", self.key[1]
        return None

    @property
    def fine_tuned(self) -> bool:
        """Whether the scores are a fine-tuned language model's (an S&S or hypothesis-only model, Table 3's included)."""
        return self.model is not None or self.kind == "robustness"


@dataclass(frozen=True)
class Claim:
    text: str
    source: str
    kind: str
    a: Scores
    paper_a: float | None
    b: Scores | None = None
    paper_b: float | None = None
    margin: float = 0.0  # points (similar, near_chance)


def _lh(variant: str, train: str, test: str, name: str) -> Scores:
    return Scores("levyholt", (variant, train, test), name)


def _llm(test: str, model: str, setting: str) -> Scores:
    return Scores("llm", (test, model, setting), f"{model}, {setting}" + (" (this run's test)" if test == "directional_run" else ""))


def _bq(method: str) -> Scores:
    return Scores("booqa", ("en", method), f"{LABELS[method]} on BoOQA EN test")


T1, T5 = paper.TABLE1[paper.MAIN_MODEL], BOOQA_TABLES["table5"].paper
LLM_SOURCE = "McKenna et al. 2023"
CLAIMS = (
    Claim(
        "Trained on Directional, S&S ranks Directional test pairs far better than when trained on Symmetric",
        "Table 1",
        "greater",
        _lh("sns", "directional", "directional", "Directional -> Directional"),
        T1["directional"]["directional"],
        _lh("sns", "symmetric", "directional", "Symmetric -> Directional"),
        T1["symmetric"]["directional"],
    ),
    Claim(
        "Trained on Directional, S&S ranks Directional test pairs better than when trained on Full",
        "Table 1",
        "greater",
        _lh("sns", "directional", "directional", "Directional -> Directional"),
        T1["directional"]["directional"],
        _lh("sns", "full", "directional", "Full -> Directional"),
        T1["full"]["directional"],
    ),
    Claim(
        "Trained on Symmetric, S&S ranks Symmetric test pairs far better than when trained on Directional",
        "Table 1",
        "greater",
        _lh("sns", "symmetric", "symmetric", "Symmetric -> Symmetric"),
        T1["symmetric"]["symmetric"],
        _lh("sns", "directional", "symmetric", "Directional -> Symmetric"),
        T1["directional"]["symmetric"],
    ),
    Claim(
        "Trained on Full, S&S ranks Full test pairs better than when trained on Directional",
        "Table 1",
        "greater",
        _lh("sns", "full", "full", "Full -> Full"),
        T1["full"]["full"],
        _lh("sns", "directional", "full", "Directional -> Full"),
        T1["directional"]["full"],
    ),
    Claim(
        "A model trained on Directional is near chance on Symmetric (within 10 points of random scorers)",
        "Table 1",
        "near_chance",
        _lh("sns", "directional", "symmetric", "Directional -> Symmetric"),
        T1["directional"]["symmetric"],
        margin=10.0,
    ),
    Claim(
        "S&S beats 'S&S (symmetric prompts) on Paraphrases-DirTrue",
        "Table 2",
        "greater",
        _lh("sns", "para_dirtrue", "para_dirtrue", "S&S"),
        paper.TABLE2[paper.MAIN_MODEL]["para_dirtrue"][0],
        _lh("sns_sym", "para_dirtrue", "para_dirtrue", "'S&S"),
        paper.TABLE2[paper.MAIN_MODEL]["para_dirtrue"][1],
    ),
    Claim(
        "S&S beats 'S&S (symmetric prompts) on Paraphrases-DirFalse",
        "Table 2",
        "greater",
        _lh("sns", "para_dirfalse", "para_dirfalse", "S&S"),
        paper.TABLE2[paper.MAIN_MODEL]["para_dirfalse"][0],
        _lh("sns_sym", "para_dirfalse", "para_dirfalse", "'S&S"),
        paper.TABLE2[paper.MAIN_MODEL]["para_dirfalse"][1],
    ),
    Claim(
        "A hypothesis-only model ranks Directional test pairs well above chance (an artefact of the subset)",
        "Figure 2",
        "above_chance",
        _lh("hyponly", "directional", "directional", "H-only Directional -> Directional"),
        paper.FIGURE2["directional"],
    ),
    Claim(
        "The hypothesis-only model trained on LevyHolt Full is near chance on BoOQA (within 5 points)",
        "Table 3",
        "near_chance",
        Scores("robustness", ("en", "full"), "H-only LevyHolt Full on BoOQA EN test"),
        PAPER_TABLE3[("full", "en")],
        margin=5.0,
    ),
    Claim(
        "The hypothesis-only model trained on LevyHolt Directional is near chance on BoOQA (within 5 points)",
        "Table 3",
        "near_chance",
        Scores("robustness", ("en", "directional"), "H-only LevyHolt Directional on BoOQA EN test"),
        PAPER_TABLE3[("directional", "en")],
        margin=5.0,
    ),
    Claim(
        "'S&S Full and S&S Full do about equally on BoOQA (within 5 points)",
        "Table 5",
        "similar",
        _bq("sym_sns_full"),
        T5["sym_sns_full"][0],
        _bq("sns_full"),
        T5["sns_full"][0],
        margin=5.0,
    ),
    Claim(
        "S&S Symmetric beats S&S Directional on BoOQA",
        "Table 5",
        "greater",
        _bq("sns_symmetric"),
        T5["sns_symmetric"][0],
        _bq("sns_directional"),
        T5["sns_directional"][0],
    ),
    Claim(
        "The entailment graph (BInc) beats S&S Full on BoOQA",
        "Table 5",
        "greater",
        _bq("graph_binc"),
        T5["graph_binc"][0],
        _bq("sns_full"),
        T5["sns_full"][0],
    ),
    Claim("S&S Full beats the LM baseline on BoOQA", "Table 5", "greater", _bq("sns_full"), T5["sns_full"][0], _bq("lm_rel"), T5["lm_rel"][0]),
    Claim(
        "Given a random premise, text-davinci-003 still ranks directional pairs above chance (attestation bias)",
        LLM_SOURCE,
        "above_chance",
        _llm("directional_whole", "text-davinci-003", "randprem-original, few-shot CoT"),
        None,
    ),
    Claim(
        "text-davinci-003 ranks directional pairs better with their real premise than with a random one",
        LLM_SOURCE,
        "greater",
        _llm("directional_whole", "text-davinci-003", "original, few-shot CoT"),
        None,
        _llm("directional_whole", "text-davinci-003", "randprem-original, few-shot CoT"),
        None,
    ),
    Claim(
        "text-davinci-003 ranks directional pairs better with the entities' names than with their types",
        LLM_SOURCE,
        "greater",
        _llm("directional_whole", "text-davinci-003", "original, few-shot CoT"),
        None,
        _llm("directional_whole", "text-davinci-003", "type, few-shot CoT"),
        None,
    ),
    Claim(
        "GPT-4 ranks directional pairs better than text-davinci-003 (zero-shot)",
        LLM_SOURCE,
        "greater",
        _llm("directional_whole", "gpt-4-0314", "original, zero-shot"),
        None,
        _llm("directional_whole", "text-davinci-003", "original, zero-shot"),
        None,
    ),
    Claim(
        "S&S trained on Directional ranks directional pairs better than GPT-4 zero-shot",
        "this workflow",
        "greater",
        _lh("sns", "directional", "directional", "S&S Directional -> Directional"),
        T1["directional"]["directional"],
        _llm("directional_run", "gpt-4-0314", "original, zero-shot"),
        None,
    ),
)


def verdict(claim: Claim, difference: float, low: float, high: float) -> str:
    """supported / contradicted / inconclusive from the difference's interval (see module docstring)."""
    if low != low or high != high:
        return "inconclusive"
    if claim.kind == "similar":
        if -claim.margin / 100 <= low and high <= claim.margin / 100:
            return "supported"
        return "contradicted" if low > 0 or high < 0 else "inconclusive"
    if claim.kind in ("greater", "above_chance"):
        return "supported" if low > 0 else "contradicted" if high < 0 else "inconclusive"
    return "supported" if high < 0 else "contradicted" if low > 0 else "inconclusive"  # near_chance


def claim_row(
    claim: Claim, frames: dict, evaluation: Evaluation, *, record: Callable[[Scores], ModelRecord | None], evidence_median: float | None, lm: str = ""
) -> list:
    """One row of ``findings.csv`` for a claim whose score sets are ``frames`` (Scores -> score frame); ``lm``: the
    language model whose fine-tuned models the claims read (the first of training.language_models), named in the rows
    that read one."""
    a = measure(frames[claim.a], evaluation)
    b = measure(frames[claim.b], evaluation) if claim.b else None
    reasons = [f"{s.name}: {m['no_number']}" for s, m in ((claim.a, a), (claim.b, b)) if m and m["no_number"]]
    difference = low = high = float("nan")
    chance = a["chance_auc_norm"]
    if not reasons:
        if claim.kind in ("greater", "similar"):
            difference = a["auc_norm_tie_aware"] - b["auc_norm_tie_aware"]
            low, high = difference_interval(frames[claim.b], frames[claim.a], evaluation, tie_aware=True)
        else:
            offset = chance + claim.margin / 100 if claim.kind == "near_chance" else chance
            difference, low, high = (a[k] - offset for k in ("auc_norm_tie_aware", "auc_norm_tie_aware_low", "auc_norm_tie_aware_high"))
            if claim.kind == "above_chance":  # clearing the chance range, not only its mean
                low, high = a["auc_norm_tie_aware_low"] - a["chance_auc_norm_high"], a["auc_norm_tie_aware_high"] - a["chance_auc_norm_high"]
    result = verdict(claim, difference, low, high)
    for scores in (claim.a, claim.b):
        r = record(scores) if scores else None
        if r is not None and not r.sane:
            reasons.append(f"{scores.name}: its model fails the sanity cases ({r.sanity})")
        if r is not None and r.undertrained:
            reasons.append(f"{scores.name}: its model may be undertrained (best dev point = last evaluation)")
    if claim.a.kind in ("booqa", "robustness") and evidence_median is not None and evidence_median < THIN_EVIDENCE:
        pieces = "piece" if evidence_median == 1 else "pieces"
        reasons.append(
            f"BoOQA evidence is thin: median {evidence_median:g} {pieces} per entry (the paper's starring rule gives about "
            f"{PAPER_EVIDENCE_PER_ENTRY}); with one piece, the benchmark rewards similarity to it more than inference"
        )
    ours_b = [pct(b["auc_norm_tie_aware"]), pct(b["auc_norm_tie_aware_low"]), pct(b["auc_norm_tie_aware_high"])] if b else ["", "", ""]
    model = lm if any(scores is not None and scores.fine_tuned for scores in (claim.a, claim.b)) else ""
    return [
        claim.text,
        claim.source,
        model,
        claim.kind,
        claim.a.name,
        claim.b.name if claim.b else "",
        _cell(claim.paper_a),
        _cell(claim.paper_b),
        pct(a["auc_norm_tie_aware"]),
        pct(a["auc_norm_tie_aware_low"]),
        pct(a["auc_norm_tie_aware_high"]),
        *ours_b,
        pct(chance),
        pct(difference),
        pct(low),
        pct(high),
        result,
        "; ".join(reasons),
    ]


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def score_path(scores: Scores, lm: str) -> str:
    """Where a claim's score set is, for the main language model ``lm``."""
    from ..layout import booqa_scores, robustness_score_path
    from ..levyholt.experiments import levyholt_score_path

    if scores.kind == "levyholt":
        return levyholt_score_path(lm, *scores.key)
    if scores.kind == "booqa":
        return booqa_scores(scores.key[0], "test", scores.key[1])
    if scores.kind == "llm":
        return layout.llm_file(f"scores/{scores.key[0]}.parquet")
    return robustness_score_path(scores.key[0], lm, scores.key[1])


def claim_scores(scores: Scores, lm: str):
    """The score frame of a claim's score set (an LLM's is its rows of the joined scores of its test set)."""
    from .common import read_scores

    frame = read_scores(score_path(scores, lm))
    if scores.kind == "llm":
        frame = frame[(frame["model"] == scores.key[1]) & (frame["setting"] == scores.key[2])]
        frame = frame.drop(columns=["model", "setting"]).reset_index(drop=True)
    return frame


def runnable_claims(english_methods: list[str], robustness_languages: list[str], released_llm: bool = False) -> list[int]:
    """Numbers of the claims this config can test: BoOQA claims need their English methods (``english_methods``: the
    runnable English methods; none when English BoOQA is not built), Table 3's the English H-only scores, the LLM claims
    the released predictions of the 2023 paper (``released_llm``)."""

    def available(scores: Scores | None) -> bool:
        return (
            scores is None
            or scores.kind == "levyholt"
            or (scores.kind == "booqa" and scores.key[1] in english_methods)
            or (scores.kind == "robustness" and scores.key[0] in robustness_languages)
            or (scores.kind == "llm" and released_llm)
        )

    return [k for k, claim in enumerate(CLAIMS) if available(claim.a) and available(claim.b)]


# What the findings' numbers are, said wherever they are shown: ours are the tie-aware AUCnorm, the paper's its published
# AUCnorm (the authors' straight-line rule, which the tables show beside ours as "authors'")
METRICS = "ours: tie-aware AUCnorm %; the paper's: its published AUCnorm % (the authors' rule, the tables' \"authors'\" columns)"


def difference_label(kind: str, a: str, b: str) -> str:
    """What a claim's difference subtracts from what, in words: A minus B for a comparison; for a claim against chance,
    A minus the chance mean (and the claim's margin)."""
    if kind in ("greater", "similar"):
        return f"{a} minus {b}"
    if kind == "near_chance":
        return f"{a} minus the chance mean and the claim's margin"
    return f"{a} minus the chance mean; its interval against the top of the chance range"


def findings_markdown(header: list[str], rows: list[list], scale: str) -> str:
    """The reading of results (docs/results.md, the report): one line per claim with its verdict, numbers and reason."""
    lines = [
        f"Which of the paper's findings hold at the {scale} scale (from `results/findings.csv`; {METRICS}; 95% "
        f"bootstrap intervals; a difference is paired on the same test entries, in the order it names){_models(header, rows)}.",
        "",
    ]
    for row in rows:
        r = dict(zip(header, row))
        ours = f"{r['ours_a']} [{r['ours_a_low']}, {r['ours_a_high']}]"
        if r["b"]:
            ours += f" vs {r['ours_b']} [{r['ours_b_low']}, {r['ours_b_high']}]"
        paper_numbers = r["paper_a"] + (f" vs {r['paper_b']}" if r["b"] else "")
        line = (
            f"- **{r['verdict']}** ({r['source']}): {r['claim']}. Ours {ours or 'no number'}, difference "
            f"({difference_label(r['kind'], r['a'], r['b'])}) {r['difference']} [{r['difference_low']}, {r['difference_high']}]; "
            f"paper {paper_numbers}."
        )
        if r["reason"]:
            line += f" {r['reason'][0].upper()}{r['reason'][1:]}."
        lines.append(line)
    lines += ["", _verdict_counts(header, rows)]
    return "\n".join(lines) + "\n"


def findings_summary(header: list[str], rows: list[list]) -> str:
    """The README's short reading: one line per claim, its verdict and this run's numbers beside the paper's (the
    details and reasons are in ``findings_markdown``)."""
    lines = [f"{METRICS[0].upper()}{METRICS[1:]}{_models(header, rows)}.", ""]
    for row in rows:
        r = dict(zip(header, row))
        ours = (r["ours_a"] or "no number") + (f" vs {r['ours_b'] or 'no number'}" if r["b"] else "")
        paper_numbers = (r["paper_a"] or "-") + (f" vs {r['paper_b'] or '-'}" if r["b"] else "")
        lines.append(f"- *{r['verdict']}*: {r['claim']} ({r['source']}: ours {ours}, paper {paper_numbers}).")
    return "\n".join(lines + ["", _verdict_counts(header, rows)]) + "\n"


def _models(header: list[str], rows: list[list]) -> str:
    """Which language model's fine-tuned models the claims read, as a clause (none before the column existed)."""
    models = sorted({dict(zip(header, row)).get("model", "") for row in rows} - {""})
    return f"; the S&S and hypothesis-only models are {', '.join(models)}'s (the first of `training.language_models`)" if models else ""


def _verdict_counts(header: list[str], rows: list[list]) -> str:
    counts = pd.Series([dict(zip(header, row))["verdict"] for row in rows]).value_counts()
    return "In all: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in ("supported", "contradicted", "inconclusive")) + "."


READING_START, READING_END = "<!-- findings:start -->", "<!-- findings:end -->"


def splice_reading(document: str, reading: str) -> str:
    """``document`` with the text between its findings markers replaced by ``reading`` (``findings_markdown``)."""
    from ..generated import splice_block

    return splice_block(document, READING_START, READING_END, reading)


def main(argv: list[str] | None = None) -> int:
    """Copy a run's reading into a document's findings block: results/findings.md (docs/results.md), or with
    --summary the short reading of results/findings.csv (the README). Neither is ever written by hand."""
    import argparse
    import csv
    from pathlib import Path

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("document", help="e.g. docs/results.md, or README.md with --summary")
    parser.add_argument("reading", nargs="?", help="default: results/findings.md, or results/findings.csv with --summary")
    parser.add_argument("--summary", action="store_true", help="one line per claim, from the findings table")
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.reading or layout.result("findings.csv"), newline="", encoding="utf-8") as handle:
            header, *rows = list(csv.reader(handle))
        reading = findings_summary(header, rows)
    else:
        reading = Path(args.reading or layout.result("findings.md")).read_text(encoding="utf-8")
    path = Path(args.document)
    path.write_text(splice_reading(path.read_text(encoding="utf-8"), reading), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
