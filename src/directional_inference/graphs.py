"""Entailment graphs: local scores of Hosseini et al. (2018) from typed relations, and readers of the published
graph files (local ``<types>_sim.txt``, global ``<types>_gsim.txt``), so published graphs can be plugged in.

A graph is a table of edges ``premise, hypothesis, subj_type, obj_type, reversed`` plus one column per measure: for
every x of ``subj_type`` and y of ``obj_type``, premise(x, y) entails hypothesis(x, y), or, when ``reversed``,
premise(y, x) entails hypothesis(x, y) ("A be bought by B" -> "B own A"). ``subj_type`` and ``obj_type`` are the
hypothesis' own types; the premise's are the same pair, swapped when ``reversed``.

Induction follows Hosseini et al.: one graph per *unordered* type pair {A, B}, whose argument pairs are put in one
orientation (the A-typed argument first). A relation p(s, o) of types (A, B) is the node p#A#B with the pair (s, o);
one of types (B, A) is the node p#B#A with the pair (o, s), so both orders of a predicate share one feature space
and edges between them are the reversed edges. With equal types each relation p(s, o) gives the node p#A_1#A_2 with
the pair (s, o) and the node p#A_2#A_1 with (o, s); edges keep the hypothesis in the _1_2 orientation (the others are
their mirror images). Scores, for nodes p, q of one graph with argument-pair count vectors v_p, v_q; N = the sum of
all counts; PMI(p, a) = log(v_p(a) / N) - log(|v_p|_1 / N) - log(|v_a|_1 / N); S(p) = sum_a max(PMI(p, a), 0);
over the argument pairs shared by p and q: F_p = sum v_p(a), I_p = sum max(PMI(p, a), 0):

* cosine = v_p . v_q / (|v_p|_2 |v_q|_2)
* Weeds (probabilistic) = 2 Pr Rec / (Pr + Rec), Pr = F_p / |v_p|_1, Rec = F_q / |v_q|_1
* Lin = (I_p + I_q) / (S(p) + S(q))
* BInc = sqrt(Lin * I_p / S(p)), and 0 unless I_p > 0 and I_q > 0

Cut-offs (Hosseini et al.): a node needs ``min_arg_pairs`` distinct argument pairs and an argument pair
``min_predicates`` distinct nodes. Everything is sparse-matrix algebra: no loop over predicate pairs.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

SCORE_COLUMNS = ("cosine", "weeds", "lin", "binc")
GRAPH_COLUMNS = ("premise", "hypothesis", "subj_type", "obj_type", "reversed", *SCORE_COLUMNS)


def _prune(counts: pd.DataFrame, min_arg_pairs: int, min_predicates: int) -> pd.DataFrame:
    pairs_per_node = counts.groupby("node")["pair"].transform("nunique")
    counts = counts[pairs_per_node >= min_arg_pairs]
    nodes_per_pair = counts.groupby("pair")["node"].transform("nunique")
    return counts[nodes_per_pair >= min_predicates]


def graph_nodes(relations: pd.DataFrame, type_a: str, type_b: str) -> pd.DataFrame:
    """The relations of the unordered type pair {type_a, type_b} as graph nodes: ``pred``, ``flipped`` (the node's
    own types are the graph's orientation reversed: p#B#A, or p#A_2#A_1 with equal types) and ``pair`` (the
    argument pair in the graph's orientation)."""
    first, second = sorted((type_a, type_b))
    forward = relations[(relations["subj_type"] == first) & (relations["obj_type"] == second)]
    parts = [pd.DataFrame({"pred": forward["pred"], "flipped": False, "pair": forward["subj"] + "\t" + forward["obj"]})]
    if first != second:
        backward = relations[(relations["subj_type"] == second) & (relations["obj_type"] == first)]
    else:
        backward = forward[forward["subj"] != forward["obj"]]
    parts.append(pd.DataFrame({"pred": backward["pred"], "flipped": True, "pair": backward["obj"] + "\t" + backward["subj"]}))
    return pd.concat(parts, ignore_index=True)


def local_scores(relations: pd.DataFrame, type_a: str, type_b: str, *, min_arg_pairs: int = 3, min_predicates: int = 3) -> pd.DataFrame:
    """Edges of the graph of the unordered type pair {type_a, type_b} between every two distinct nodes that share an
    argument pair (see module docstring), as rows of ``GRAPH_COLUMNS``."""
    from scipy import sparse

    nodes = graph_nodes(relations, type_a, type_b)
    nodes["node"] = nodes["pred"] + np.where(nodes["flipped"], "\t1", "\t0")
    counts = nodes.groupby(["node", "pair"]).size().rename("n").reset_index()
    counts = _prune(counts, min_arg_pairs, min_predicates)
    if counts.empty:
        return pd.DataFrame(columns=list(GRAPH_COLUMNS))
    names, node_index = np.unique(counts["node"], return_inverse=True)
    _, pair_index = np.unique(counts["pair"], return_inverse=True)
    values = counts["n"].to_numpy(dtype=np.float64)
    v = sparse.csr_matrix((values, (node_index, pair_index)))
    total = values.sum()
    row_sums = np.asarray(v.sum(axis=1)).ravel()
    col_sums = np.asarray(v.sum(axis=0)).ravel()
    pmi = np.log(values / total) - np.log(row_sums[node_index] / total) - np.log(col_sums[pair_index] / total)
    positive_pmi = sparse.csr_matrix((np.maximum(pmi, 0.0), (node_index, pair_index)), shape=v.shape)
    binary = (v > 0).astype(np.float64)
    dot = (v @ v.T).tocoo()
    shared_counts = (v @ binary.T).tocsr()  # [p, q] = F_p over pairs shared with q
    shared_pmi = (positive_pmi @ binary.T).tocsr()  # [p, q] = I_p over pairs shared with q
    s = np.asarray(positive_pmi.sum(axis=1)).ravel()
    l1 = row_sums
    l2 = np.sqrt(np.asarray(v.multiply(v).sum(axis=1)).ravel())
    pred = np.array([name[:-2] for name in names], dtype=object)
    flipped = np.array([name.endswith("1") for name in names])
    p, q = dot.row, dot.col
    keep = p != q
    if type_a == type_b:
        keep &= ~flipped[q]  # the hypothesis in the _1_2 orientation; the rest are mirror images
    p, q, dot_values = p[keep], q[keep], dot.data[keep]
    f_p = np.asarray(shared_counts[p, q]).ravel()
    f_q = np.asarray(shared_counts[q, p]).ravel()
    i_p = np.asarray(shared_pmi[p, q]).ravel()
    i_q = np.asarray(shared_pmi[q, p]).ravel()
    with np.errstate(divide="ignore", invalid="ignore"):
        cosine = dot_values / (l2[p] * l2[q])
        precision, recall = f_p / l1[p], f_q / l1[q]
        weeds = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
        lin = np.where(s[p] + s[q] > 0, (i_p + i_q) / (s[p] + s[q]), 0.0)
        weeds_pmi_precision = np.where(s[p] > 0, i_p / s[p], 0.0)
        binc = np.where((i_p > 0) & (i_q > 0), np.sqrt(lin * weeds_pmi_precision), 0.0)
    first, second = sorted((type_a, type_b))
    graph = pd.DataFrame({"premise": pred[p], "hypothesis": pred[q],
                          "subj_type": np.where(flipped[q], second, first), "obj_type": np.where(flipped[q], first, second),
                          "reversed": flipped[p] != flipped[q],
                          "cosine": cosine, "weeds": weeds, "lin": np.where((i_p > 0) & (i_q > 0), lin, 0.0), "binc": binc})
    return graph.sort_values(["subj_type", "obj_type", "premise", "hypothesis", "reversed"], kind="mergesort").reset_index(drop=True)


def build_graphs(relations: pd.DataFrame, *, min_arg_pairs: int, min_predicates: int) -> pd.DataFrame:
    """Local graphs of every unordered type pair, concatenated."""
    type_pairs = sorted({tuple(sorted(pair)) for pair in zip(relations["subj_type"], relations["obj_type"])})
    parts = [local_scores(relations, a, b, min_arg_pairs=min_arg_pairs, min_predicates=min_predicates) for a, b in type_pairs]
    parts = [part for part in parts if not part.empty]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(GRAPH_COLUMNS))


