"""The hyper-parameter search: trials drawn once from the seed (the same for every subset and model, as the authors'
fixed arrays), and the choice of the trial with the best dev AUC over precision >= 0.51 at its best dev point."""

from __future__ import annotations

import csv
import io
import json
import logging
import math
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..atomic import atomic_directory, write_text_atomic
from ..errors import InputFormatError, WorkflowError
from .epochs import shown_epoch
from .training import Hyperparameters

log = logging.getLogger(__name__)

TRIAL_COLUMNS = ("trial", "learning_rate", "weight_decay", "grad_accumulation")


def draw_trials(
    count: int, seed: int, lr_range: Sequence[float], wd_range: Sequence[float], accumulation_range: Sequence[int]
) -> list[Hyperparameters]:
    """``count`` trials from one seeded generator, log-uniform learning rate and weight decay, uniform accumulation;
    trial k is the same whatever ``count`` is."""
    rng = random.Random(seed)
    trials = []
    for k in range(count):
        lr = math.exp(rng.uniform(math.log(lr_range[0]), math.log(lr_range[1])))
        wd = math.exp(rng.uniform(math.log(wd_range[0]), math.log(wd_range[1])))
        steps = rng.randint(accumulation_range[0], accumulation_range[1])
        trials.append(Hyperparameters(k, float(f"{lr:.6g}"), float(f"{wd:.6g}"), steps))
    return trials


def write_trials(path: str | os.PathLike, trials: Sequence[Hyperparameters]) -> None:
    lines = [",".join(TRIAL_COLUMNS)] + [f"{t.trial},{t.learning_rate!r},{t.weight_decay!r},{t.grad_accumulation}" for t in trials]
    write_text_atomic(path, "\n".join(lines) + "\n")


def read_trials(path: str | os.PathLike) -> list[Hyperparameters]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split(",")) != TRIAL_COLUMNS:
        raise InputFormatError(str(path), 1, None, f"expected header {','.join(TRIAL_COLUMNS)}")
    trials = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        try:
            trials.append(Hyperparameters(int(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])))
        except (ValueError, IndexError):
            raise InputFormatError(str(path), number, None, f"not a trial line: {line!r}") from None
    return trials


def trials_numbered(trials: Sequence[Hyperparameters], numbers: Sequence[int], source: str | os.PathLike) -> list[Hyperparameters]:
    """The trials of ``trials`` (read from ``source``) with the numbers ``numbers``, in that order: the trials one
    search trains (all of them, or under training.search: published one)."""
    by_number = {trial.trial: trial for trial in trials}
    if missing := [k for k in numbers if k not in by_number]:
        raise InputFormatError(str(source), None, "trial", f"no trial {missing[0]} (the file holds {len(trials)} trials)")
    return [by_number[k] for k in numbers]


SELECTION_COLUMNS = (
    "trial",
    "learning_rate",
    "weight_decay",
    "grad_accumulation",
    "best_epoch",
    "best_batch",
    "best_step",
    "evaluations",
    "dev_auc_selection",
    "dev_auc50",
    "dev_auc_norm",
    "dev_best_f1",
    "train_pairs",
    "dev_pairs",
    "precision",
    "threads",
    "stopped_epoch",
    "stopped_batch",
    "stopped_step",
    "stop_reason",
    "best_is_last",
    "still_improving",
    "selected",
)
# added where the trials are not this workflow's own seeded draw (sns.published.selection_origin)
ORIGIN_COLUMNS = ("trial_source", "chosen_by", "published_search", "published_epoch", "epochs", "best_in_published_epoch")
EVALUATION_COLUMNS = ("epoch", "batch", "step", "dev_auc_selection", "dev_auc_norm")


def origin_cells(origin: Mapping, best_epoch: int) -> list:
    """The ``ORIGIN_COLUMNS`` cells of a trial whose best dev point is in ``best_epoch`` (empty where nothing is published)."""
    published = origin.get("published")
    if not published:
        return [origin["trial_source"], "dev_auc", "", "", origin["epochs"], ""]
    return [origin["trial_source"], "published", published["search"], published["epoch"], origin["epochs"], int(best_epoch == published["epoch"])]


def write_evaluations(path: str | os.PathLike, evaluations: Sequence[dict], best: dict) -> None:
    """Every dev evaluation of a trial, the best one marked."""
    lines = [",".join(EVALUATION_COLUMNS + ("best",))]
    for point in evaluations:
        values = [str(point["epoch"]), str(point["batch"]), str(point["step"]), f"{point['dev_auc_selection']:.6f}", f"{point['dev_auc_norm']:.6f}"]
        lines.append(",".join(values + [str(int((point["epoch"], point["batch"]) == (best["epoch"], best["batch"])))]))
    write_text_atomic(path, "\n".join(lines) + "\n")


