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


def write_split(frame: pd.DataFrame, parquet: str | Path, jsonl: str | Path) -> None:
    """A BoOQA split as Parquet and as JSON lines (loadable with Hugging Face ``datasets``), atomically."""
    import json

    from ..atomic import atomic_file

    with atomic_file(parquet) as tmp:
        frame.to_parquet(tmp, index=False)
    lines = [json.dumps(record, ensure_ascii=False, sort_keys=False) for record in frame.to_dict("records")]
    with atomic_file(jsonl) as tmp:
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def corpus_reading_rows(reading: dict) -> str:
    """Table rows of the corpus reading report (``corpus.ReadingReport.summary``): records read and skipped by
    reason, articles dropped by reason, articles kept."""
    rows = [f"| records read from {reading['files']} files | {reading['records_read']} |"]
    rows += [f"| skipped: {reason} | {count} |" for reason, count in reading["records_skipped"].items()]
    rows += [f"| dropped: {reason} | {count} |" for reason, count in reading["articles_dropped"].items()]
    rows.append(f"| articles kept | {reading['articles_kept']} |")
    return "\n".join(rows)


def dataset_card(lang: str, source: str, splits: dict[str, pd.DataFrame], parameters: dict, scale: str,
                 reading: dict | None = None) -> str:
    """README.md of a BoOQA release: what it is, how it was built, counts, fields and licences; with ``reading``
    (the corpus reading report), what the corpus reader skipped and dropped."""
    counts = "\n".join(f"| {name} | {int(f['label'].sum())} | {int((~f['label']).sum())} | {f['window'].nunique()} |" for name, f in splits.items())
    params = "\n".join(f"| `{key}` | {value} |" for key, value in sorted(parameters.items()))
    corpus = "" if reading is None else f"""
## Corpus reading

Records of the raw corpus files that were skipped (with the reason) and articles dropped before windowing
(`results/{lang}/corpus/reading.json` lists the files).

| what | count |
|---|---|
{corpus_reading_rows(reading)}
"""
    return f"""# BoOQA ({'English' if lang == 'en' else 'Chinese'}), {scale} scale

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
{corpus}
## Fields

`id`, `bundle_id`, `window` (context window, `YYYY_MM-DD_MM-DD`), `label` (true = positive), `subj`, `pred`, `obj`,
`subj_type`, `obj_type`, `proposition` (the text asked about), `positive_pred` (the bundle's positive predicate),
`article_id` and `sentence_id` (the positive's source sentence, excluded from evidence retrieval), `frequency`
(corpus count of the typed predicate, the unit of frequency-bucket matching).
Files: `{{dev,test}}.parquet` and `{{dev,test}}.jsonl` (`datasets.load_dataset("json", data_files=...)`).
"""
