"""Figures: the sub-group mesh with AUCnorm on each edge (Figures 1-2) and precision-recall curves (of the representative
BoOQA methods: Figure 3; of the LLM table's main rows); byte-stable PNG and SVG files."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..levyholt.entries import SUBSETS

NODE_POSITIONS = {"paraphrases": (0.0, 1.0), "dirtrue": (-1.0, 0.0), "dirfalse": (1.0, 0.0), "unrelated": (0.0, -1.0)}
NODE_LABELS = {"paraphrases": "Paraphrases", "dirtrue": "DirTrue", "dirfalse": "DirFalse", "unrelated": "Unrelated"}


def plot_mesh(values: Mapping[str, float], title: str, png: str | Path, svg: str | Path) -> None:
    """The four sub-groups as nodes and the six subsets as edges labelled with AUCnorm (percent); byte-stable files."""
    import matplotlib

    from ..atomic import save_figure

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "directional-inference"
    figure, axes = plt.subplots(figsize=(5.2, 5.2))
    triangle = {"directional", "para_dirtrue", "para_dirfalse"}
    for subset, (a, b) in SUBSETS.items():  # each subset is the edge between its two sub-groups
        (x1, y1), (x2, y2) = NODE_POSITIONS[a], NODE_POSITIONS[b]
        axes.plot([x1, x2], [y1, y2], color="tab:red" if subset in triangle else "tab:gray", linewidth=2, zorder=1)
        share = 0.32 if subset in ("directional", "symmetric") else 0.5
        x, y = x1 + share * (x2 - x1), y1 + share * (y2 - y1)
        text = f"{100 * values[subset]:.1f}" if subset in values else "n/a"
        axes.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=11,
            zorder=3,
            bbox={"boxstyle": "round,pad=0.25", "facecolor": "white", "edgecolor": "none"},
        )
    for node, (x, y) in NODE_POSITIONS.items():
        axes.text(
            x,
            y,
            NODE_LABELS[node],
            ha="center",
            va="center",
            fontsize=11,
            zorder=4,
            bbox={"boxstyle": "round,pad=0.4", "facecolor": "#dde8f5", "edgecolor": "#33557a"},
        )
    axes.set_xlim(-1.45, 1.45)
    axes.set_ylim(-1.3, 1.3)
    axes.set_axis_off()
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    save_figure(figure, png, svg, dpi=120)
    plt.close(figure)


def plot_figure3(curves: dict[str, dict[str, "object"]], title: str, png, svg) -> None:
    """Precision-recall curves of the representative methods, one panel per language; byte-stable files.

    ``curves`` maps language -> method -> scores DataFrame (label, score)."""
    from ..evaluation.methods import method_label

    panels = {
        f"BoOQA {lang.upper()} test": {method_label(method): frame for method, frame in methods.items()} for lang, methods in sorted(curves.items())
    }
    plot_pr_curves(panels, title, png, svg)


def plot_pr_curves(panels: Mapping[str, Mapping[str, "object"]], title: str, png, svg) -> None:
    """Precision-recall curves (reference semantics), one panel per title of ``panels`` (title -> curve label -> scores
    DataFrame with label and score); a curve without positives is left out; byte-stable files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..atomic import save_figure
    from ..metrics import precision_recall_curve

    plt.rcParams["svg.hashsalt"] = "directional-inference"
    figure, axes = plt.subplots(1, max(len(panels), 1), figsize=(5 * max(len(panels), 1), 4), squeeze=False)
    for axis, (name, frames) in zip(axes[0], panels.items()):
        for label, frame in frames.items():
            if frame.empty or not frame["label"].any():
                continue
            curve = precision_recall_curve(frame["score"].to_numpy(), frame["label"].to_numpy())
            axis.plot(curve.recall[::-1], curve.precision[::-1], label=label, drawstyle="steps-post")
        axis.set_xlabel("recall")
        axis.set_ylabel("precision")
        axis.set_xlim(0, 1)
        axis.set_ylim(0, 1.02)
        axis.set_title(name)
        axis.legend(fontsize=8, loc="upper right")
    figure.suptitle(title, fontsize=9)
    figure.tight_layout()
    save_figure(figure, png, svg, dpi=110)
    plt.close(figure)