SUPERSEDED_NOTE = "superseded.json"  # left in a trial's weight directory once a better trial of its search finished
SEARCH_LOCK = ".weights.lock"


def dev_metrics(scores_file: str | os.PathLike, floor: float) -> dict:
    """The selection's dev metrics of a trial's best point, from its dev scores (NaN without both classes)."""
    import pandas as pd

    from ..metrics import evaluate_scores

    frame = pd.read_parquet(scores_file)
    if frame["label"].any() and not frame["label"].all():
        return evaluate_scores(frame["score"].to_numpy(), frame["label"].to_numpy(), selection_floor=floor)
    return dict.fromkeys(("auc_selection", "auc50", "auc_norm", "best_f1"), float("nan"))  # the trials tie, the first is kept


def selection_key(trial: int, metrics: dict) -> tuple[float, int]:
    """What the selection maximises: dev AUC over precision >= floor (NaN lowest), then the lower trial."""
    auc = metrics["auc_selection"]
    return (-1.0 if math.isnan(auc) else float(auc), -trial)


def holds_weights(weights_dir: str | os.PathLike) -> bool:
    return (Path(weights_dir) / "config.json").is_file()


def _search_part(record: dict) -> dict:
    """What every trial of one search shares in its training record: settings, selection floor, data and base model."""
    return {key: record.get(key) for key in ("settings", "selection_floor", "train", "dev", "model")}


