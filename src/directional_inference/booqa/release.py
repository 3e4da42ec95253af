"""The released form of BoOQA: Parquet and JSON lines per split, and the dataset card."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

PAPER_TABLE4 = {("en", "dev"): (21809, 36782), ("en", "test"): (21773, 36755), ("zh", "dev"): (18855, 31117), ("zh", "test"): (19092, 31479)}
SOURCE_LICENCES = {
    "reuters21578": "Reuters-21578, Distribution 1.0 (Reuters Ltd.; research use only)",
    "newscrawl": "WMT News Crawl (research use; articles remain the copyright of their publishers)",
    "cctv": "CCTV Xinwen Lianbo via github.com/china-data/xwlb (CCTV data, learning use only)",
    "clue": "CLUE news2016zh (research use)",
}
# The paper's starring rule (§4.1; config/schema.yaml booqa.starring_min_predicates): an argument pair is starring when
# seen with at least 15 distinct predicates in a window, so each entry has about 14 pieces of evidence (the other
# predicates of its pair; the entry's own is not evidence).
PAPER_STARRING_MIN_PREDICATES = 15
PAPER_EVIDENCE_PER_ENTRY = PAPER_STARRING_MIN_PREDICATES - 1
# Hugging Face size_categories buckets (upper bounds, exclusive) of the card's YAML header
SIZE_CATEGORIES = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")]
# results/{lang}/booqa/evidence_density.csv, one row per split; Table 4 copies the evidence_* cells
DENSITY_COLUMNS = ["split", "entries", "evidence_median", "evidence_mean", "evidence_single_share", "evidence_none_share"]


def write_split(frame: pd.DataFrame, parquet: str | Path, jsonl: str | Path) -> None:
    """A BoOQA split as Parquet and as JSON lines (loadable with Hugging Face ``datasets``), atomically."""
    import json

    from ..atomic import atomic_file

    with atomic_file(parquet) as tmp:
        frame.to_parquet(tmp, index=False)
    lines = [json.dumps(record, ensure_ascii=False, sort_keys=False) for record in frame.to_dict("records")]
    with atomic_file(jsonl) as tmp:
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def evidence_density(entries: pd.DataFrame, pieces: pd.Series) -> dict:
    """Evidence per entry of a split from ``pieces``, the pieces of evidence of each entry id that has some
    (``evidence.retrieve_evidence(..., counts=True)``, or ``value_counts`` of its rows' ``entry``): the split's entries,
    and as cells (empty for an empty split) the median and mean pieces per entry and the shares of entries with exactly
    one piece and with none."""
    unknown = set(pieces.index) - set(entries["id"])
    if unknown:
        raise ValueError(f"evidence refers to entries that are not in the split: {sorted(unknown)[0]!r}")
    counts = entries["id"].map(pieces).fillna(0)
    if counts.empty:
        return {"entries": 0} | {column: "" for column in DENSITY_COLUMNS[2:]}
    return {
        "entries": len(counts),
        "evidence_median": f"{counts.median():g}",
        "evidence_mean": f"{counts.mean():.2f}",
        "evidence_single_share": f"{(counts == 1).mean():.4f}",
        "evidence_none_share": f"{(counts == 0).mean():.4f}",
    }


def write_evidence_density(path: str | Path, densities: dict[str, dict]) -> None:
    """``evidence_density`` of each split (split -> its cells) as one CSV row per split, atomically."""
    from ..atomic import atomic_file

    frame = pd.DataFrame([{"split": split} | density for split, density in densities.items()], columns=DENSITY_COLUMNS)
    with atomic_file(path) as tmp:
        frame.to_csv(tmp, index=False)


def read_evidence_density(path: str | Path) -> dict[str, dict]:
    """split -> its cells, as ``write_evidence_density`` wrote them (empty cells stay empty strings)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    return {row.pop("split"): row for row in frame.to_dict("records")}


def evidence_rows(densities: dict[str, dict]) -> str:
    """Table rows of the card's evidence section: one per split."""
    return "\n".join(
        f"| {split} | {d['entries']} | {d['evidence_median'] or '-'} | {d['evidence_mean'] or '-'} | "
        f"{d['evidence_single_share'] or '-'} | {d['evidence_none_share'] or '-'} |"
        for split, d in densities.items()
    )


def corpus_reading_rows(reading: dict) -> str:
    """Table rows of the corpus reading report (``corpus.ReadingReport.summary``): records read and skipped by
    reason, articles dropped by reason, articles kept."""
    rows = [f"| records read from {reading['files']} files | {reading['records_read']} |"]
    rows += [f"| skipped: {reason} | {count} |" for reason, count in reading["records_skipped"].items()]
    rows += [f"| dropped: {reason} | {count} |" for reason, count in reading["articles_dropped"].items()]
    rows.append(f"| articles kept | {reading['articles_kept']} |")
    return "\n".join(rows)


def size_category(entries: int) -> str:
    """Hugging Face ``size_categories`` value of a dataset with ``entries`` rows."""
    return next((name for bound, name in SIZE_CATEGORIES if entries < bound), "n>1M")


def card_header(lang: str, splits: dict[str, pd.DataFrame]) -> str:
    """YAML header of the card: Hugging Face metadata, with one config (the language) whose splits are the Parquet
    files, so that ``datasets.load_dataset(<release dir>)`` returns them by name without ``data_files``. An empty
    split (possible at smoke scale) is left out: ``datasets`` refuses a split without rows."""
    files = "".join(f"  - split: {name}\n    path: {name}.parquet\n" for name, frame in splits.items() if len(frame))
    entries = sum(len(frame) for frame in splits.values())
    return f"""---
language:
- {lang}
license: other
license_name: corpus-terms
task_categories:
- question-answering
task_ids:
- open-domain-qa
size_categories:
- {size_category(entries)}
pretty_name: BoOQA ({"English" if lang == "en" else "Chinese"})
configs:
- config_name: {lang}
  default: true
  data_files:
{files}---

"""


def _reading_section(lang: str, reading: dict) -> str:
    """The card's section on what the corpus reader skipped and dropped."""
    return f"""
## Corpus reading

Records of the raw corpus files that were skipped (with the reason) and articles dropped before windowing
(`results/{lang}/corpus/reading.json` lists the files).

| what | count |
|---|---|
{corpus_reading_rows(reading)}
"""


def _evidence_section(lang: str, parameters: dict, evidence: dict[str, dict], evidence_cap: int | None) -> str:
    """The card's section on the evidence per entry, beside what the paper's starring rule gives."""
    starring = parameters.get("starring_min_predicates")
    ours = "" if starring is None else f"; this build's (`starring_min_predicates` = {starring}), about {max(starring - 1, 0)}"
    return f"""
## Evidence per entry

Evidence of an entry: the relations of its window with its argument pair (either order), not from its source
sentence and not with its predicate (in either voice), at most {evidence_cap} (`evaluation.evidence_cap`), sampled with the seed: what
the evidence-based methods read (`results/{lang}/evidence/{{dev,test}}.parquet`). The paper's starring rule (a pair
seen with at least {PAPER_STARRING_MIN_PREDICATES} distinct predicates in a window) gives about {PAPER_EVIDENCE_PER_ENTRY} pieces per entry{ours}.
Shares are fractions of the split's entries; the same numbers are in `evidence_density.csv`.

| split | entries | median | mean | share with one piece | share with none |
|---|---|---|---|---|---|
{evidence_rows(evidence)}
"""


def dataset_card(
    lang: str,
    source: str,
    splits: dict[str, pd.DataFrame],
    parameters: dict,
    scale: str,
    reading: dict | None = None,
    evidence: dict[str, dict] | None = None,
    evidence_cap: int | None = None,
) -> str:
    """README.md of a BoOQA release: what it is, how it was built, counts, fields and licences; with ``reading``
    (the corpus reading report), what the corpus reader skipped and dropped; with ``evidence`` (split ->
    ``evidence_density``), the evidence per entry beside what the paper's starring rule gives."""
    counts = "\n".join(f"| {name} | {int(f['label'].sum())} | {int((~f['label']).sum())} | {f['window'].nunique()} |" for name, f in splits.items())
    params = "\n".join(f"| `{key}` | {value} |" for key, value in sorted(parameters.items()))
    corpus = "" if reading is None else _reading_section(lang, reading)
    density = "" if evidence is None else _evidence_section(lang, parameters, evidence, evidence_cap)
    return (
        card_header(lang, splits)
        + f"""# BoOQA ({"English" if lang == "en" else "Chinese"}), {scale} scale

Boolean open-domain QA built automatically from news (Li et al., Findings of EMNLP 2022, section 4.1): each
entry is a proposition (subject, predicate, object) from a context window of the corpus. Positives are
relations of *starring* argument pairs with felicitous predicates; negatives replace a span of the positive's
predicate with a WordNet hyponym that is felicitous and not attested in the window with the same arguments.
A positive and its negatives form a bundle (`bundle_id`), sampled together.

Corpus: {SOURCE_LICENCES.get(source, source)}. WordNet: Princeton WordNet 3.0 (WordNet licence); Chinese: Chinese
Open Wordnet (Bond & Wang; permissive licence with attribution).

## Counts

| split | positives | negatives | windows |
|---|---|---|---|
{counts}

## Construction parameters

| key | value |
|---|---|
{params}
{corpus}{density}
## Fields

`id`, `bundle_id`, `window` (context window, `YYYY_MM-DD_MM-DD`), `label` (true = positive), `subj`, `pred`, `obj`,
`subj_type`, `obj_type`, `proposition` (the text asked about), `positive_pred` (the bundle's positive predicate),
`article_id` and `sentence_id` (the positive's source sentence, excluded from evidence retrieval), `frequency`
(corpus count of the typed predicate, the unit of frequency-bucket matching).
Files: `{{dev,test}}.parquet` and `{{dev,test}}.jsonl`. `datasets.load_dataset("<this directory>")` returns the
dev and test splits (the header's config `{lang}` names the Parquet files; an empty split is not declared, as
`datasets` refuses one); the licence is that of the corpus
and WordNet above (`license: other`).
"""
    )
