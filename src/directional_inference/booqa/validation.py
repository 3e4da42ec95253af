"""Invariants every built BoOQA must hold; the ``validate_booqa`` rule stops the workflow when one is broken."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..relations.shards import pair_keys
from .negatives import RelationKeys, relation_keys_sql


def _expect(problems: dict[str, list], name: str, bad) -> None:
    """Keep the items ``bad`` that break the invariant ``name``, if any."""
    bad = list(bad)
    if bad:
        problems[name] = bad


def _check_entries(
    entries: pd.DataFrame, splits: dict, reserved_windows: Iterable[str], max_negatives_per_positive: int, problems: dict
) -> pd.DataFrame:
    """The invariants of the entries alone: ids, propositions, windows, bundles; returns the bundles."""
    _expect(problems, "entry ids unique", entries.loc[entries["id"].duplicated(), "id"])
    repeated = entries[entries.duplicated(["window", "subj", "pred", "obj"], keep=False)]
    _expect(
        problems,
        "no proposition twice in a window",
        sorted(f"{w}: {s} {p} {o}" for w, s, p, o in set(zip(repeated["window"], repeated["subj"], repeated["pred"], repeated["obj"]))),
    )
    split_windows = {name: set(frame["window"]) for name, frame in splits.items()}
    names = sorted(split_windows)
    _expect(
        problems,
        "split windows disjoint",
        [f"{w} in {a} and {b}" for i, a in enumerate(names) for b in names[i + 1 :] for w in sorted(split_windows[a] & split_windows[b])],
    )
    _expect(problems, "reserved graph windows unused", sorted(set(reserved_windows) & set(entries["window"])))
    bundles = entries.groupby("bundle_id").agg(
        positives=("label", "sum"),
        size=("id", "size"),
        splits=("split", "nunique"),
        windows=("window", "nunique"),
        subjects=("subj", "nunique"),
        objects=("obj", "nunique"),
    )
    complete = (bundles["positives"] == 1) & (bundles["size"] >= 2) & (bundles[["splits", "windows", "subjects", "objects"]] == 1).all(axis=1)
    _expect(problems, "bundles complete", bundles.index[~complete])
    _expect(problems, f"at most {max_negatives_per_positive} negatives per positive", bundles.index[bundles["size"] - 1 > max_negatives_per_positive])
    return bundles


def _check_in_relations(engine, entries: pd.DataFrame, relations, counts, felicity_min_pairs: int, problems: dict) -> None:
    """The invariants against the corpus: every predicate felicitous with its types, every positive attested."""
    engine.table("relations", relations)
    engine.table("counts", counts)
    engine.frame("entries", entries[["row", "id", "label", "window", "subj", "pred", "obj", "subj_type", "obj_type"]])
    _expect(
        problems,
        "predicates felicitous",
        [
            row[0]
            for row in engine.execute(f"""
        SELECT e.id FROM entries e LEFT JOIN counts c USING (pred, subj_type, obj_type)
        WHERE coalesce(c.count, 0) < {int(felicity_min_pairs)} ORDER BY e.row""").fetchall()
        ],
    )
    _expect(
        problems,
        "positives attested in their window",
        [
            row[0]
            for row in engine.execute(f"""
        SELECT id FROM (SELECT *, {pair_keys()} FROM entries WHERE label)
        ANTI JOIN (SELECT "window", {pair_keys()}, pred FROM relations) USING ("window", arg_a, arg_b, pred) ORDER BY row""").fetchall()
        ],
    )


def _check_negatives(engine, entries: pd.DataFrame, negatives, relation_keys: RelationKeys, problems: dict) -> pd.DataFrame:
    """The invariants of the negatives: each generated for its positive, and absent from its window with every
    predicate of its synset, in either voice; returns the negative entries (the engine holds ``entries`` and
    ``relations``)."""
    engine.table("negatives", negatives)
    engine.frame("bundles", pd.DataFrame({"positive_id": sorted(set(entries["bundle_id"].astype(str)))}))
    generated = engine.df("SELECT positive_id, pred, synonyms FROM negatives SEMI JOIN bundles USING (positive_id)")
    negative = entries[~entries["label"]].merge(generated, how="left", left_on=["bundle_id", "pred"], right_on=["positive_id", "pred"])
    _expect(problems, "negatives generated for their positive", negative.loc[negative["positive_id"].isna(), "id"])
    forms = pd.DataFrame(
        [
            (row, form)
            for row, pred, synonyms in zip(negative["row"], negative["pred"], negative["synonyms"])
            for form in [pred, *(synonyms if hasattr(synonyms, "__len__") else ())]
        ],
        columns=["row", "pred"],
    )
    engine.frame("negative_forms", forms)
    preds = [r[0] for r in engine.execute("SELECT DISTINCT pred FROM relations UNION SELECT DISTINCT pred FROM negative_forms").fetchall()]
    relation_keys.active_table(engine, "actives", preds)
    _expect(
        problems,
        "negatives absent from their window (synonyms and the other voice included)",
        [
            row[0]
            for row in engine.execute(f"""
        SELECT DISTINCT e.id, e.row FROM negative_forms f JOIN actives a USING (pred) JOIN (SELECT *, {pair_keys()} FROM entries) e USING (row)
        SEMI JOIN ({relation_keys_sql("relations", "actives")}) k
            ON k."window" = e."window" AND k.arg_a = e.arg_a AND k.arg_b = e.arg_b AND k.active = a.active
        ORDER BY e.row""").fetchall()
        ],
    )
    return negative


def check_invariants(
    engine,
    splits: dict[str, pd.DataFrame],
    negatives,
    relations,
    counts,
    reserved_windows: Iterable[str],
    *,
    felicity_min_pairs: int,
    max_negatives_per_positive: int,
    relation_keys: RelationKeys,
) -> dict[str, int]:
    """Check every invariant of a built BoOQA; return how many items each check covered, or raise
    ``InvariantError`` naming every broken invariant with examples.

    Invariants: entry ids unique; dev, test and graph-reserved windows disjoint; bundles complete (one positive, at
    least one negative, one split, window and argument pair); at most ``max_negatives_per_positive`` negatives per positive;
    every predicate felicitous with its type pair (``counts`` >= ``felicity_min_pairs``); every positive attested in its
    window; every negative generated for its positive and absent from its window with its arguments, together
    with every predicate of its synset, in either voice (``relation_keys``); no proposition (triple) twice in one window.
    ``negatives`` (every generated negative), ``relations`` (the merged relations) and ``counts`` (the typed predicate
    counts, ``pred, subj_type, obj_type, count``) are Parquet files or frames, read by the engine.
    """
    from ..errors import InvariantError

    entries = pd.concat([frame.assign(split=name) for name, frame in splits.items()], ignore_index=True).astype({"label": bool})
    problems: dict[str, list] = {}
    bundles = _check_entries(entries, splits, reserved_windows, max_negatives_per_positive, problems)
    entries = entries.reset_index(drop=True).assign(row=lambda f: range(len(f)))
    _check_in_relations(engine, entries, relations, counts, felicity_min_pairs, problems)
    negative = _check_negatives(engine, entries, negatives, relation_keys, problems)
    if problems:
        raise InvariantError("; ".join(f"{name}: {len(bad)} violations, e.g. {bad[:3]}" for name, bad in problems.items()))
    return {
        "entries": len(entries),
        "bundles": len(bundles),
        "positives": int(entries["label"].sum()),
        "negatives": len(negative),
        "windows": int(entries["window"].nunique()),
    }
