"""Model cards: for every selected model, a README.md (Hugging Face model-card form) that says what it is, what it was
trained from and on, how (hyper-parameters, number format, where training stopped and why), what it scores on dev and
on its test sets (tie-aware AUCnorm with intervals, beside the test set's chance range), its sanity check, and what it
is and is not for."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..sns.epochs import shown_epoch
from ..sns.training import DROPOUT_MASKS_BEFORE_THE_KEY
from .common import Evaluation, measure, read_scores, with_interval

VARIANTS = {
    "sns": (
        "S&S",
        "prompt fine-tuning (Schmitt & Schütze, 2021): the premise and hypothesis are set in the paper's "
        "prompts and the model scores whether the prompt holds",
    ),
    "sns_sym": (
        "'S&S",
        "prompt fine-tuning with symmetric prompts: every prompt is also scored with premise and "
        "hypothesis swapped, so the model cannot tell the two directions apart by construction",
    ),
    "hyponly": (
        "H-only S&S",
        "hypothesis-only prompt fine-tuning: the premise is masked, so the model learns what the "
        "hypothesis alone gives away (an artefact probe, not an entailment model)",
    ),
}


# training.dropout_masks as a trial's record resolved it
DROPOUT_MASKS = {
    "reference": "those of the batch's passes of 32 sentences, whatever its split (training.dropout_masks)",
    "pass": "drawn a pass, by its shape: the split is a draw of the masks (training.dropout_masks; a GPU's batch is one pass)",
}


def source_line(source: dict) -> str:
    """Where the base model's files came from, from its SOURCE.json."""
    where = source.get("source", "unknown source")
    pin = source.get("commit") or source.get("package_version") or source.get("revision")
    return f"`{source.get('name', '?')}` ({where}{', ' + ('version ' if 'package_version' in source else 'commit ') + pin if pin else ''})"


def metric_cells(metrics: dict) -> str:
    """Tie-aware AUCnorm [interval] | authors' AUCnorm | chance range | signal, as Markdown cells."""
    if metrics["no_number"]:
        return f"| {metrics['no_number']} | | | |"
    cells = ["{} [{}, {}]".format(*with_interval(metrics, name)) for name in ("auc_norm_tie_aware", "auc_norm", "chance_auc_norm")]
    return "| " + " | ".join(cells + [metrics["signal"]]) + " |"


def _training_rows(variant: str, trained_on: str, training: dict, selection: pd.Series, trials: int, origin: str | None) -> list[tuple[str, str]]:
    """The card's training table: what it was trained on, how, where it stopped and how it was chosen."""
    settings, hp = training.get("settings", {}), training.get("hp", {})
    best, stopped = training.get("best", {}), training.get("stopped", {})
    undertrained = "**yes: possibly undertrained**" if training.get("still_improving") else "no"
    return [
        (
            "training data",
            f"{trained_on}{', the premise replaced by true' if variant == 'hyponly' else ''}: "
            f"{training.get('train_pairs')} training pairs, selected on {training.get('dev_pairs')} dev pairs",
        ),
        (
            "learning rate / weight decay / gradient accumulation",
            f"{hp.get('learning_rate')} / {hp.get('weight_decay')} / {hp.get('grad_accumulation')}",
        ),
        ("batch size / max length / seed", f"{settings.get('batch_size')} / {settings.get('max_length')} tokens / {settings.get('seed')}"),
        ("epochs (maximum) / dev evaluations per epoch", f"{settings.get('epochs')} / {settings.get('evaluations_per_epoch')}"),
        ("early stopping", f"patience {settings.get('patience')} evaluations, min_delta {settings.get('min_delta')}"),
        ("number format", f"{training.get('precision')} ({training.get('precision_reason', '')})"),
        ("CPU threads", f"{settings.get('threads', 1)} (results on a CPU are those of this thread count: training.threads)"),
        ("dropout masks", DROPOUT_MASKS[settings.get("dropout_masks", DROPOUT_MASKS_BEFORE_THE_KEY)]),
        ("best dev point", f"{shown_epoch(best.get('epoch'), settings.get('epochs'))}, batch {best.get('batch')} (step {best.get('step')})"),
        ("stopped", f"{shown_epoch(stopped.get('epoch'), settings.get('epochs'))}, batch {stopped.get('batch')}: {training.get('stop_reason')}"),
        ("still improving at its last evaluation", undertrained),
        (
            "hyper-parameter search",
            f"{origin}, after {int(selection['evaluations'])} dev evaluations"
            if origin
            else f"{trials} trial(s); trial {int(selection['trial'])} selected by its best dev AUC, "
            f"after {int(selection['evaluations'])} dev evaluations",
        ),
    ]


def _provenance(selection: pd.Series, scale: str, trials: int) -> str:
    """Where the card's model comes from: the authors' published trial, or this run's search."""
    if selection.get("chosen_by") == "published":
        return (
            f"It is the authors' published trial, trained again at the `{scale}` scale (the paper searched 100 trials "
            "with RoBERTa and BERT and published the trial it kept)"
        )
    return (
        f"It comes from a hyper-parameter search of {trials}\ntrial(s) at the `{scale}` scale (the paper searched 100 trials with RoBERTa and BERT)"
    )


