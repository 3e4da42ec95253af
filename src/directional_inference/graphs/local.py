"""Local scores of one typed graph (Hosseini et al. 2018) from its nodes' argument-pair counts, in blocks of premises.

For nodes p, q of one graph with argument-pair count vectors v_p, v_q; N = the sum of all counts;
PMI(p, a) = log(v_p(a) / N) - log(|v_p|_1 / N) - log(|v_a|_1 / N); S(p) = sum_a max(PMI(p, a), 0); over the argument
pairs shared by p and q: F_p = sum v_p(a), I_p = sum max(PMI(p, a), 0):

* cosine = v_p . v_q / (|v_p|_2 |v_q|_2)
* Weeds (probabilistic) = 2 Pr Rec / (Pr + Rec), Pr = F_p / |v_p|_1, Rec = F_q / |v_q|_1
* Lin = (I_p + I_q) / (S(p) + S(q))
* BInc = sqrt(Lin * I_p / S(p))

Lin and BInc are 0 unless I_p > 0 and I_q > 0; a score whose denominator is 0 is 0.

Every edge is a product of sparse rows: the products of all node pairs that share an argument pair grow with the square
of the predicates a popular argument pair has, so they are computed for a block of premises at a time, each block
sized to ``BLOCK_WORK`` multiply-adds, and written as they come (``write_type_pair``); memory is bounded by a block,
not by the graph. Sums run in the same order as one product of the whole matrix would (ascending argument pair), so the
scores do not depend on the blocks.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

SCORE_COLUMNS = ("cosine", "weeds", "lin", "binc")
GRAPH_COLUMNS = ("premise", "hypothesis", "subj_type", "obj_type", "reversed", *SCORE_COLUMNS)
BLOCK_WORK = 10_000_000  # multiply-adds of one block's products: a few hundred MB at most
ROW_GROUP_ROWS = 65_536


def graph_schema():
    import pyarrow as pa

    types = {"reversed": pa.bool_(), **{c: pa.float64() for c in SCORE_COLUMNS}}
    return pa.schema([(name, types.get(name, pa.string())) for name in GRAPH_COLUMNS])


def edge_blocks(
    node_index: np.ndarray, pair_index: np.ndarray, values: np.ndarray, names: np.ndarray, type_a: str, type_b: str, *, block_work: int | None = None
) -> Iterator[tuple[int, object]]:
    """Edges of the graph of the unordered type pair {type_a, type_b} between every two distinct nodes that share an
    argument pair, a block of premises at a time, as (group, Arrow table of ``GRAPH_COLUMNS``): group 0 holds the edges
    whose hypothesis is in the graph's orientation (types ``type_a, type_b`` sorted), group 1 the others; within a block
    a group is sorted by premise, hypothesis and ``reversed``, and blocks follow the premises' order. Node ``k`` is
    ``names[k]`` (``pred\\t0``, or ``pred\\t1`` for a node typed in the graph's orientation reversed; sorted); the counts
    are ``values`` at (``node_index``, ``pair_index``), sorted by node, then pair (codes in the order of the pairs' names)."""
    import pyarrow as pa
    from scipy import sparse

    v = sparse.csr_matrix((values, (node_index, pair_index)))
    total = values.sum()
    row_sums = np.asarray(v.sum(axis=1)).ravel()
    col_sums = np.asarray(v.sum(axis=0)).ravel()
    pmi = np.log(values / total) - np.log(row_sums[node_index] / total) - np.log(col_sums[pair_index] / total)
    positive_pmi = sparse.csr_matrix((np.maximum(pmi, 0.0), (node_index, pair_index)), shape=v.shape)
    del pmi
    binary = (v > 0).astype(np.float64)
    s = np.asarray(positive_pmi.sum(axis=1)).ravel()
    l1 = row_sums
    l2 = np.sqrt(np.asarray(v.multiply(v).sum(axis=1)).ravel())
    preds, pred_code = np.unique(np.array([name[:-2] for name in names], dtype=object), return_inverse=True)
    flipped = np.array([name.endswith("1") for name in names])
    if np.any(np.diff(pred_code) < 0):  # names sort like their predicates unless a predicate holds a control character
        raise ValueError("graph nodes are not in the order of their predicates")
    first, second = sorted((type_a, type_b))
    dictionary = pa.array(preds, pa.string())
    v_t, binary_t, pmi_t = v.T.tocsr(), binary.T.tocsr(), positive_pmi.T.tocsr()
    work = binary @ np.diff(v_t.indptr).astype(np.float64)  # multiply-adds of each premise's row of v @ v.T
    for start, end in _blocks(pred_code, work, BLOCK_WORK if block_work is None else block_work):
        rows = slice(start, end)
        dot = _canonical(v[rows] @ v_t)
        p = np.repeat(np.arange(end - start), np.diff(dot.indptr))
        q = dot.indices.astype(np.int64)
        # F_p, F_q: the counts over the shared pairs, never 0: the same entries as dot; I_p, I_q: 0 entries dropped
        f_p = _on(dot, _canonical(v[rows] @ binary_t))
        f_q = _on(dot, _canonical(binary[rows] @ v_t))
        i_p = _on(dot, _canonical(positive_pmi[rows] @ binary_t))
        i_q = _on(dot, _canonical(binary[rows] @ pmi_t))
        p = p + start
        keep = p != q
        if type_a == type_b:
            keep &= ~flipped[q]  # the hypothesis in the _1_2 orientation; the rest are mirror images
        p, q, dot_values, f_p, f_q, i_p, i_q = p[keep], q[keep], dot.data[keep], f_p[keep], f_q[keep], i_p[keep], i_q[keep]
        with np.errstate(divide="ignore", invalid="ignore"):
            cosine = dot_values / (l2[p] * l2[q])
            precision, recall = f_p / l1[p], f_q / l1[q]
            weeds = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
            lin = np.where(s[p] + s[q] > 0, (i_p + i_q) / (s[p] + s[q]), 0.0)
            weeds_pmi_precision = np.where(s[p] > 0, i_p / s[p], 0.0)
            binc = np.where((i_p > 0) & (i_q > 0), np.sqrt(lin * weeds_pmi_precision), 0.0)
        lin = np.where((i_p > 0) & (i_q > 0), lin, 0.0)
        reversed_ = flipped[p] != flipped[q]
        for group in (0, 1):
            chosen = flipped[q] == bool(group)
            order = np.flatnonzero(chosen)[np.lexsort((reversed_[chosen], pred_code[q][chosen], pred_code[p][chosen]))]
            if not len(order):
                continue
            types = (second, first) if group else (first, second)
            yield (
                group,
                pa.table(
                    {
                        "premise": pa.DictionaryArray.from_arrays(pa.array(pred_code[p[order]], pa.int32()), dictionary).dictionary_decode(),
                        "hypothesis": pa.DictionaryArray.from_arrays(pa.array(pred_code[q[order]], pa.int32()), dictionary).dictionary_decode(),
                        "subj_type": pa.array(np.full(len(order), types[0], dtype=object), pa.string()),
                        "obj_type": pa.array(np.full(len(order), types[1], dtype=object), pa.string()),
                        "reversed": pa.array(reversed_[order]),
                        "cosine": pa.array(cosine[order]),
                        "weeds": pa.array(weeds[order]),
                        "lin": pa.array(lin[order]),
                        "binc": pa.array(binc[order]),
                    }
                ),
            )


def _canonical(matrix):
    matrix = matrix.tocsr()
    matrix.sort_indices()
    return matrix


def _on(structure, values) -> np.ndarray:
    """The entries of ``values`` (a CSR matrix whose entries are a subset of ``structure``'s) at ``structure``'s entries
    (0 where ``values`` has none)."""
    if values.nnz == structure.nnz and np.array_equal(values.indptr, structure.indptr) and np.array_equal(values.indices, structure.indices):
        return values.data
    width = structure.shape[1]
    keys = np.repeat(np.arange(structure.shape[0], dtype=np.int64), np.diff(structure.indptr)) * width + structure.indices
    found = np.repeat(np.arange(values.shape[0], dtype=np.int64), np.diff(values.indptr)) * width + values.indices
    out = np.zeros(structure.nnz)
    out[np.searchsorted(keys, found)] = values.data
    return out


def _blocks(pred_code: np.ndarray, work: np.ndarray, budget: int) -> Iterator[tuple[int, int]]:
    """Consecutive node ranges of about ``budget`` work each, never splitting the two nodes of one predicate."""
    start, done = 0, 0.0
    for k in range(len(pred_code)):
        done += work[k]
        last_of_pred = k + 1 == len(pred_code) or pred_code[k + 1] != pred_code[k]
        if last_of_pred and (done >= budget or k + 1 == len(pred_code)):
            yield start, k + 1
            start, done = k + 1, 0.0


def write_type_pair(writer, blocks, staging_dir, row_group_rows: int | None = None) -> int:
    """Write one graph's edges from ``edge_blocks`` to the Parquet ``writer`` in the graph's edge order (group 0, then group
    1, each in the blocks' order), in row groups of ``row_group_rows`` rows, the last one ending with the graph (so each
    row group of a file belongs to one type pair); group 1 waits in a staging file. Returns the edges."""
    import pyarrow.parquet as pq

    from ..engine import RowGroups

    schema = graph_schema()
    groups = RowGroups(writer, schema, row_group_rows or ROW_GROUP_ROWS)
    later_path = staging_dir / "graph-group-1.parquet"
    with pq.ParquetWriter(later_path, schema, compression="zstd") as later:
        for group, table in blocks:
            if group == 0:
                groups.add(table)
            else:
                later.write_table(table)
    for batch in pq.ParquetFile(later_path).iter_batches(batch_size=groups.rows):
        groups.add(batch)
    later_path.unlink()
    groups.flush()
    return groups.written
