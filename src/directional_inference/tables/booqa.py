"""BoOQA tables: 5 (test), 15 (dev) and 16 (test, LM variants), and 3 (hypothesis-only robustness), AUCnorm and AUC50
per language with 95% bootstrap intervals (whole bundles resampled), beside the paper's; a note instead of a number
where a method cannot run."""

from __future__ import annotations

from collections.abc import Sequence

from ..evaluation.methods import PAPER_TABLE3, TABLE3_NAMES, BooqaTable, method_alias, method_label, method_spec
from .common import SIGNAL_COLUMNS, WITHIN_GROUP_COLUMNS, Evaluation, measure, read_scores, signal_cells, with_interval, within_group_cells

LANGUAGES = ("en", "zh")
TOO_FEW_TEST = "the BoOQA test split has too few entries at this scale"


def model_names(models: dict[str, str]) -> str:
    """One model per language, as a table cell: "minilm", or "en: bert-base; zh: bert-base-chinese"."""
    names = {lang: alias for lang, alias in models.items() if alias}
    if len(set(names.values())) <= 1:
        return next(iter(names.values()), "")
    return "; ".join(f"{lang}: {alias}" for lang, alias in sorted(names.items()))


def _booqa_table_header() -> list[str]:
    """A BoOQA table's columns: the method, then per language its numbers with intervals, the paper's and what the
    numbers rest on, then the model and notes."""
    header = ["method", "label"]
    for lang in LANGUAGES:
        header += [
            f"{lang}_{name}"
            for name in (
                "auc_norm",
                "auc_norm_low",
                "auc_norm_high",
                "auc50",
                "auc50_low",
                "auc50_high",
                "auc_norm_paper",
                "positive_rate",
                "entries",
                *SIGNAL_COLUMNS,
                *WITHIN_GROUP_COLUMNS,
            )
        ]
    return header + ["model", "scale", "note", "precision", "training", "sanity"]


def _model_cell(method: str, used: dict[str, str], model_kinds: dict[str, str]) -> str:
    """What a row's scores come from: the graphs' source, a score file, or the models ``used`` per language (an LM
    row's with what its encoder is)."""
    family = method_spec(method)[0]
    if family == "graph":
        return "graph files" if method_alias(method) else "corpus relations"
    if family == "file":
        return "score file"
    kinds = sorted({model_kinds[alias] for alias in used.values() if alias in model_kinds}) if family == "lm" else []
    return model_names(used) + "".join(f" ({kind})" for kind in kinds)


def booqa_table_rows(
    table: BooqaTable,
    languages: list[str],
    runnable: dict[str, list[str]],
    score_path,
    *,
    models: dict,
    scale: str,
    evaluation: Evaluation,
    why_not,
    model_kinds: dict[str, str] | None = None,
    record=None,
    methods: Sequence[str] | None = None,
) -> tuple[list[str], list[list]]:
    """Rows of a BoOQA table: AUCnorm and AUC50 with intervals per language beside the paper's, with a note for every
    method that could not run (``why_not(method, lang)`` says why) instead of a number, then the paper's rows that
    need what is not available here. The LM rows say what their encoder is (``model_kinds``: alias -> what it is); the
    S&S rows give their model's number format, training and sanity check (``record(method, lang)``: a ``ModelRecord``).
    ``methods``: the rows (default: the table's own; Table 5 adds the S&S methods of further language models,
    ``evaluation.methods.table_methods``)."""
    model_kinds = model_kinds or {}
    header = _booqa_table_header()
    rows = []
    for method in methods or table.methods:
        row, notes = [method, method_label(method)], []
        for k, lang in enumerate(LANGUAGES):
            reference = table.paper.get(method, (None, None))[k]
            numbers, rest = [""] * 6, ["" if reference is None else reference, "", ""]
            signal = [""] * (len(SIGNAL_COLUMNS) + len(WITHIN_GROUP_COLUMNS))
            if lang not in languages:
                notes.append(f"{lang}: language not built")
            elif method not in runnable[lang]:
                notes.append(f"{lang}: not run ({why_not(method, lang)})")
            else:
                frame = read_scores(score_path(lang, table.split, method))
                if frame.empty or not frame["label"].any() or frame["label"].all():
                    notes.append(f"{lang}: the {table.split} split has too few entries at this scale")
                else:
                    m = measure(frame, evaluation, within_groups=True)
                    numbers = with_interval(m, "auc_norm") + with_interval(m, "auc50")
                    rest = [rest[0], f"{m['positive_rate']:.4f}", m["n"]]
                    signal = signal_cells(m) + within_group_cells(m)
                    if m["no_number"]:
                        notes.append(f"{lang}: {m['no_number']}")
            row += numbers + rest + signal
        family = method_spec(method)[0]
        used = {lang: method_alias(method) or models.get(family, {}).get(lang) for lang in languages if method in runnable[lang]}
        model = _model_cell(method, used, model_kinds)
        records = {lang: record(method, lang) for lang in used} if family == "sns" and record is not None else {}
        row += [model, scale, "; ".join(notes), *_record_cells(records)]
        rows.append(row)
    for key, label, en, zh, why in table.paper_only:
        cells = [
            c
            for paper in (en, zh)
            for c in ([""] * 6 + ["" if paper is None else paper, "", ""] + [""] * (len(SIGNAL_COLUMNS) + len(WITHIN_GROUP_COLUMNS)))
        ]
        rows.append([key, label, *cells, "", scale, why, "", "", ""])
    return header, rows


