"""Entailment graphs on the LevyHolt directional subset as Holt (2019) first published it (paper, Appendix H,
Table 17, AUC50%).

The subset is ``test_dir/test_dir_s.txt`` (1,784 entries: hypothesis, premise, label), with the argument types of
``test_dir_rels.txt`` (``pred arg::type arg::type``, FIGER first-level types). Each triple is rendered as a sentence
and parsed by the relation extractor of the corpus (``relations.english_relations``), so its predicate takes the
graph's form ("The grackle, soared with, Wings" -> "soar with"). The score of an entry is the graph's edge weight
premise -> hypothesis, looked up exactly as for BoOQA (``evaluation.scoring.graph_scores``: the typed edge in the
entry's argument order, then the fuzzy back-off); an entry whose predicates the extractor cannot read, or without an edge, scores 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import InputFormatError
from ..levyholt.entries import read_entries

PAPER_TABLE17 = {"binc": 54.7, "weeds": 55.2}  # AUC50 %, the published graphs of the paper
PAPER_ONLY = (("cnce", "CNCE (Hosseini et al. 2021)", 55.9), ("egt2", "EGT2 (Chen et al. 2022)", 63.3))
MEASURE_LABELS = {"binc": "BInc", "weeds": "Weeds", "lin": "Lin", "cosine": "cosine"}


def _types(column: str, path: str, line: int, field: str) -> tuple[str, str] | None:
    """(type 1, type 2) of a ``pred arg::type arg::type`` column; None for an empty column (no CCG parse)."""
    if not column.strip():
        return None
    parts = column.split(" ")
    if len(parts) < 3 or "::" not in parts[-2] or "::" not in parts[-1]:
        raise InputFormatError(path, line, field, f"expected 'predicate arg::type arg::type', got {column!r}")
    return parts[-2].rsplit("::", 1)[1], parts[-1].rsplit("::", 1)[1]


def read_directional_subset(s_path: str | Path, rels_path: str | Path) -> pd.DataFrame:
    """One row per entry: id, premise and hypothesis triples, label, and the hypothesis' argument types (from the
    premise's parse, in the hypothesis' order, where the hypothesis has none; ``thing`` where neither has one)."""
    entries = read_entries(s_path)
    types = []
    with open(rels_path, encoding="utf-8") as handle:
        for number, line in enumerate((raw.rstrip("\r\n") for raw in handle), start=1):
            if not line:
                continue
            columns = line.split("\t")
            if len(columns) != 3:
                raise InputFormatError(str(rels_path), number, None, f"expected 3 tab-separated columns, found {len(columns)}")
            hypothesis, premise = (_types(columns[k], str(rels_path), number, field) for k, field in enumerate(("hypothesis", "premise")))
            if hypothesis is None and premise is not None and number <= len(entries):
                entry = entries[number - 1]
                hypothesis = premise if entry.premise[0].lower() == entry.hypothesis[0].lower() else premise[::-1]
            types.append(hypothesis or ("thing", "thing"))
    if len(types) != len(entries):
        raise InputFormatError(str(rels_path), len(types), None, f"{len(types)} entries, but {s_path} has {len(entries)}")
    return pd.DataFrame(
        {
            "id": range(len(entries)),
            "premise": [e.premise for e in entries],
            "hypothesis": [e.hypothesis for e in entries],
            "label": [e.label for e in entries],
            "subj_type": [t[0] for t in types],
            "obj_type": [t[1] for t in types],
        }
    )


def graph_predicates(triples: list[tuple[str, str, str]], nlp) -> list[str | None]:
    """The extractor's predicate of each triple rendered as a sentence (None when it finds no relation)."""
    from ..relations.english import english_relations

    texts = [f"{subj} {pred} {obj}." for subj, pred, obj in triples]
    return [next((relation[3] for relation in english_relations(doc)), None) for doc in nlp.pipe(texts, batch_size=256)]


def with_graph_predicates(subset: pd.DataFrame, nlp) -> pd.DataFrame:
    """The subset with the graph-form predicates of premise and hypothesis and whether their arguments align."""
    return subset.assign(
        premise_pred=graph_predicates(list(subset["premise"]), nlp),
        hypothesis_pred=graph_predicates(list(subset["hypothesis"]), nlp),
        aligned=[p[0].lower() == h[0].lower() for p, h in zip(subset["premise"], subset["hypothesis"])],
    )