def _numbers(dev: dict, tests: dict[str, dict]) -> tuple[str, list[str], str]:
    """The card's numbers table (its header and rows: dev, then each test set) and, for a model with no test set of
    its own, where its numbers are."""
    header = "| set | entries | AUCnorm, tie-aware [95% interval] | AUCnorm, authors' semantics | chance AUCnorm [95% range] | signal |\n|---|---|---|---|---|---|"
    numbers = [f"| dev (selection) | {dev['n']} {metric_cells(dev)}"]
    numbers += [f"| test: {name} | {m['n']} {metric_cells(m)}" for name, m in tests.items()]
    tested = (
        ""
        if tests
        else "\nThis model is not scored on a test set of its own; its numbers are in the BoOQA tables "
        "(Table 5 for S&S models, Table 3 for H-only models).\n"
    )
    return header, numbers, tested


def model_card(
    *,
    alias: str,
    variant: str,
    trained_on: str,
    dataset: str,
    scale: str,
    source: dict,
    training: dict,
    selection: pd.Series,
    trials: int,
    dev: dict,
    tests: dict[str, dict],
    sanity: str | None,
    model_dir: str,
    origin: str | None = None,
) -> str:
    """The card's Markdown. ``trained_on``: the training set, in words (Markdown); ``dataset``: its Hugging Face tag;
    ``training``: best/training.json; ``selection``: the selected row of selection.csv, one of ``trials``; ``dev`` and
    ``tests`` (test set -> metrics): ``tables.common.measure`` results; ``sanity``: ``sns.sanity.describe`` (None for
    H-only models, which never see a premise); ``origin``: ``sns.published.describe_selection`` (the authors' trials:
    their published choice or this workflow's selection; None for this workflow's own seeded trials)."""
    label, what = VARIANTS[variant]
    lang = training.get("settings", {}).get("lang", "en")
    table = "\n".join(f"| {name} | {value} |" for name, value in _training_rows(variant, trained_on, training, selection, trials, origin))
    header, numbers, tested = _numbers(dev, tests)
    return f"""---
base_model: {source.get("name", "")}
library_name: transformers
language:
- {lang}
datasets:
- {dataset}
tags:
- entailment
- directional-inference
- prompt-fine-tuning
---

# {label} on {trained_on} ({alias}, {scale} scale)

A {label} model of the reproduction of Li et al., "Language Models Are Poor Learners of Directional Inference"
(Findings of EMNLP 2022): {what}. The weights are in `{model_dir}/best/`; load them with
`directional_inference.sns.model.PromptScorer("{model_dir}/best", lang="{lang}")`.

## Base model

{source_line(source)}, fine-tuned whole (no frozen layers).

## Training

| | |
|---|---|
{table}

## Numbers

AUCnorm: area under the precision-recall curve above the positive rate, normalised (the paper's measure). The
tie-aware value averages over every order of tied scores; the authors' semantics join distinct scores by straight
lines. A row is above chance when its tie-aware interval clears the chance range (random rankings of the same
entries). Intervals: 95% percentile bootstrap over converse pairs.

{header}
{chr(10).join(numbers)}
{tested}
Sanity check (pairs any entailment model must get right: the premise is the hypothesis, paraphrases,
non-entailments): {sanity if sanity is not None else "not applicable (a hypothesis-only model never sees the premise)"}.

## Use

For: reproducing and probing the paper's LevyHolt and BoOQA experiments; scoring typed predicate pairs phrased
as the paper's prompts, in {"English" if lang == "en" else "Chinese"}.

Not for: general natural-language inference or textual entailment outside predicate pairs; any language but its
own; decisions about people; claims beyond the numbers above. {_provenance(selection, scale, trials)}, so it shows what this base
model learns from this data at this budget, not the best the method can do.
"""


def write_model_card(
    path: str | Path,
    *,
    alias: str,
    variant: str,
    trained_on: str,
    dataset: str,
    scale: str,
    model_dir: str | Path,
    base_dir: str | Path,
    score_files: dict[str, str | Path],
    evaluation: Evaluation,
) -> None:
    """Read a selected model's record and scores and write its card atomically. ``base_dir``: the base model's copy in
    resources/models/, whose SOURCE.json says where it came from (a tiny model built offline for the tests has none)."""
    from ..resources.models import SOURCE_FILE
    from ..atomic import write_text_atomic
    from ..sns.published import describe_selection
    from ..sns.sanity import describe, read_summary

    model_dir = Path(model_dir)
    selection = pd.read_csv(model_dir / "selection.csv")
    row = selection[selection["selected"] == 1].iloc[0]
    training = json.loads((model_dir / "best" / "training.json").read_text(encoding="utf-8"))
    source_file = Path(base_dir) / SOURCE_FILE
    source = (
        json.loads(source_file.read_text(encoding="utf-8"))
        if source_file.is_file()
        else {"name": alias, "source": "randomly initialised, built offline for the tests"}
    )
    dev = measure(read_scores(model_dir / f"trial-{int(row['trial'])}" / "dev_scores.parquet"), evaluation)
    tests = {name: measure(read_scores(path), evaluation) for name, path in score_files.items()}
    sanity_file = model_dir / "sanity.csv"
    sanity = describe(read_summary(sanity_file)) if sanity_file.is_file() else None
    write_text_atomic(
        path,
        model_card(
            alias=alias,
            variant=variant,
            trained_on=trained_on,
            dataset=dataset,
            scale=scale,
            source=source,
            training=training,
            selection=row,
            trials=len(selection),
            dev=dev,
            tests=tests,
            sanity=sanity,
            model_dir=str(model_dir),
            origin=describe_selection(row, list(selection["trial"])),
        ),
    )
