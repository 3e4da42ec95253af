"""The authors' published choices: which trial of their search, and which epoch's checkpoint, each S&S row of their
BoOQA evaluation used (``data/published_choices.tsv``, from the README of ``Teddy-Li/BoOQA`` at 48e54f4, input
``booqa-authors``), and what a search trains and says under ``training.search``.

``full`` (the default) trains every trial of a search and keeps the one with the best dev AUC: this workflow's
selection. ``published`` trains, for a setting the table lists, the authors' trial alone (their trial k is the k-th set
of their hyper-parameter arrays, so it needs ``training.trial_source: authors``); the other settings keep their search.
The trial keeps its best dev point, as the authors' ModelCheckpoint (top 1 by the dev metric) did, and its record says
whether that point falls in the epoch of the published checkpoint. Epochs count from 0 in the table, as PyTorch
Lightning's ``checkpointepoch=4.ckpt`` (the fifth) and as this workflow's tables count them.

The table is read at parse time (the README is a fetched input, not there before the run plans); ``readme_rows`` reads
the README itself, for the test that the two agree.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import InputFormatError
from .epochs import shown_epoch

CHOICES_TABLE = "data/published_choices.tsv"
_COLUMNS = ("model", "variant", "subset", "search", "trial", "epoch", "readme")
SEARCH_MODES = ("full", "published")


@dataclass(frozen=True)
class PublishedChoice:
    """One published checkpoint: the setting it belongs to (the authors' model, which is also this workflow's alias for
    it; variant; subset), the authors' search (experiment name), trial and epoch (from 0), and the README row naming it."""

    model: str
    variant: str
    subset: str
    search: str
    trial: int
    epoch: int
    readme: str


def parse_choices(path: str | os.PathLike) -> tuple[PublishedChoice, ...]:
    """The rows of a published-choices table; an error names the file, line and field of a bad one."""
    from ..resources.inputs import read_tsv_with_header
    from . import VARIANTS

    choices = []
    for line, row in read_tsv_with_header(path, _COLUMNS):
        numbers = {}
        for field in ("trial", "epoch"):
            try:
                numbers[field] = int(row[field])
            except ValueError:
                raise InputFormatError(str(path), line, field, f"not an integer: {row[field]!r}") from None
            if numbers[field] < 0:
                raise InputFormatError(str(path), line, field, f"negative: {numbers[field]}")
        if row["variant"] not in VARIANTS:
            raise InputFormatError(str(path), line, "variant", f"{row['variant']!r} is not one of {', '.join(VARIANTS)}")
        choices.append(PublishedChoice(row["model"], row["variant"], row["subset"], row["search"], numbers["trial"], numbers["epoch"], row["readme"]))
    settings = [(c.model, c.variant, c.subset) for c in choices]
    if repeated := sorted({s for s in settings if settings.count(s) > 1}):
        raise InputFormatError(str(path), None, "model", f"more than one row for {'/'.join(repeated[0])}")
    return tuple(choices)


@lru_cache(maxsize=1)
def published_choices() -> tuple[PublishedChoice, ...]:
    """The packaged table of the authors' published choices."""
    with resources.as_file(resources.files(__package__) / CHOICES_TABLE) as path:
        return parse_choices(path)


def authors_model(alias: str, spec) -> str:
    """The model an alias of ``models`` stands for, as the table names the authors' models: a hub name without its
    pinned commit; a tiny model built for the tests stands in under its alias."""
    from ..resources.models import split_revision

    return split_revision(spec)[0] if isinstance(spec, str) else alias


def published_choice(alias: str, spec, variant: str, subset: str) -> PublishedChoice | None:
    """The published choice of the setting (alias, variant, subset), or None: the alias must be the authors' model's
    name and stand for it (``authors_model``), so that another model under the same alias is not taken for theirs."""
    model = authors_model(alias, spec)
    if model != alias:
        return None
    return next((c for c in published_choices() if (c.model, c.variant, c.subset) == (model, variant, subset)), None)


