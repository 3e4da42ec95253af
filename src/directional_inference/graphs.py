"""Entailment graphs: local scores of Hosseini et al. (2018) from typed relations, and readers of the published
graph files (local ``<types>_sim.txt``, global ``<types>_gsim.txt``), so published graphs can be plugged in.

Local scores, for typed predicates p, q of one type pair with argument-pair count vectors v_p, v_q; N = the
sum of all counts; PMI(p, a) = log(v_p(a) / N) - log(|v_p|_1 / N) - log(|v_a|_1 / N); S(p) = sum_a max(PMI(p, a), 0);
over the argument pairs shared by p and q: F_p = sum v_p(a), I_p = sum max(PMI(p, a), 0):

* cosine = v_p . v_q / (|v_p|_2 |v_q|_2)
* Weeds (probabilistic) = 2 Pr Rec / (Pr + Rec), Pr = F_p / |v_p|_1, Rec = F_q / |v_q|_1
* Lin = (I_p + I_q) / (S(p) + S(q))
* BInc = sqrt(Lin * I_p / S(p)), and 0 unless I_p > 0 and I_q > 0

Cut-offs (Hosseini et al.): a predicate needs ``min_arg_pairs`` distinct argument pairs and an argument pair
``min_predicates`` distinct predicates. Everything is sparse-matrix algebra: no loop over predicate pairs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

SCORE_COLUMNS = ("cosine", "weeds", "lin", "binc")
GRAPH_COLUMNS = ("premise", "hypothesis", "subj_type", "obj_type", *SCORE_COLUMNS)


def _prune(counts: pd.DataFrame, min_arg_pairs: int, min_predicates: int) -> pd.DataFrame:
    pairs_per_pred = counts.groupby("pred")["pair"].transform("nunique")
    counts = counts[pairs_per_pred >= min_arg_pairs]
    preds_per_pair = counts.groupby("pair")["pred"].transform("nunique")
    return counts[preds_per_pair >= min_predicates]


def local_scores(relations: pd.DataFrame, subj_type: str, obj_type: str, *, min_arg_pairs: int = 3, min_predicates: int = 3) -> pd.DataFrame:
    """Scores of every ordered pair of distinct predicates of one type pair that share an argument pair."""
    from scipy import sparse

    frame = relations[(relations["subj_type"] == subj_type) & (relations["obj_type"] == obj_type)]
    counts = frame.assign(pair=frame["subj"] + "\t" + frame["obj"]).groupby(["pred", "pair"]).size().rename("n").reset_index()
    counts = _prune(counts, min_arg_pairs, min_predicates)
    if counts.empty:
        return pd.DataFrame(columns=list(GRAPH_COLUMNS))
    preds, pred_index = np.unique(counts["pred"], return_inverse=True)
    _, pair_index = np.unique(counts["pair"], return_inverse=True)
    values = counts["n"].to_numpy(dtype=np.float64)
    v = sparse.csr_matrix((values, (pred_index, pair_index)))
    total = values.sum()
    row_sums = np.asarray(v.sum(axis=1)).ravel()
    col_sums = np.asarray(v.sum(axis=0)).ravel()
    pmi = np.log(values / total) - np.log(row_sums[pred_index] / total) - np.log(col_sums[pair_index] / total)
    positive_pmi = sparse.csr_matrix((np.maximum(pmi, 0.0), (pred_index, pair_index)), shape=v.shape)
    binary = (v > 0).astype(np.float64)
    dot = (v @ v.T).tocoo()
    shared_counts = (v @ binary.T).tocsr()  # [p, q] = F_p over pairs shared with q
    shared_pmi = (positive_pmi @ binary.T).tocsr()  # [p, q] = I_p over pairs shared with q
    s = np.asarray(positive_pmi.sum(axis=1)).ravel()
    l1 = row_sums
    l2 = np.sqrt(np.asarray(v.multiply(v).sum(axis=1)).ravel())
    p, q = dot.row, dot.col
    keep = p != q
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
    graph = pd.DataFrame({"premise": preds[p], "hypothesis": preds[q], "subj_type": subj_type, "obj_type": obj_type,
                          "cosine": cosine, "weeds": weeds, "lin": np.where((i_p > 0) & (i_q > 0), lin, 0.0), "binc": binc})
    return graph.sort_values(["premise", "hypothesis"], kind="mergesort").reset_index(drop=True)


def build_graphs(relations: pd.DataFrame, *, min_arg_pairs: int, min_predicates: int) -> pd.DataFrame:
    """Local graphs of every type pair, concatenated."""
    type_pairs = sorted(set(zip(relations["subj_type"], relations["obj_type"])))
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
