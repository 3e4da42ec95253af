"""Fit the synthetic-relation model (``directional_inference.relations.synthetic``) once on the default English relations
and keep its parameters in ``benchmarks/synthetic_relations.json``, so the scale benchmark runs from a clean clone.

    .venv/bin/python benchmarks/fit_synthetic_relations.py [--relations results/en/relations] [--output benchmarks/synthetic_relations.json]

``--relations`` is the relations directory of a default run (``merged.parquet`` and the shards). What is fitted:

* counts per article and sentence, the share of repeated sentences (shards against the merge), sentence lengths, the
  types of arguments, the 2,000 most frequent predicates (the synthetic corpus's head);
* the Zipf exponents of predicate and argument frequencies (rank-frequency slope over ranks 10-1,000), and the growth
  of each vocabulary (predicates, arguments, argument pairs) with the corpus size, by sub-sampling 1%, 3%, 10%, 30% and
  100% of the relations (Heaps' law);
* how concentrated a window is on few argument pairs (distinct pairs against relations, over the default's windows) and
  a pair on few predicates (distinct predicates against mentions, over its pairs): the Zipf exponents of the window's
  story slots and the pair's predicate slots, by least squares on the expected distinct slots;
* for arguments, then predicates, whose vocabularies grow with the Heaps exponent measured by sub-sampling: for each
  Zipf exponent of a grid, the vocabulary's size at which a synthetic corpus of the default's size has the default's
  distinct count (bisection); then the exponent whose synthetic corpus of a tenth of the size comes closest to the
  default's tenth (argument pairs follow from the arguments and the windows' stories).

The output also holds the comparison of the fitted synthetic corpus with the default at both sizes.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from directional_inference.relations.synthetic import MAX_SLOTS, SyntheticModel, Vocabulary, generate_relations

FRACTIONS = (0.01, 0.03, 0.1, 0.3, 1.0)
HEAD_PREDICATES = 2000
ZIPF_GRID = (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.8, 2.0)
BISECTION_STEPS = 7


def vocabulary_sizes(relations: pd.DataFrame) -> dict[str, int]:
    a = np.minimum(relations["subj"].to_numpy(object), relations["obj"].to_numpy(object))
    b = np.maximum(relations["subj"].to_numpy(object), relations["obj"].to_numpy(object))
    return {
        "predicates": relations["pred"].nunique(),
        "arguments": pd.concat([relations["subj"], relations["obj"]]).nunique(),
        "pairs": pd.MultiIndex.from_arrays([a, b]).nunique(),
    }


def zipf_slope(counts: np.ndarray, low: int = 10, high: int = 1000) -> float:
    ranks = np.arange(1, len(counts) + 1)
    high = min(high, len(counts))
    return float(-np.polyfit(np.log(ranks[low:high]), np.log(counts[low:high]), 1)[0])


def expected_distinct(n: np.ndarray, exponent: float) -> np.ndarray:
    """Expected distinct slots hit by n draws from Zipf(exponent) over MAX_SLOTS slots."""
    p = np.arange(1, MAX_SLOTS + 1, dtype=np.float64) ** -exponent
    p /= p.sum()
    head = p[:20000]
    tail = p[20000:]
    out = []
    for draws in n:
        value = np.sum(1 - np.exp(draws * np.log1p(-head)))
        value += np.sum(1 - np.exp(draws * np.log1p(-tail))) if draws * tail[0] > 1e-9 else draws * tail.sum()
        out.append(value)
    return np.array(out)


def fit_slots(n: np.ndarray, distinct: np.ndarray) -> float:
    """The Zipf exponent of slots whose expected distinct count best matches (least squares on logs)."""
    grid = np.arange(1.05, 3.0, 0.05)
    errors = [np.mean((np.log(expected_distinct(n, s)) - np.log(distinct)) ** 2) for s in grid]
    return float(np.round(grid[int(np.argmin(errors))], 2))


def measure(relations: pd.DataFrame, shards_rows: int | None) -> dict:
    relations = relations.assign(arg_a=np.minimum(relations["subj"], relations["obj"]), arg_b=np.maximum(relations["subj"], relations["obj"]))
    articles = relations["article_id"].nunique()
    sentences = relations.groupby(["article_id", "sentence_id"]).ngroups
    triple = (relations["subj"].str.len() + relations["pred"].str.len() + relations["obj"].str.len() + 3).mean()
    types = pd.concat([relations["subj_type"], relations["obj_type"]]).value_counts(normalize=True)
    windows = relations.groupby("window").agg(n=("pred", "size"))
    windows["distinct"] = relations.groupby(["window", "arg_a", "arg_b"]).size().groupby(level=0).size()
    pairs = relations.groupby(["arg_a", "arg_b"]).agg(n=("pred", "size"), distinct=("pred", "nunique"))
    pairs = pairs[pairs["n"] >= 2].groupby("n")["distinct"].mean().reset_index()
    return {
        "relations": len(relations),
        "relations_per_article": len(relations) / articles,
        "relations_per_sentence": len(relations) / sentences,
        "repeated_sentence_share": 1 - len(relations) / shards_rows if shards_rows else 0.0,
        "sentence_characters": max(int(relations["sentence"].str.len().mean() - triple), 1),
        "type_shares": {t: round(float(v), 4) for t, v in types.items()},
        "head_predicates": relations["pred"].value_counts().index[:HEAD_PREDICATES].tolist(),
        "predicate_zipf": zipf_slope(relations["pred"].value_counts().to_numpy()),
        "argument_zipf": zipf_slope(pd.concat([relations["subj"], relations["obj"]]).value_counts().to_numpy()),
        "window_zipf": fit_slots(windows["n"].to_numpy(float), windows["distinct"].to_numpy(float)),
        "pair_zipf": fit_slots(pairs["n"].to_numpy(float), pairs["distinct"].to_numpy(float)),
    }


def heaps(relations: pd.DataFrame, seed: int = 1) -> dict[str, dict[float, int]]:
    """Distinct predicates, arguments and pairs of random sub-samples of the relations."""
    return {str(f): vocabulary_sizes(relations.sample(frac=f, random_state=seed) if f < 1 else relations) for f in FRACTIONS}


def growth(sizes: dict[str, dict], key: str) -> float:
    n = np.array([float(f) for f in sizes])
    v = np.array([sizes[f][key] for f in sizes], dtype=float)
    return float(np.polyfit(np.log(n), np.log(v), 1)[0])


def synthetic_sizes(model: SyntheticModel, relations: int, seed: int) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        files = generate_relations(model, relations, tmp, seed=seed)
        frame = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
        return vocabulary_sizes(frame)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relations", default="results/en/relations")
    parser.add_argument("--output", default="benchmarks/synthetic_relations.json")
    args = parser.parse_args(argv)
    directory = Path(args.relations)
    relations = pd.read_parquet(directory / "merged.parquet")
    shards = sorted(p for p in directory.glob("*.parquet") if p.stem.isdigit())
    shard_rows = sum(len(pd.read_parquet(p, columns=["pred"])) for p in shards) if shards else None
    measured = measure(relations, shard_rows)
    sub = heaps(relations)
    real_small = sub[str(0.1)]
    real_full = sub["1.0"]
    heaps_growth = {key: round(growth(sub, key), 3) for key in ("predicates", "arguments")}
    n = measured["relations"]

    def model_of(vocab):
        return SyntheticModel(
            base_relations=n,
            relations_per_article=round(measured["relations_per_article"], 3),
            relations_per_sentence=round(measured["relations_per_sentence"], 3),
            repeated_sentence_share=round(measured["repeated_sentence_share"], 4),
            sentence_characters=measured["sentence_characters"],
            window_zipf=measured["window_zipf"],
            pair_zipf=measured["pair_zipf"],
            predicates=vocab["predicates"],
            arguments=vocab["arguments"],
            type_shares=measured["type_shares"],
            head_predicates=measured["head_predicates"],
        )

    # each vocabulary in turn (arguments first: a pair's predicates depend on its arguments), its growth the Heaps
    # exponent measured by sub-sampling: for each Zipf exponent of a grid, the size at the default's size (bisection)
    # that gives the default's distinct count; the exponent whose synthetic tenth comes closest to the default's tenth
    vocabularies = {key: Vocabulary(1.0, float(real_full[key]), heaps_growth[key]) for key in ("predicates", "arguments")}
    search = []

    def bisect(key, make, size, target, low, high):
        """The vocabulary size in [exp(low), exp(high)] at which a synthetic corpus of ``size`` has ``target`` ``key``s."""
        for _ in range(BISECTION_STEPS):
            middle = (low + high) / 2
            if synthetic_sizes(model_of(make(float(np.exp(middle)))), size, 1)[key] < target:
                low = middle
            else:
                high = middle
        return float(np.exp((low + high) / 2))

    for key in ("arguments", "predicates"):
        best = None
        for exponent in ZIPF_GRID:
            base = bisect(
                key,
                lambda b: vocabularies | {key: Vocabulary(exponent, b, heaps_growth[key])},
                n,
                real_full[key],
                np.log(real_full[key]),
                np.log(real_full[key] * 200.0),
            )
            trial = vocabularies | {key: Vocabulary(exponent, round(base, 1), heaps_growth[key])}
            tenth = synthetic_sizes(model_of(trial), n // 10, 2)[key]
            error = abs(np.log(tenth / real_small[key]))
            search.append({"vocabulary": key, "zipf": exponent, "base": trial[key].base, "tenth": tenth, "error": round(float(error), 4)})
            if best is None or error < best[0]:
                best = (error, trial[key])
        vocabularies[key] = best[1]
    model = model_of(vocabularies)
    comparison = {"default": sub, "synthetic": {str(f): synthetic_sizes(model, int(n * f), 4) for f in FRACTIONS}}
    record = {
        "fitted_on": str(directory),
        "measured": {k: v for k, v in measured.items() if k != "head_predicates"},
        "sub_samples": sub,
        "comparison": comparison,
        "search": search,
        "model": model.to_json(),
    }
    Path(args.output).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(comparison, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
