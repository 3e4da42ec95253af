"""A picture of the workflow: Snakemake's rule graph for a target and a config, drawn in layers, rules coloured by phase.

Snakemake computes the graph (``snakemake --rulegraph``) in a copy of the workflow definition in the job's scratch
folder (``scratch.job_scratch``: removed when the job ends, swept after a kill), so that its start (the
recovery of rules/recovery.smk) never touches the state of the run that asked for the picture;
the drawing is matplotlib's (Graphviz is not a dependency), with a fixed layout and no date, so the same graph gives
the same bytes.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import yaml

from ..atomic import atomic_file
from ..workflow.phases import PHASES
from .plan import copy_definition

_NODE = re.compile(r'^\s*(\d+)\[label = "([^"]+)"')
_EDGE = re.compile(r"^\s*(\d+) -> (\d+)")


def definition_digest(workflow_dir: str | Path) -> str:
    """A digest of the Snakefile and the rule files: with the config, all that the rule graph depends on."""
    import hashlib

    digest = hashlib.sha256()
    root = Path(workflow_dir)
    for path in [root / "Snakefile", *sorted((root / "rules").rglob("*.smk"))]:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def snakemake_rulegraph(workflow_dir: str | Path, config: dict, target: str, scratch: str | Path, snakemake: str = "snakemake") -> str:
    """Snakemake's rule graph (DOT) of ``target`` as a fresh run with ``config`` would make it, planned in a copy of the
    definition under ``scratch`` (an empty folder)."""
    copy = copy_definition(workflow_dir, Path(scratch) / "definition")
    (copy / "run-config.yaml").write_text(yaml.safe_dump(config, sort_keys=True), encoding="utf-8")
    result = subprocess.run(
        [snakemake, target, "--rulegraph", "--nolock", "--quiet", "--configfile", "run-config.yaml"], cwd=copy, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise RuntimeError(f"snakemake --rulegraph {target} failed ({result.returncode}):\n{result.stderr[-4000:]}")
    return result.stdout


def parse_rulegraph(dot: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The rules of a ``--rulegraph`` DOT text and its edges (producer, consumer), by rule name."""
    names: dict[str, str] = {}
    edges: list[tuple[str, str]] = []
    for line in dot.splitlines():
        if node := _NODE.match(line):
            names[node.group(1)] = node.group(2)
        elif edge := _EDGE.match(line):
            edges.append((edge.group(1), edge.group(2)))
    return sorted(names.values()), sorted({(names[a], names[b]) for a, b in edges})


def layer_order(names: Sequence[str], edges: Sequence[tuple[str, str]], sweeps: int = 4) -> list[list[str]]:
    """Rules in layers: a rule one layer after the last of its inputs (the longest path from a source); within a
    layer, ordered by the mean place of their inputs (a few barycentre sweeps; ties by name), so edges cross less."""
    inputs: dict[str, list[str]] = {name: [] for name in names}
    for producer, consumer in edges:
        inputs[consumer].append(producer)
    column: dict[str, int] = {}

    def depth(name: str) -> int:
        if name not in column:
            column[name] = 1 + max((depth(p) for p in inputs[name]), default=-1)
        return column[name]

    for name in names:
        depth(name)
    columns = [sorted(n for n in names if column[n] == k) for k in range(max(column.values(), default=-1) + 1)]
    for _ in range(sweeps):
        row = {name: i for col in columns for i, name in enumerate(col)}
        for k in range(1, len(columns)):

            def centre(name: str) -> float:
                rows = [row[p] for p in inputs[name]]
                return sum(rows) / len(rows) if rows else row[name]

            columns[k].sort(key=lambda name: (centre(name), name))
            row.update({name: i for i, name in enumerate(columns[k])})
    return columns


def draw_rulegraph(names: Sequence[str], edges: Sequence[tuple[str, str]], output: str | Path, title: str) -> None:
    """The graph as an SVG (or PNG, by ``output``'s suffix): rows of rules from inputs (top) to outputs, each rule's box
    coloured by its phase (rules/<phase>.smk), a legend of the phases."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "rulegraph"
    phase_of = {rule: phase.name for phase in PHASES for rule in phase.rules}
    phases = [phase.name for phase in PHASES if any(phase_of.get(n) == phase.name for n in names)]
    colours = {phase: plt.get_cmap("tab20")(k % 20) for k, phase in enumerate(phases)}
    rows = layer_order(names, edges)
    widest = max((len(row) for row in rows), default=1)
    figure, axes = plt.subplots(figsize=(2.2 * widest + 0.5, 0.62 * len(rows) + 1.2))
    boxes = {}
    for k, row in enumerate(rows):
        for i, name in enumerate(row):
            colour = colours.get(phase_of.get(name), (0.85, 0.85, 0.85, 1.0))
            boxes[name] = axes.text(
                i + (widest - len(row)) / 2,
                -k,
                name,
                ha="center",
                va="center",
                fontsize=7,
                bbox={"boxstyle": "round,pad=0.3", "facecolor": colour, "edgecolor": "0.3", "linewidth": 0.5},
            )
    for producer, consumer in edges:  # from the producer's bottom edge to the consumer's top edge
        axes.annotate(
            "",
            xy=(0.5, 1.0),
            xycoords=boxes[consumer],
            xytext=(0.5, 0.0),
            textcoords=boxes[producer],
            arrowprops={"arrowstyle": "->", "color": "0.6", "lw": 0.5, "shrinkA": 3, "shrinkB": 3},
        )
    handles = [plt.Rectangle((0, 0), 1, 1, facecolor=colours[p], edgecolor="0.3", linewidth=0.5) for p in phases]
    axes.legend(handles, phases, loc="lower left", bbox_to_anchor=(0, 1.0), fontsize=7, ncol=min(len(phases), 7), frameon=False)
    axes.set_xlim(-0.6, widest - 0.4)
    axes.set_ylim(-len(rows) + 0.5, 0.5)
    axes.set_title(title, fontsize=9, loc="left", pad=38)
    axes.axis("off")
    with atomic_file(output) as tmp:
        suffix = Path(output).suffix.lstrip(".")
        figure.savefig(tmp, format=suffix, bbox_inches="tight", metadata={"Date": None} if suffix == "svg" else None)
    plt.close(figure)