def graph_reach(engine, subset: pd.DataFrame, graph) -> dict[str, int]:
    """How far a graph (a frame or Parquet file) reaches into the subset whatever the typing: entries whose two
    predicates are both graph nodes, and entries with an edge premise -> hypothesis between them under any type pair
    and argument order (SQL over the graph's edges that touch the subset's predicates)."""
    engine.table("reach_graph", graph)
    pairs = subset[["premise_pred", "hypothesis_pred"]].rename(columns={"premise_pred": "premise", "hypothesis_pred": "hypothesis"})
    engine.frame("reach_pairs", pairs.astype(object))
    counts = engine.execute("""
        WITH preds AS (SELECT premise AS pred FROM reach_pairs UNION SELECT hypothesis FROM reach_pairs),
        nodes AS (SELECT DISTINCT premise AS pred FROM reach_graph SEMI JOIN preds ON preds.pred = reach_graph.premise
                  UNION SELECT DISTINCT hypothesis FROM reach_graph SEMI JOIN preds ON preds.pred = reach_graph.hypothesis),
        edges AS (SELECT DISTINCT premise, hypothesis FROM reach_graph SEMI JOIN reach_pairs USING (premise, hypothesis))
        SELECT count(*) AS entries,
               count(*) FILTER (WHERE p.premise IN (SELECT pred FROM nodes) AND p.hypothesis IN (SELECT pred FROM nodes)) AS nodes,
               count(*) FILTER (WHERE (p.premise, p.hypothesis) IN (SELECT (premise, hypothesis) FROM edges)) AS edges
        FROM reach_pairs p""").fetchall()[0]
    return {"entries": int(counts[0]), "nodes": int(counts[1]), "edges": int(counts[2])}


def reach_note(reach: dict[str, int], covered: float) -> str:
    """What the graph can show on the subset, with the counts of ``graph_reach`` and the share the typed lookup scores."""
    counts = (
        f"the local graph has both predicates of an entry as nodes for {reach['nodes']:,} of the {reach['entries']:,} entries and "
        f"an edge between them (any typing) for {reach['edges']:,}"
    )
    if reach["edges"] < 0.1 * reach["entries"]:
        return counts + ": the corpus is too small for this test, whatever the typing"
    if covered * reach["entries"] < reach["edges"]:
        return counts + "; the typed lookup scores fewer (graphs.fuzzy_backoff: any_type_pair ignores the types)"
    return counts


def score_subset(engine, subset: pd.DataFrame, graph, measure: str, **lookup) -> np.ndarray:
    """Edge weight premise -> hypothesis of every entry of ``with_graph_predicates(...)`` (0 without one); ``lookup``:
    the back-off settings of ``evaluation.scoring.graph_scores``."""
    from ..evaluation.scoring import graph_scores

    entries = subset[["id", "subj_type", "obj_type"]].assign(pred=subset["hypothesis_pred"])
    readable = (subset["premise_pred"].notna() & subset["hypothesis_pred"].notna()).to_numpy()
    evidence = pd.DataFrame({"entry": subset["id"], "pred": subset["premise_pred"], "aligned": subset["aligned"]})[readable]
    scores, _ = graph_scores(engine, entries, evidence, graph, measure, **lookup)
    return scores


def table17_rows(
    engine, subset: pd.DataFrame, graph, measures: list[str], nlp, *, lookup: dict, graph_name: str, scale: str, evaluation, why_not: str = ""
) -> tuple[list[str], list[list]]:
    """AUC50 with its bootstrap interval (a pair and its converse resampled together) of each local graph measure on
    the subset (parsed with ``nlp`` unless it has the graph-form predicates already) beside the paper's, with the
    share of entries the graph scores at all; the paper's published graphs get a note. ``evaluation``:
    ``tables.common.Evaluation``."""
    from ..evaluation.scoring import graph_covered
    from ..levyholt.entries import Entry
    from ..levyholt.scores import converse_group_ids
    from .common import SIGNAL_COLUMNS, measure, signal_cells, with_interval

    header = ["graph", "label", "auc50", "auc50_low", "auc50_high", "auc50_paper", "entries", "source", "scale", "note", *SIGNAL_COLUMNS]
    blank = [""] * len(SIGNAL_COLUMNS)
    rows = []
    if graph is not None and "premise_pred" not in subset.columns:
        subset = with_graph_predicates(subset, nlp)
    groups = converse_group_ids([Entry(tuple(p), tuple(h), bool(y)) for p, h, y in zip(subset["premise"], subset["hypothesis"], subset["label"])])
    for name in MEASURE_LABELS:
        paper = PAPER_TABLE17.get(name, "")
        label = f"{MEASURE_LABELS[name]} (local, this corpus)"
        if graph is None or name not in measures:
            rows.append(
                [name, label, "", "", "", paper, len(subset), graph_name, scale, why_not or "not run: measure not in graphs.measures", *blank]
            )
            continue
        scores = score_subset(engine, subset, graph, name, **lookup)
        m = measure(
            pd.DataFrame(
                {"entry": subset["id"], "label": subset["label"].astype("int8"), "score": scores, "group": groups, "covered": graph_covered(scores)}
            ),
            evaluation,
        )
        note = "; ".join(part for part in (m["no_number"], reach_note(graph_reach(engine, subset, graph), m["coverage"])) if part)
        rows.append([name, label, *with_interval(m, "auc50"), paper, len(subset), graph_name, scale, note, *signal_cells(m)])
    for key, label, paper in PAPER_ONLY:
        rows.append(
            [
                key,
                label,
                "",
                "",
                "",
                paper,
                len(subset),
                "",
                scale,
                "not run: the published graph is not reachable offline (graphs.graph_from_files reads its files)",
                *blank,
            ]
        )
    return header, rows
