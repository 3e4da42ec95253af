"""Tables 1, 2, 6 (and their appendix versions per language model) and Figures 1-2 from LevyHolt scores."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import paper_values as paper
from .atomic import atomic_file, save_figure
from .experiments import MESH_SUBSETS, TABLE1_SUBSETS, TABLE2_SUBSETS, TABLE6_SETS
from .metrics import evaluate_scores
from .levyholt import PAPER_RULE, Entry


@dataclass(frozen=True)
class ModelInfo:
    """A language model of the config: its alias, its name or path, and the paper model it is compared with."""

    alias: str
    name: str

    @property
    def paper_model(self) -> str:
        return paper.paper_model(self.name)


def write_scores(path: str | Path, entries: list[Entry], scores: np.ndarray) -> None:
    """Scores of a test set as Parquet: entry (row of the test file), label, score."""
    frame = pd.DataFrame({"entry": np.arange(len(entries), dtype=np.int64),
                          "label": np.array([int(e.label) for e in entries], dtype=np.int8),
                          "score": scores.astype(np.float64)})
    with atomic_file(path) as tmp:
        frame.to_parquet(tmp, index=False)


def metrics_of(path: str | Path, auc_floor: float = 0.5) -> dict[str, float]:
    """Metrics of one score file; ``auc_floor`` is the precision floor of AUC50 (config evaluation.auc_precision_floor)."""
    frame = pd.read_parquet(path)
    return evaluate_scores(frame["score"].to_numpy(), frame["label"].to_numpy(), auc_floor=auc_floor)


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}"


def _paper(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def write_csv(path: str | Path, header: list[str], rows: list[list]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    with atomic_file(path) as tmp:
        tmp.write_text(buffer.getvalue(), encoding="utf-8")


def table1_rows(models: list[ModelInfo], score_path, scale: str, auc_floor: float = 0.5, conventions: Mapping[str, str] | None = None) -> tuple[list[str], list[list]]:
    """Train on Directional / Symmetric / Full, test on each (AUCnorm), beside Tables 1, 8, 10, 12."""
    conventions = conventions or {}
    header = ["model", "model_name", "train", "test", "auc_norm", "auc_norm_paper", "paper_model", "paper_table", "n_test", "positive_rate",
              "test_convention", "scale"]
    rows = []
    for model in models:
        reference = paper.TABLE1[model.paper_model]
        for train in TABLE1_SUBSETS:
            for test in TABLE1_SUBSETS:
                m = metrics_of(score_path(model.alias, "sns", train, test), auc_floor)
                rows.append([model.alias, model.name, train, test, _pct(m["auc_norm"]), _paper(reference[train][test]),
                             model.paper_model, paper.TABLE1_NUMBERS[model.paper_model], m["n"], f"{m['positive_rate']:.4f}",
                             conventions.get(test, PAPER_RULE), scale])
    return header, rows


def table2_rows(models: list[ModelInfo], score_path, scale: str, auc_floor: float = 0.5, conventions: Mapping[str, str] | None = None) -> tuple[list[str], list[list]]:
    """S&S vs 'S&S (symmetric prompts) on Paraphrases-DirTrue and Paraphrases-DirFalse, beside Tables 2, 9, 11, 13.
    ``convention`` says how each subset was built: the paper's numbers come from the authors' files (their
    Para-DirTrue has DirTrue as the positive class and 2,640 test lines)."""
    conventions = conventions or {}
    header = ["model", "model_name", "subset", "sns_auc_norm", "sym_sns_auc_norm", "difference",
              "sns_auc_norm_paper", "sym_sns_auc_norm_paper", "difference_paper", "paper_model", "paper_table", "n_test", "positive_rate",
              "convention", "scale"]
    rows = []
    for model in models:
        for subset in TABLE2_SUBSETS:
            directional = metrics_of(score_path(model.alias, "sns", subset, subset), auc_floor)
            symmetric = metrics_of(score_path(model.alias, "sns_sym", subset, subset), auc_floor)
            ref = paper.TABLE2[model.paper_model][subset]
            rows.append([model.alias, model.name, subset, _pct(directional["auc_norm"]), _pct(symmetric["auc_norm"]),
                         _pct(symmetric["auc_norm"] - directional["auc_norm"]), _paper(ref[0]), _paper(ref[1]),
                         _paper(ref[1] - ref[0]), model.paper_model, paper.TABLE2_NUMBERS[model.paper_model], directional["n"],
                         f"{directional['positive_rate']:.4f}", conventions.get(subset, PAPER_RULE), scale])
    return header, rows


def table6_rows(models: list[ModelInfo], score_path, scale: str, auc_floor: float = 0.5) -> tuple[list[str], list[list]]:
    """LevyHolt <-> SherLIiC generalisation of S&S: AUC50 and AUCnorm beside Table 6 (RoBERTa-base)."""
    header = ["model", "model_name", "train", "test", "auc50", "auc_norm", "auc50_paper", "auc_norm_paper", "paper_model", "n_test", "scale"]
    rows = []
    for model in models:
        for train in TABLE6_SETS:
            for test in TABLE6_SETS:
                m = metrics_of(score_path(model.alias, "sns", train, test), auc_floor)
                ref = paper.TABLE6[train][test] if model.paper_model == paper.MAIN_MODEL else (None, None)
                rows.append([model.alias, model.name, train, test, _pct(m["auc50"]), _pct(m["auc_norm"]),
                             _paper(ref[0]), _paper(ref[1]), paper.MAIN_MODEL, m["n"], scale])
    return header, rows


def mesh_rows(model: ModelInfo, variant: str, score_path, scale: str, auc_floor: float = 0.5, conventions: Mapping[str, str] | None = None) -> tuple[list[str], list[list]]:
    """The numbers of Figure 1 (variant sns) or Figure 2 (variant hyponly) for one model."""
    conventions = conventions or {}
    header = ["model", "model_name", "variant", "subset", "auc_norm", "auc_norm_paper", "sns_over_hyponly", "sns_over_hyponly_paper", "n_test",
              "positive_rate", "convention", "scale"]
    rows = []
    for subset in MESH_SUBSETS + ("full",):
        m = metrics_of(score_path(model.alias, variant, subset, subset), auc_floor)
        ratio, ratio_paper, reference = "", "", paper.FIGURE1.get(subset)
        if variant == "hyponly":
            reference = paper.FIGURE2.get(subset)
            full = metrics_of(score_path(model.alias, "sns", subset, subset), auc_floor)["auc_norm"]
            ratio = f"{full / m['auc_norm']:.2f}" if m["auc_norm"] > 0 else ""
            ratio_paper = paper.FIGURE2_RATIOS.get(subset, "")
        rows.append([model.alias, model.name, variant, subset, _pct(m["auc_norm"]), _paper(reference), ratio, ratio_paper, m["n"],
                     f"{m['positive_rate']:.4f}", conventions.get(subset, PAPER_RULE), scale])
    return header, rows


def metrics_summary(tables: Mapping[str, str | Path]) -> dict:
    """DVC metrics: every number of the LevyHolt tables, keyed table -> model -> row key -> metric (percent)."""
    keys = {"table1": ("train", "test"), "table2": ("subset",), "table6": ("train", "test"), "figure1": ("subset",), "figure2": ("subset",)}
    summary: dict = {}
    for name, path in sorted(tables.items()):
        frame = pd.read_csv(path)
        metric_columns = [c for c in frame.columns if ("auc" in c or c == "difference") and not c.endswith("_paper")]
        for row in frame.to_dict("records"):
            key = "-".join(str(row[k]) for k in keys[name])
            values = {c: row[c] for c in metric_columns if pd.notna(row[c])}
            summary.setdefault(name, {}).setdefault(row["model"], {})[key] = values
    return summary


def pr_points(models: list[ModelInfo], score_path) -> list[list]:
    """DVC plots: the PR curves of Table 1 (train x test over Directional / Symmetric / Full), per model."""
    from .metrics import precision_recall_curve

    rows = []
    for model in models:
        for train in TABLE1_SUBSETS:
            for test in TABLE1_SUBSETS:
                frame = pd.read_parquet(score_path(model.alias, "sns", train, test))
                curve = precision_recall_curve(frame["score"].to_numpy(), frame["label"].to_numpy())
                for precision, recall in zip(curve.precision[::-1], curve.recall[::-1]):
                    rows.append([f"{model.alias}:{train}->{test}", f"{recall:.6f}", f"{precision:.6f}"])
    return rows


NODE_POSITIONS = {"paraphrases": (0.0, 1.0), "dirtrue": (-1.0, 0.0), "dirfalse": (1.0, 0.0), "unrelated": (0.0, -1.0)}
NODE_LABELS = {"paraphrases": "Paraphrases", "dirtrue": "DirTrue", "dirfalse": "DirFalse", "unrelated": "Unrelated"}
EDGES = {
    "directional": ("dirtrue", "dirfalse"), "symmetric": ("paraphrases", "unrelated"), "para_dirtrue": ("paraphrases", "dirtrue"),
    "para_dirfalse": ("paraphrases", "dirfalse"), "dirtrue_unrel": ("dirtrue", "unrelated"), "dirfalse_unrel": ("dirfalse", "unrelated"),
}


def plot_mesh(values: Mapping[str, float], title: str, png: str | Path, svg: str | Path) -> None:
    """The four sub-groups as nodes and the six subsets as edges labelled with AUCnorm (percent); byte-stable files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "directional-inference"
    figure, axes = plt.subplots(figsize=(5.2, 5.2))
    triangle = {"directional", "para_dirtrue", "para_dirfalse"}
    for subset, (a, b) in EDGES.items():
        (x1, y1), (x2, y2) = NODE_POSITIONS[a], NODE_POSITIONS[b]
        axes.plot([x1, x2], [y1, y2], color="tab:red" if subset in triangle else "tab:gray", linewidth=2, zorder=1)
        share = 0.32 if subset in ("directional", "symmetric") else 0.5
        x, y = x1 + share * (x2 - x1), y1 + share * (y2 - y1)
        text = f"{100 * values[subset]:.1f}" if subset in values else "n/a"
        axes.text(x, y, text, ha="center", va="center", fontsize=11, zorder=3,
                  bbox={"boxstyle": "round,pad=0.25", "facecolor": "white", "edgecolor": "none"})
    for node, (x, y) in NODE_POSITIONS.items():
        axes.text(x, y, NODE_LABELS[node], ha="center", va="center", fontsize=11, zorder=4,
                  bbox={"boxstyle": "round,pad=0.4", "facecolor": "#dde8f5", "edgecolor": "#33557a"})
    axes.set_xlim(-1.45, 1.45)
    axes.set_ylim(-1.3, 1.3)
    axes.set_axis_off()
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    save_figure(figure, png, svg, dpi=120)
    plt.close(figure)