def planned_trials(search: str, alias: str, spec, variant: str, subset: str, trials: int) -> list[int]:
    """The trials a search trains: 0..``trials``-1, or under ``search: published`` the published trial alone where the
    setting has one."""
    choice = published_choice(alias, spec, variant, subset) if search == "published" else None
    return [choice.trial] if choice else list(range(trials))


def selection_origin(trial_source: str, search: str, alias: str, spec, variant: str, subset: str, epochs: int) -> dict | None:
    """What the selection of a search records of where its trials came from (``sns.search.select_best_trial``): None
    for this workflow's own seeded trials (its selection.csv keeps its columns); else the trial source, the maximum of
    epochs, and the published choice (search, trial, epoch) where the search trains it."""
    if trial_source == "seeded":
        return None
    choice = published_choice(alias, spec, variant, subset) if search == "published" else None
    return {
        "trial_source": trial_source,
        "epochs": epochs,
        "published": choice and {"search": choice.search, "trial": choice.trial, "epoch": choice.epoch},
    }


def describe_selection(row: Mapping, trials: Sequence[int]) -> str | None:
    """How the selected model of a search (its ``selection.csv`` row ``row``; ``trials``: every trial of the file) came
    to be, epochs counted from 1 as in the tables (``sns.epochs``): the authors' published choice, or this workflow's selection
    among the authors' trials; None for this workflow's own seeded trials, whose records keep their wording."""
    if "chosen_by" not in row:
        return None
    if row["chosen_by"] == "published":
        epoch = int(row["published_epoch"])
        found = int(row["best_epoch"]) == epoch
        return (
            f"the authors' published choice: their trial {int(row['trial'])} of {row['published_search']}, published "
            f"{shown_epoch(epoch, row['epochs'])} (their checkpoint's epoch={epoch}); best dev point here in "
            f"{shown_epoch(row['best_epoch'])}, " + ("the published epoch" if found else "not the published epoch")
        )
    return (
        f"this workflow's selection: trial {int(row['trial'])} of the authors' trials {min(trials)}-{max(trials)} ({len(trials)}), "
        "by its best dev AUC"
    )


# --- the README's own text, for the test that the table agrees with it --------------------------------------------------

_LANGUAGE = re.compile(r"^\*\s+(EN|ZH)\s*$")
_ROW = re.compile(r"^\s+(\d+)\.\s+(S&S (base|large) (full|dir|sym) LevyHolt):.*?/checkpoints_(\w+)/(\w+)/(\w+)_(\d+)/checkpointepoch=(\d+)\.ckpt")
# the README's words -> this workflow's settings; checkpoints_<x>: the model family (enr RoBERTa, xlm XLM-RoBERTa)
README_MODELS = {("enr", "base"): "roberta-base", ("enr", "large"): "roberta-large", ("xlm", "base"): "xlm-roberta-base"}
README_SUBSETS = {"full": "full", "dir": "directional", "sym": "symmetric"}


def readme_rows(path: str | os.PathLike) -> list[PublishedChoice]:
    """Every S&S row of the README's evaluation section (the rows inside ``[//]: #`` comments left out), as a
    ``PublishedChoice`` by ``README_MODELS`` and ``README_SUBSETS``; an error names the line of a row it cannot read."""
    language, rows = None, []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if found := _LANGUAGE.match(line):
            language = found.group(1)
        elif found := _ROW.match(line):
            index, label, size, kind, family, search, run, trial, epoch = found.groups()
            if run != search or (family, size) not in README_MODELS or language is None:
                raise InputFormatError(str(path), number, None, f"an S&S row this reading does not know: {label} in {family}/{search}/{run}")
            subset = README_SUBSETS[kind] if language == "EN" else f"zh_{README_SUBSETS[kind]}"
            rows.append(PublishedChoice(README_MODELS[family, size], "sns", subset, search, int(trial), int(epoch), f"{language} {index}. {label}"))
    return rows
