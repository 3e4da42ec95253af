"""The graphs' feature counts, out of core: every typed relation as a node of its type pair's graph with its argument
pair, counted, cut off, and the type pairs dealt out to the graph jobs.

Induction follows Hosseini et al.: one graph per *unordered* type pair {A, B}, whose argument pairs are put in one
orientation (the A-typed argument first). A relation p(s, o) of types (A, B) is the node p#A#B with the pair (s, o);
one of types (B, A) is the node p#B#A with the pair (o, s), so both orders of a predicate share one feature space
and edges between them are the reversed edges. With equal types each relation p(s, o) gives the node p#A_1#A_2 with
the pair (s, o) and the node p#A_2#A_1 with (o, s) (only the first where s = o: the mirror would be the same pair).
A node is named ``pred\\t0`` (the graph's orientation) or
``pred\\t1`` (reversed). Cut-offs (Hosseini et al.): a node needs ``min_arg_pairs`` distinct argument pairs, then an
argument pair ``min_predicates`` distinct nodes (one pass of each).
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def node_rows_sql(source: str) -> str:
    """(type_a <= type_b, node, pair) of every relation of ``source`` in its type pair's graph (see module docstring)."""
    return f"""
        SELECT least(subj_type, obj_type) AS type_a, greatest(subj_type, obj_type) AS type_b,
               pred || CASE WHEN subj_type > obj_type THEN '\t1' ELSE '\t0' END AS node,
               CASE WHEN subj_type > obj_type THEN obj || '\t' || subj ELSE subj || '\t' || obj END AS pair
        FROM {source}
        UNION ALL
        SELECT subj_type, obj_type, pred || '\t1', obj || '\t' || subj FROM {source} WHERE subj_type = obj_type AND subj <> obj"""


def feature_counts_sql(source: str, min_arg_pairs: int, min_predicates: int) -> str:
    """(type_a, type_b, node, pair, n) counts of the nodes of ``source``'s relations after the cut-offs."""
    return f"""
        WITH counts AS (SELECT type_a, type_b, node, pair, count(*) AS n FROM ({node_rows_sql(source)}) GROUP BY ALL),
        nodes AS (
            SELECT * FROM counts QUALIFY count(*) OVER (PARTITION BY type_a, type_b, node) >= {int(min_arg_pairs)}
        )
        SELECT * FROM nodes QUALIFY count(*) OVER (PARTITION BY type_a, type_b, pair) >= {int(min_predicates)}"""


def deal_type_pairs(sizes: pd.DataFrame, parts: int) -> dict[tuple[str, str], int]:
    """Type pair -> graph job (0 .. parts-1): the largest first, each to the least loaded job (ties to the lower job),
    so the jobs get about equal work. ``sizes``: ``type_a, type_b, rows``."""
    ordered = sizes.sort_values(["rows", "type_a", "type_b"], ascending=[False, True, True], kind="mergesort")
    load = np.zeros(parts)
    assignment = {}
    for type_a, type_b, rows in zip(ordered["type_a"], ordered["type_b"], ordered["rows"]):
        job = int(np.argmin(load))
        assignment[(type_a, type_b)] = job
        load[job] += rows
    return assignment
