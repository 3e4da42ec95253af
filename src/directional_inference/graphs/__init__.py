"""Entailment graphs: local graphs (cosine, Weeds, Lin, BInc; Hosseini et al. 2018) induced from the corpus relations,
one graph per unordered type pair and built by parts (``build_graphs``), and published graphs read from their files.

A graph is a table of edges ``premise, hypothesis, subj_type, obj_type, reversed`` plus one column per measure: for
every x of ``subj_type`` and y of ``obj_type``, premise(x, y) entails hypothesis(x, y), or, when ``reversed``,
premise(y, x) entails hypothesis(x, y) ("A be bought by B" -> "B own A"). ``subj_type`` and ``obj_type`` are the
hypothesis' own types; the premise's are the same pair, swapped when ``reversed``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import atomic_file
from ..engine import sql_string
from ..progress import logged
from .features import deal_type_pairs, feature_counts_sql
from .local import GRAPH_COLUMNS, SCORE_COLUMNS, edge_blocks, graph_schema, write_type_pair
from .published import ccg_surface, graph_from_files, import_graph_files, read_graph_file

__all__ = [
    "ENGINE_POOL_SHARE",
    "GRAPH_COLUMNS",
    "SCORE_COLUMNS",
    "build_graphs",
    "ccg_surface",
    "gather_graph_parts",
    "graph_from_files",
    "import_graph_files",
    "read_graph_file",
]

log = logging.getLogger(__name__)

# The graph build's engine (DuckDB) counts the features; a type pair's matrices and its block of products are Python's,
# so the engine's buffer pool takes about a third of the job's memory (measured: benchmarks/results/paper_scale.json).
ENGINE_POOL_SHARE = 0.35

# A graph's edges are in edge order: by unordered type pair, then as Hosseini's files list them (subject type, object
# type, premise, hypothesis, reversed).


def build_graphs(
    engine, relations, *, min_arg_pairs: int, min_predicates: int, held_out_windows: Iterable[str] = (), part: int = 0, parts: int = 1, output=None
):
    """Local graphs of the type pairs of job ``part`` of ``parts`` (``features.deal_type_pairs``), from the merged
    ``relations`` (Parquet files or a frame) outside ``held_out_windows``. The edges are written to ``output`` in
    edge order as they are computed, in row groups that each belong to one type pair, and the number of edges is
    returned; without ``output`` the edges are returned as a frame."""
    import pyarrow.parquet as pq

    engine.table("relations", relations)
    engine.frame("held_out", pd.DataFrame({"window": sorted(set(held_out_windows))}, columns=["window"]).astype(str))
    engine.view("training", 'SELECT * FROM relations ANTI JOIN held_out USING ("window")')
    sizes = engine.df("""SELECT least(subj_type, obj_type) AS type_a, greatest(subj_type, obj_type) AS type_b, count(*) AS rows
                         FROM training GROUP BY ALL""")
    mine = sorted(pair for pair, job in deal_type_pairs(sizes, parts).items() if job == part)
    engine.frame("my_type_pairs", pd.DataFrame(mine, columns=["type_a", "type_b"]).astype(str))
    engine.view(
        "my_training",
        """SELECT * FROM training
                                  SEMI JOIN my_type_pairs ON least(subj_type, obj_type) = type_a AND greatest(subj_type, obj_type) = type_b""",
    )
    # the counts wait on disk, sorted by type pair, so the engine's memory is free for a type pair's matrices
    features = engine.spill / "graph-features.parquet"
    engine.write(f"SELECT * FROM ({feature_counts_sql('my_training', min_arg_pairs, min_predicates)}) ORDER BY type_a, type_b, node, pair", features)
    engine.table("features", features)
    target = Path(output) if output is not None else engine.spill / "graph.parquet"
    edges = 0
    with atomic_file(target) as tmp, pq.ParquetWriter(tmp, graph_schema(), compression="zstd") as writer:
        for type_a, type_b in mine:
            node_index, pair_index, values, names = _type_pair_counts(engine, type_a, type_b)
            if not len(names):
                continue
            blocks = edge_blocks(node_index, pair_index, values, names, type_a, type_b)
            found = write_type_pair(writer, logged(blocks, f"{type_a}#{type_b} blocks"), engine.spill)
            edges += found
            log.info("%s#%s: %d nodes, %d argument-pair counts, %d edges", type_a, type_b, len(names), len(values), found)
    return edges if output is not None else pd.read_parquet(target)[list(GRAPH_COLUMNS)]


def _type_pair_counts(engine, type_a: str, type_b: str):
    """(node index, pair index, count, node names) of one type pair's feature counts, sorted by node, then pair; nodes
    and pairs numbered in the order of their names (ranked on Arrow arrays, outside the engine's memory)."""
    import pyarrow.compute as pc

    table = engine.sql(f"""SELECT node, pair, n FROM features WHERE type_a = {sql_string(type_a)} AND type_b = {sql_string(type_b)}
                               ORDER BY node, pair""").to_arrow_table()
    if not table.num_rows:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, dtype=object)
    node, pair = table.column("node").combine_chunks(), table.column("pair").combine_chunks()
    starts = pc.not_equal(node.slice(1), node.slice(0, len(node) - 1)).to_numpy(zero_copy_only=False)
    node_index = np.r_[0, np.cumsum(starts)].astype(np.int64)
    pair_index = pc.rank(pair, sort_keys="ascending", tiebreaker="dense").to_numpy().astype(np.int64) - 1
    names = pc.unique(node).to_numpy(zero_copy_only=False).astype(object)
    return node_index, pair_index, table.column("n").to_numpy().astype(np.float64), names


def gather_graph_parts(parts, output) -> int:
    """One graph file of the graph jobs' part files (``build_graphs``), in edge order: their row groups, each of one
    type pair, copied in the order of their type pairs (a type pair is in one part, its row groups in order there)."""
    import pyarrow.parquet as pq

    groups = []
    for index, path in enumerate(parts):
        part = pq.ParquetFile(path)
        for group in range(part.metadata.num_row_groups):
            first = part.read_row_group(group, columns=["subj_type", "obj_type"]).slice(0, 1).to_pylist()[0]
            groups.append((tuple(sorted((first["subj_type"], first["obj_type"]))), index, group))
    edges = 0
    with atomic_file(output) as tmp, pq.ParquetWriter(tmp, graph_schema(), compression="zstd") as writer:
        for _, index, group in sorted(groups):
            table = pq.ParquetFile(parts[index]).read_row_group(group)
            writer.write_table(table, row_group_size=max(table.num_rows, 1))
            edges += table.num_rows
    return edges
