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

import pandas as pd

from .features import deal_type_pairs, feature_counts_sql
from .local import GRAPH_COLUMNS, SCORE_COLUMNS, edge_blocks
from .published import ccg_surface, graph_from_files, read_graph_file

__all__ = ["GRAPH_COLUMNS", "SCORE_COLUMNS", "build_graphs", "ccg_surface", "gather_graph_parts", "graph_from_files", "read_graph_file"]

log = logging.getLogger(__name__)

# the order of a graph's edges: by type pair, then as Hosseini's files list them
EDGE_ORDER = "least(subj_type, obj_type), greatest(subj_type, obj_type), subj_type, obj_type, premise, hypothesis, reversed"


def build_graphs(engine, relations, *, min_arg_pairs: int, min_predicates: int, held_out_windows: Iterable[str] = (),
                 part: int = 0, parts: int = 1, output=None):
    """Local graphs of the type pairs of job ``part`` of ``parts`` (``features.deal_type_pairs``), from the merged
    ``relations`` (Parquet files or a frame) outside ``held_out_windows``. With ``output`` the edges are written there
    in ``EDGE_ORDER`` (their number returned), else returned as a frame."""
    engine.table("relations", relations)
    engine.frame("held_out", pd.DataFrame({"window": sorted(set(held_out_windows))}, columns=["window"]).astype(str))
    engine.view("training", 'SELECT * FROM relations ANTI JOIN held_out USING ("window")')
    sizes = engine.df("""SELECT least(subj_type, obj_type) AS type_a, greatest(subj_type, obj_type) AS type_b, count(*) AS rows
                         FROM training GROUP BY ALL""")
    mine = sorted(pair for pair, job in deal_type_pairs(sizes, parts).items() if job == part)
    engine.frame("my_type_pairs", pd.DataFrame(mine, columns=["type_a", "type_b"]).astype(str))
    engine.view("my_training", """SELECT * FROM training
                                  SEMI JOIN my_type_pairs ON least(subj_type, obj_type) = type_a AND greatest(subj_type, obj_type) = type_b""")
    engine.materialise("features", feature_counts_sql("my_training", min_arg_pairs, min_predicates))
    engine.materialise("edges", f"SELECT {', '.join(f'CAST(NULL AS {t}) AS {c}' for c, t in _edge_column_types())} LIMIT 0")
    for type_a, type_b in mine:
        names = engine.execute("SELECT DISTINCT node FROM features WHERE type_a = ? AND type_b = ? ORDER BY node",
                               [type_a, type_b]).fetchnumpy()["node"]
        if not len(names):
            continue
        counts = engine.execute("""
            SELECT dense_rank() OVER (ORDER BY node) - 1 AS node_index, dense_rank() OVER (ORDER BY pair) - 1 AS pair_index, n
            FROM features WHERE type_a = ? AND type_b = ? ORDER BY node, pair""", [type_a, type_b]).fetchnumpy()
        edges = 0
        for block in edge_blocks(counts["node_index"].astype(int), counts["pair_index"].astype(int),
                                 counts["n"].astype(float), names.astype(object), type_a, type_b):
            engine.con.register("edge_block", block)
            engine.execute("INSERT INTO edges SELECT * FROM edge_block").fetchall()
            engine.con.unregister("edge_block")
            edges += len(block)
        log.info("%s#%s: %d nodes, %d argument-pair counts, %d edges", type_a, type_b, len(names), len(counts["n"]), edges)
    rows = f"SELECT * FROM edges ORDER BY {EDGE_ORDER}"
    return engine.write(rows, output) if output is not None else engine.df(rows)[list(GRAPH_COLUMNS)]


def gather_graph_parts(engine, parts, output) -> int:
    """One graph file of the graph jobs' part files, in ``EDGE_ORDER``."""
    engine.table("graph_parts", parts)
    return engine.write(f"SELECT {', '.join(GRAPH_COLUMNS)} FROM graph_parts ORDER BY {EDGE_ORDER}", output)


def _edge_column_types() -> list[tuple[str, str]]:
    types = {"premise": "VARCHAR", "hypothesis": "VARCHAR", "subj_type": "VARCHAR", "obj_type": "VARCHAR", "reversed": "BOOLEAN"}
    return [(name, types.get(name, "DOUBLE")) for name in GRAPH_COLUMNS]