def keep_best_weights(search_dir: str | os.PathLike, trials: int | Iterable[int], floor: float, own_record: str | os.PathLike) -> int:
    """Of the finished trials of the search in ``search_dir`` (``trials``: its trial numbers, or their count for
    0..``trials``-1) that still hold weights, keep those of the
    best by the selection's own key and empty the others' weight directories (a note names the trial that beat them);
    returns the trial kept. Called by each trial once its outputs are written, under the search's file lock, so that a
    search holds one set of weights besides those of trials still running: the best trial is never emptied, since no
    trial ranks above it. A trial counts as finished when its dev scores, record and weights are all written and its
    record shares ``own_record``'s settings, data and base model (outputs of another configuration, which Snakemake
    will run again, are left alone)."""
    import fcntl

    search = Path(search_dir)
    own = _search_part(json.loads(Path(own_record).read_text(encoding="utf-8")))
    with open(search / SEARCH_LOCK, "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        keys = {}
        for trial in range(trials) if isinstance(trials, int) else sorted(trials):
            directory = search / f"trial-{trial}"
            scores, record, weights = directory / "dev_scores.parquet", directory / "training.json", directory / "model"
            if scores.is_file() and record.is_file() and holds_weights(weights):
                if _search_part(json.loads(record.read_text(encoding="utf-8"))) == own:
                    keys[trial] = selection_key(trial, dev_metrics(scores, floor))
        best = max(keys, key=keys.get)
        for trial in sorted(set(keys) - {best}):
            weights = search / f"trial-{trial}" / "model"
            write_text_atomic(weights / SUPERSEDED_NOTE, json.dumps({"trial": trial, "superseded_by": best}) + "\n")
            for path in weights.iterdir():
                if path.name != SUPERSEDED_NOTE and not path.name.startswith("."):  # Snakemake's .snakemake_timestamp stays
                    path.unlink()
            log.info("trial %d: weights removed, trial %d ranks above it", trial, best)
    return best


def _selection_row(t: Hyperparameters, m: dict, point, count: int, record: dict, *, chosen: bool, origin: Mapping | None) -> list:
    """One trial's row of selection.csv (``SELECTION_COLUMNS``, then ``ORIGIN_COLUMNS`` where there is an origin)."""
    stopped = record["stopped"]
    return [
        t.trial,
        repr(t.learning_rate),
        repr(t.weight_decay),
        t.grad_accumulation,
        int(point["epoch"]),
        int(point["batch"]),
        int(point["step"]),
        count,
        f"{m['auc_selection']:.6f}",
        f"{m['auc50']:.6f}",
        f"{m['auc_norm']:.6f}",
        f"{m['best_f1']:.6f}",
        record["train_pairs"],
        record["dev_pairs"],
        record["precision"],
        record["settings"].get("threads", 1),
        stopped["epoch"],
        stopped["batch"],
        stopped["step"],
        record["stop_reason"],
        int(record["best_is_last"]),
        int(record["still_improving"]),
        int(chosen),
    ] + (origin_cells(origin, int(point["epoch"])) if origin else [])


def _log_choice(trial: int, epoch: int, record: dict, published: Mapping | None) -> None:
    """Say where the authors' published trial found its best point, and warn when the chosen trial may be undertrained."""
    if published:
        log.info(
            "the authors' published trial %d of %s: best dev point in %s, %s (published %s, their checkpoint's epoch=%d)",
            published["trial"],
            published["search"],
            shown_epoch(epoch),
            "the published epoch" if epoch == published["epoch"] else "NOT the published epoch",
            shown_epoch(published["epoch"]),
            published["epoch"],
        )
    if record["still_improving"]:
        log.warning(
            "POSSIBLY UNDERTRAINED: the selected trial %d ran out of epochs while its last dev evaluation still improved on the best (%s)",
            trial,
            record["stop_reason"],
        )


def select_best_trial(
    trials: Sequence[Hyperparameters],
    dev_score_files: Sequence[str],
    evaluation_files: Sequence[str],
    record_files: Sequence[str],
    weight_dirs: Sequence[str],
    floor: float,
    selection_csv: str | os.PathLike,
    best_dir: str | os.PathLike,
    origin: Mapping | None = None,
) -> int:
    """Pick the trial whose best dev point has the highest dev AUC over precision >= ``floor`` (ties: the lower trial).

    Writes ``selection_csv`` (every trial's hyper-parameters, its best dev point and that point's dev metrics, its data
    sizes and number format, where and why it stopped, whether its best point was its last evaluation, the chosen trial
    marked; ``still_improving`` says that it ran out of epochs while still improving, so it may be undertrained) and
    copies the chosen weights to ``best_dir`` (the other trials' weights are gone already, see ``keep_best_weights``);
    returns the chosen trial number. ``origin`` (``sns.published.selection_origin``; None for this workflow's own
    seeded trials) adds ``ORIGIN_COLUMNS``: the trials' source, how the model was chosen (``published``: the authors'
    published trial, the search's only one; ``dev_auc``), the published search and epoch (from 0), the maximum of epochs
    and whether the best dev point falls in the published epoch.
    """
    import shutil

    import pandas as pd

    rows = []
    for trial, scores_file, evaluations_file, record_file in zip(trials, dev_score_files, evaluation_files, record_files):
        metrics = dev_metrics(scores_file, floor)
        evaluations = pd.read_csv(evaluations_file)
        best_point = evaluations[evaluations["best"] == 1].iloc[0]
        record = json.loads(Path(record_file).read_text(encoding="utf-8"))
        rows.append((trial, metrics, best_point, len(evaluations), record))
    best = max(range(len(rows)), key=lambda i: selection_key(rows[i][0].trial, rows[i][1]))
    chosen_weights = Path(weight_dirs[best])
    record_text = Path(record_files[best]).read_text(encoding="utf-8")
    if not holds_weights(chosen_weights) or (chosen_weights / "training.json").read_text(encoding="utf-8") != record_text:
        trial_dir = Path(record_files[best]).parent
        raise WorkflowError(
            f"{chosen_weights}: trial {rows[best][0].trial} ranks first in its search but its weights were removed or "
            "belong to another run of it (an earlier run of another trial ranked above it and was then run again "
            f"with another result); remove {trial_dir} and run the same command again to train it anew"
        )
    published = (origin or {}).get("published")
    if published and [row[0].trial for row in rows] != [published["trial"]]:
        raise WorkflowError(
            f"{selection_csv}: the search of the authors' published trial {published['trial']} ({published['search']}) "
            f"holds trials {[row[0].trial for row in rows]}, not that trial alone"
        )
    table = [list(SELECTION_COLUMNS) + (list(ORIGIN_COLUMNS) if origin else [])]
    table += [_selection_row(*row, chosen=index == best, origin=origin) for index, row in enumerate(rows)]
    with atomic_directory(best_dir) as tmp:
        for path in sorted(chosen_weights.iterdir()):
            shutil.copyfile(path, tmp / path.name)
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(table)
    write_text_atomic(selection_csv, buffer.getvalue())
    _log_choice(rows[best][0].trial, int(rows[best][2]["epoch"]), rows[best][4], published)
    log.info("selected trial %d of %d", rows[best][0].trial, len(rows))
    return rows[best][0].trial