# --- published graph files -----------------------------------------------------------------------------

def read_graph_file(path: str | Path) -> pd.DataFrame:
    """Edges of a Hosseini-format graph file (local ``_sim.txt`` or global ``_gsim.txt``).

    Returns ``premise, hypothesis, types, feature, score`` with one row per edge and section ("BInc sims",
    "local sims", "global sims", ...). Types come from the first line (``types: person#location, ...`` or
    ``person#location  type propagation ...``).
    """
    rows = []
    types, premise, feature = "", None, None
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.strip()
            if number == 1:
                head = line.split(",")[0]
                types = head.split(" ")[1] if head.startswith("types:") else line.split(" ")[0]
                continue
            if not line or line.startswith("num "):
                continue
            if line.startswith("predicate:"):
                premise, feature = line[len("predicate:"):].strip(), None
                continue
            parts = line.split()
            if parts[-1] in ("sim", "sims"):  # a section header: "BInc sims", "Weed's PMI sim", "global sims", ...
                feature = line
                continue
            if len(parts) == 2 and premise is not None and feature is not None:
                try:
                    rows.append((premise, parts[0], types, feature, float(parts[1])))
                except ValueError:
                    continue
    return pd.DataFrame(rows, columns=["premise", "hypothesis", "types", "feature", "score"])


