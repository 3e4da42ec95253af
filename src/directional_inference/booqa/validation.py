"""Invariants every built BoOQA must hold; the ``validate_booqa`` rule stops the workflow when one is broken."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..relations.shards import with_pair_keys
from .negatives import RelationKeys


def check_invariants(splits: dict[str, pd.DataFrame], negatives: pd.DataFrame, relations: pd.DataFrame, counts: pd.Series,
                     reserved_windows: Iterable[str], *, felicity_min_pairs: int, max_negatives_per_positive: int,
                     relation_keys: RelationKeys) -> dict[str, int]:
    """Check every invariant of a built BoOQA; return how many items each check covered, or raise
    ``InvariantError`` naming every broken invariant with examples.

    Invariants: entry ids unique; dev, test and graph-reserved windows disjoint; bundles complete (one positive, at
    least one negative, one split, window and argument pair); at most ``max_negatives_per_positive`` negatives per positive;
    every predicate felicitous with its type pair (``counts`` >= ``felicity_min_pairs``); every positive attested in its
    window; every negative generated for its positive and absent from its window with its arguments, together
    with every predicate of its synset, in either voice (``relation_keys``); no proposition (triple) twice in one window.
    """
    from ..errors import InvariantError

    entries = pd.concat([frame.assign(split=name) for name, frame in splits.items()], ignore_index=True).astype({"label": bool})
    problems: dict[str, list] = {}

    def expect(name: str, bad) -> None:
        bad = list(bad)
        if bad:
            problems[name] = bad

    expect("entry ids unique", entries.loc[entries["id"].duplicated(), "id"])
    repeated = entries[entries.duplicated(["window", "subj", "pred", "obj"], keep=False)]
    expect("no proposition twice in a window", sorted(f"{w}: {s} {p} {o}" for w, s, p, o in
                                                      set(zip(repeated["window"], repeated["subj"], repeated["pred"], repeated["obj"]))))
    split_windows = {name: set(frame["window"]) for name, frame in splits.items()}
    names = sorted(split_windows)
    expect("split windows disjoint", [f"{w} in {a} and {b}" for i, a in enumerate(names) for b in names[i + 1:]
                                      for w in sorted(split_windows[a] & split_windows[b])])
    expect("reserved graph windows unused", sorted(set(reserved_windows) & set(entries["window"])))
    bundles = entries.groupby("bundle_id").agg(
        positives=("label", "sum"), size=("id", "size"), splits=("split", "nunique"), windows=("window", "nunique"),
        subjects=("subj", "nunique"), objects=("obj", "nunique"))
    complete = (bundles["positives"] == 1) & (bundles["size"] >= 2) & (bundles[["splits", "windows", "subjects", "objects"]] == 1).all(axis=1)
    expect("bundles complete", bundles.index[~complete])
    expect(f"at most {max_negatives_per_positive} negatives per positive", bundles.index[bundles["size"] - 1 > max_negatives_per_positive])
    keys = pd.MultiIndex.from_frame(entries[["pred", "subj_type", "obj_type"]])
    expect("predicates felicitous", entries.loc[counts.reindex(keys).fillna(0).to_numpy() < felicity_min_pairs, "id"])
    pairs = with_pair_keys(relations)
    attested_exactly = set(zip(pairs["window"], pairs["arg_a"], pairs["arg_b"], pairs["pred"]))
    entries = with_pair_keys(entries)
    positives = entries[entries["label"]]
    expect("positives attested in their window", [i for i, *key in zip(positives["id"], positives["window"], positives["arg_a"],
                                                                      positives["arg_b"], positives["pred"]) if tuple(key) not in attested_exactly])
    keys = relation_keys
    present = keys.of(relations)
    negative = entries[~entries["label"]].merge(negatives[["positive_id", "pred", "synonyms"]], how="left",
                                                left_on=["bundle_id", "pred"], right_on=["positive_id", "pred"])
    expect("negatives generated for their positive", negative.loc[negative["positive_id"].isna(), "id"])
    attested = [i for i, window, a, b, pred, synonyms in zip(negative["id"], negative["window"], negative["arg_a"], negative["arg_b"],
                                                             negative["pred"], negative["synonyms"])
                if any(keys.key(window, a, b, form) in present for form in [pred, *(synonyms if hasattr(synonyms, "__len__") else ())])]
    expect("negatives absent from their window (synonyms and the other voice included)", attested)
    if problems:
        raise InvariantError("; ".join(f"{name}: {len(bad)} violations, e.g. {bad[:3]}" for name, bad in problems.items()))
    return {"entries": len(entries), "bundles": len(bundles), "positives": len(positives), "negatives": len(negative),
            "windows": int(entries["window"].nunique())}
