"""Local scores of one typed graph (Hosseini et al. 2018) from its nodes' argument-pair counts, in blocks of premises.

For nodes p, q of one graph with argument-pair count vectors v_p, v_q; N = the sum of all counts;
PMI(p, a) = log(v_p(a) / N) - log(|v_p|_1 / N) - log(|v_a|_1 / N); S(p) = sum_a max(PMI(p, a), 0); over the argument
pairs shared by p and q: F_p = sum v_p(a), I_p = sum max(PMI(p, a), 0):

* cosine = v_p . v_q / (|v_p|_2 |v_q|_2)
* Weeds (probabilistic) = 2 Pr Rec / (Pr + Rec), Pr = F_p / |v_p|_1, Rec = F_q / |v_q|_1
* Lin = (I_p + I_q) / (S(p) + S(q))
* BInc = sqrt(Lin * I_p / S(p)), and 0 unless I_p > 0 and I_q > 0

Every edge is a product of sparse rows: the products of all node pairs that share an argument pair grow with the square
of the predicates a popular argument pair has, so they are computed for a block of premises at a time, each block
sized to ``block_work`` multiply-adds; memory is bounded by a block, not by the graph. Sums run in the same order
as one product of the whole matrix would (ascending argument pair), so the scores do not depend on the blocks.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

SCORE_COLUMNS = ("cosine", "weeds", "lin", "binc")
GRAPH_COLUMNS = ("premise", "hypothesis", "subj_type", "obj_type", "reversed", *SCORE_COLUMNS)
BLOCK_WORK = 20_000_000  # multiply-adds of one block's products: a few hundred MB at most


def edge_blocks(node_index: np.ndarray, pair_index: np.ndarray, values: np.ndarray, names: np.ndarray, type_a: str, type_b: str, *,
                block_work: int | None = None) -> Iterator[pd.DataFrame]:
    """Edges (``GRAPH_COLUMNS``, unsorted) of the graph of the unordered type pair {type_a, type_b} between every two
    distinct nodes that share an argument pair, a block of premises at a time. Node ``k`` is ``names[k]``
    (``pred\\t0``, or ``pred\\t1`` for a node typed in the graph's orientation reversed; sorted); the counts are
    ``values`` at (``node_index``, ``pair_index``), sorted by node, then pair (codes in the order of the pairs' names)."""
    from scipy import sparse

    v = sparse.csr_matrix((values, (node_index, pair_index)))
    total = values.sum()
    row_sums = np.asarray(v.sum(axis=1)).ravel()
    col_sums = np.asarray(v.sum(axis=0)).ravel()
    pmi = np.log(values / total) - np.log(row_sums[node_index] / total) - np.log(col_sums[pair_index] / total)
    positive_pmi = sparse.csr_matrix((np.maximum(pmi, 0.0), (node_index, pair_index)), shape=v.shape)
    binary = (v > 0).astype(np.float64)
    s = np.asarray(positive_pmi.sum(axis=1)).ravel()
    l1 = row_sums
    l2 = np.sqrt(np.asarray(v.multiply(v).sum(axis=1)).ravel())
    pred = np.array([name[:-2] for name in names], dtype=object)
    flipped = np.array([name.endswith("1") for name in names])
    first, second = sorted((type_a, type_b))
    v_t, binary_t, pmi_t = v.T.tocsr(), binary.T.tocsr(), positive_pmi.T.tocsr()
    work = binary @ np.diff(v_t.indptr).astype(np.float64)  # multiply-adds of each premise's row of v @ v.T
    for start, end in _blocks(pred, work, BLOCK_WORK if block_work is None else block_work):
        rows = slice(start, end)
        dot = (v[rows] @ v_t).tocoo()
        p, q = dot.row, dot.col
        keep = p + start != q
        if type_a == type_b:
            keep &= ~flipped[q]  # the hypothesis in the _1_2 orientation; the rest are mirror images
        p, q, dot_values = p[keep], q[keep], dot.data[keep]
        f_p = np.asarray((v[rows] @ binary_t)[p, q]).ravel()  # F_p over the pairs shared with q
        f_q = np.asarray((binary[rows] @ v_t)[p, q]).ravel()  # F_q over the pairs shared with p
        i_p = np.asarray((positive_pmi[rows] @ binary_t)[p, q]).ravel()
        i_q = np.asarray((binary[rows] @ pmi_t)[p, q]).ravel()
        p = p + start
        with np.errstate(divide="ignore", invalid="ignore"):
            cosine = dot_values / (l2[p] * l2[q])
            precision, recall = f_p / l1[p], f_q / l1[q]
            weeds = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
            lin = np.where(s[p] + s[q] > 0, (i_p + i_q) / (s[p] + s[q]), 0.0)
            weeds_pmi_precision = np.where(s[p] > 0, i_p / s[p], 0.0)
            binc = np.where((i_p > 0) & (i_q > 0), np.sqrt(lin * weeds_pmi_precision), 0.0)
        yield pd.DataFrame({"premise": pred[p], "hypothesis": pred[q],
                            "subj_type": np.where(flipped[q], second, first), "obj_type": np.where(flipped[q], first, second),
                            "reversed": flipped[p] != flipped[q],
                            "cosine": cosine, "weeds": weeds, "lin": np.where((i_p > 0) & (i_q > 0), lin, 0.0), "binc": binc})


def _blocks(pred: np.ndarray, work: np.ndarray, budget: int) -> Iterator[tuple[int, int]]:
    """Consecutive node ranges of about ``budget`` work each, never splitting the two nodes of one predicate."""
    start, done = 0, 0.0
    for k in range(len(pred)):
        done += work[k]
        last_of_pred = k + 1 == len(pred) or pred[k + 1] != pred[k]
        if last_of_pred and (done >= budget or k + 1 == len(pred)):
            yield start, k + 1
            start, done = k + 1, 0.0