_ROLE_SUFFIX = re.compile(r"\.\d+$")


def ccg_surface(node: str) -> str:
    """The surface string of a CCG binary predicate of Hosseini's graphs, in the form of this workflow's predicates:
    "(visit.1,visit.2)" -> "visit", "(go.1,go.to.2)" -> "go to", "(NEG__go.1,NEG__go.to.2)" -> "not go to" (role
    suffixes dropped, the two halves merged, "." "_" "-" split into words, lower-cased)."""
    halves = [half.strip() for half in node.strip().strip("()").split(",") if half.strip()]
    negated = any(half.startswith("NEG__") for half in halves)
    words = [re.split(r"[._\-]+", _ROLE_SUFFIX.sub("", half.replace("NEG__", "")).lower()) for half in halves]
    words = [[w for w in half if w] for half in words]
    merged = words[0] if words else []
    for half in words[1:]:
        if half[: len(merged)] == merged:
            merged = half
        elif merged[: len(half)] != half:
            merged = merged + [w for w in half if w not in merged]
    return " ".join((["not"] if negated else []) + merged)


def _typed_node(name: str) -> tuple[str, str, str]:
    """(predicate, type 1, type 2) of a typed graph node ``pred#t1#t2`` (types may carry _1 / _2)."""
    pred, _, types = name.partition("#")
    first, _, second = types.partition("#")
    return pred, first, second


def graph_from_files(paths, section: str, measure: str = "binc") -> pd.DataFrame:
    """A published graph (Hosseini's ``_sim.txt`` / ``_gsim.txt`` files, one per type pair) as a graph table: the
    edges of one section ("BInc sims", "global sims", ...) as ``measure``, nodes by their CCG predicates with their
    surface strings (``premise_surface``, ``hypothesis_surface``: the authors' fuzzy matching grounds the workflow's
    predicates in them), ``reversed`` where the premise's typing is the hypothesis' swapped (p#B#A -> q#A#B, or
    p#A_2#A_1 -> q#A_1#A_2). Score it with ``evaluation.scoring.graph_scores(..., fuzzy="same_type_pair")``."""
    frames = [read_graph_file(path) for path in sorted(Path(p) for p in paths)]
    edges = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["premise", "hypothesis", "types", "feature", "score"])
    edges = edges[edges["feature"] == section]
    premise = [_typed_node(n) for n in edges["premise"]]
    hypothesis = [_typed_node(n) for n in edges["hypothesis"]]

    def plain(type_name: str) -> str:
        return re.sub(r"_[12]$", "", type_name)

    graph = pd.DataFrame({
        "premise": [p for p, _, _ in premise], "hypothesis": [h for h, _, _ in hypothesis],
        "subj_type": [plain(a) for _, a, _ in hypothesis], "obj_type": [plain(b) for _, _, b in hypothesis],
        "reversed": [(pa, pb) != (ha, hb) for (_, pa, pb), (_, ha, hb) in zip(premise, hypothesis)],
        measure: edges["score"].to_numpy(dtype=np.float64),
    })
    graph["premise_surface"] = graph["premise"].map(ccg_surface)
    graph["hypothesis_surface"] = graph["hypothesis"].map(ccg_surface)
    return graph.reset_index(drop=True)