def _record_cells(records: dict) -> list[str]:
    """[precision, training, sanity] of the models behind one row, per language where there are two."""
    if not records:
        return ["", "", ""]
    cells = []
    for field in ("precision", "training", "sanity"):
        values = {lang: getattr(r, field) for lang, r in records.items()}
        cells.append(
            next(iter(values.values())) if len(set(values.values())) == 1 else "; ".join(f"{lang}: {value}" for lang, value in sorted(values.items()))
        )
    return cells


def table3_rows(
    languages: list[str], score_path, *, models: dict[str, list[str]], scale: str, evaluation: Evaluation
) -> tuple[list[str], list[list]]:
    """Hypothesis-only robustness: one row per (language, language model, training data), beside the paper's Table 3
    (lower is better). ``models``: language -> its language models (the main one first); ``score_path(lang, lm,
    trained_on)``: a model's scores on BoOQA test."""
    header = [
        "trained_on",
        "tested_on",
        "auc_norm",
        "auc_norm_low",
        "auc_norm_high",
        "auc_norm_paper",
        "positive_rate",
        "n_test",
        "model",
        "scale",
        "note",
        *SIGNAL_COLUMNS,
        *WITHIN_GROUP_COLUMNS,
    ]

    def measured(lang: str, lm: str, trained_on: str) -> list:
        """One row of the table."""
        paper = PAPER_TABLE3[(trained_on, lang)]
        numbers, rest, note = [""] * 3, [paper, "", ""], ""
        signal = [""] * (len(SIGNAL_COLUMNS) + len(WITHIN_GROUP_COLUMNS))
        if lang not in languages:
            note = "not run: no S&S model fine-tuned for this language (training.language_models_zh and the Chinese LevyHolt, resources.levyholt_zh)"
        else:
            frame = read_scores(score_path(lang, lm, trained_on))
            if frame.empty or not frame["label"].any() or frame["label"].all():
                note = TOO_FEW_TEST
            else:
                m = measure(frame, evaluation, within_groups=True)
                numbers, rest = with_interval(m, "auc_norm"), [paper, f"{m['positive_rate']:.4f}", m["n"]]
                signal, note = signal_cells(m) + within_group_cells(m), m["no_number"]
        return [TABLE3_NAMES[trained_on], f"BoOQA {lang.upper()} (test)", *numbers, *rest, lm, scale, note, *signal]

    rows = [
        measured(lang, lm, trained_on)
        for lang in LANGUAGES
        for lm in models.get(lang) or [""]
        for trained_on in ("booqa", "full", "directional", "symmetric")
    ]
    rows.append(
        [
            "McKenna et al. 2021",
            "McKenna et al. 2021",
            "",
            "",
            "",
            78.3,
            "",
            "",
            "",
            scale,
            "not run: that QA set is not public",
            *[""] * (len(SIGNAL_COLUMNS) + len(WITHIN_GROUP_COLUMNS)),
        ]
    )
    return header, rows
