"""Published entailment graphs (Hosseini et al.): readers of their files (local ``<types>_sim.txt``, global
``<types>_gsim.txt``), so a published graph can be plugged in where the workflow's local graphs go.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd


# --- published graph files -----------------------------------------------------------------------------

GRAPH_FILE_PATTERNS = ("*_sim.txt", "*_gsim.txt")  # one file per type pair: local, global


def graph_file_paths(directory: str | Path) -> list[Path]:
    """The graph files of ``directory`` (``GRAPH_FILE_PATTERNS``), sorted; none where it is not a directory."""
    return sorted(path for pattern in GRAPH_FILE_PATTERNS for path in Path(directory).glob(pattern))


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
                premise, feature = line[len("predicate:") :].strip(), None
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

    graph = pd.DataFrame(
        {
            "premise": [p for p, _, _ in premise],
            "hypothesis": [h for h, _, _ in hypothesis],
            "subj_type": [plain(a) for _, a, _ in hypothesis],
            "obj_type": [plain(b) for _, _, b in hypothesis],
            "reversed": [(pa, pb) != (ha, hb) for (_, pa, pb), (_, ha, hb) in zip(premise, hypothesis)],
            measure: edges["score"].to_numpy(dtype=np.float64),
        }
    )
    graph["premise_surface"] = graph["premise"].map(ccg_surface)
    graph["hypothesis_surface"] = graph["hypothesis"].map(ccg_surface)
    return graph.reset_index(drop=True)


def import_graph_files(paths, section: str, output: str | Path) -> pd.DataFrame:
    """``graph_from_files`` written to ``output`` (Parquet, atomically): the graph of rule import_graph_files. Files
    whose ``section`` holds no edge are refused, naming the sections they have (a misspelt section would otherwise
    score every entry 0)."""
    from ..atomic import atomic_file
    from ..errors import InputFormatError

    paths = sorted(Path(p) for p in paths)
    if not paths:
        raise InputFormatError("graphs.from_files", None, "directory", "the directory holds no <types>_sim.txt or <types>_gsim.txt file")
    graph = graph_from_files(paths, section)
    if graph.empty:
        found = sorted({f for path in paths for f in read_graph_file(path)["feature"]})
        raise InputFormatError(
            f"{paths[0].parent}/ ({len(paths)} graph files)",
            None,
            "section",
            f"no edge in section {section!r}; the files' sections: {', '.join(found) or 'none (no edge at all)'}: "
            "set graphs.from_files.<name>.section to one",
        )
    with atomic_file(output) as tmp:
        graph.to_parquet(tmp, index=False)
    return graph
