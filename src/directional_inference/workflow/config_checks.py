"""Checks of the merged config that the JSON schema cannot express, and short messages for schema errors.

The Snakefile (rules/common.smk) stops with one line per problem, before any job is planned: an unknown or
mistyped key names the key and the keys allowed there (not the whole schema); a model alias must be defined
under ``models``; ranges must not be reversed; bucket boundaries must increase; lists that drive the workflow
must not be empty; models that a table compares must get the same training budget. Inputs that no URL serves (the
Chinese LevyHolt, CLUE news2016zh) must be given where the config needs them (``user_input_problems``), so that a
run without them stops at parse time rather than when a job reaches them hours later.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from ..config_tree import MODEL_ALIAS_KEYS, aliases_at, dotted_value

# [low, high] pairs; equal ends are allowed (a fixed value).
RANGE_KEYS = ("training.learning_rate_range", "training.weight_decay_range", "training.grad_accumulation_range", "corpus.en.years", "corpus.zh.years")
NON_EMPTY_KEYS = ("booqa.languages", "training.language_models")
INCREASING_KEYS = ("booqa.frequency_buckets",)


def config_problems(config: Mapping) -> list[str]:
    """Every relation between config values that is wrong, one message each (empty: the config is fine)."""
    problems = []
    models = sorted(config.get("models") or {})
    for key in MODEL_ALIAS_KEYS:
        unknown = [alias for alias in aliases_at(config, key) if alias not in models]
        if unknown:
            problems.append(
                f"config key {key} names model alias{'es' if len(unknown) > 1 else ''} "
                f"{', '.join(repr(a) for a in unknown)}, not defined under 'models' (known aliases: {', '.join(models) or 'none'})"
            )
    for key in RANGE_KEYS:
        value = dotted_value(config, key)
        if isinstance(value, list) and len(value) == 2 and value[0] > value[1]:
            problems.append(f"config key {key} is reversed: {value} (write [low, high], e.g. {[value[1], value[0]]})")
    for key in NON_EMPTY_KEYS:
        if dotted_value(config, key) == []:
            problems.append(f"config key {key} is empty: give at least one value")
    for key in INCREASING_KEYS:
        value = dotted_value(config, key)
        if isinstance(value, list):
            bad = [(a, b) for a, b in zip(value, value[1:]) if b <= a]
            if bad:
                problems.append(
                    f"config key {key} must be strictly increasing: {bad[0][1]} follows {bad[0][0]} (sorted without repeats: {sorted(set(value))})"
                )
    for index, budget in enumerate(dotted_value(config, "training.budgets") or []):
        for size in ("max_train", "max_dev"):
            cap = dotted_value(config, f"levyholt.{size}")
            if budget.get(size) is not None and cap is not None and budget[size] > cap:
                problems.append(
                    f"config key training.budgets[{index}].{size} is {budget[size]}, above levyholt.{size} ({cap}), "
                    f"which caps the subset files it samples from: raise levyholt.{size} or set it to null"
                )
    english = dotted_value(config, "training.language_models") or []
    if stray := [a for a in aliases_at(config, "training.booqa_language_models") if a not in english]:
        problems.append(
            f"config key training.booqa_language_models names {', '.join(repr(a) for a in stray)}, not in "
            f"training.language_models ({', '.join(english)}): only a model fine-tuned there has S&S models to "
            "answer BoOQA; add it to training.language_models"
        )
    if dotted_value(config, "llm.released_predictions") and "llm-nli-analysis" not in (dotted_value(config, "resources.datasets") or []):
        problems.append(
            "config key llm.released_predictions is true, but resources.datasets does not list llm-nli-analysis, the input "
            "that holds them: add it, or set llm.released_predictions to false"
        )
    problems += authors_trial_problems(config)
    from ..llm.predictions import configured_file, configured_key

    for index, item in enumerate(dotted_value(config, "llm.predictions") or []):
        if isinstance(item, Mapping) and configured_file(item) and not Path(configured_file(item)).is_file():
            problems.append(f"config key {configured_key(index, item)} is {configured_file(item)}, which is not a file")
    training = dotted_value(config, "training")
    if (
        isinstance(training, Mapping)
        and {"trials", "epochs", "evaluations_per_epoch"} <= set(training)
        and isinstance(dotted_value(config, "levyholt"), Mapping)
    ):
        from ..levyholt.experiments import unequal_budgets

        problems += [f"config key training.budgets: {problem}" for problem in unequal_budgets(config["training"], config["levyholt"])]
    return problems


def authors_trial_problems(config: Mapping) -> list[str]:
    """training.trial_source: authors needs the authors' scripts and at most as many trials as they hold sets;
    training.search: published needs the authors' trials (their trial k is their k-th set)."""
    from ..sns.authors import DATASET, SETS

    source, problems = dotted_value(config, "training.trial_source"), []
    if dotted_value(config, "training.search") == "published" and source != "authors":
        problems.append(
            f"config key training.search is published, but training.trial_source is {source}: the published trials are the "
            "authors' (their trial k is the k-th set of their scripts); set training.trial_source: authors"
        )
    if source != "authors":
        return problems
    if DATASET not in (dotted_value(config, "resources.datasets") or []):
        problems.append(
            f"config key training.trial_source is authors, but resources.datasets does not list {DATASET}, the input that "
            "holds the authors' training scripts: add it, or set training.trial_source: seeded"
        )
    counts = [("training.trials", dotted_value(config, "training.trials"))]
    counts += [(f"training.budgets[{i}].trials", b.get("trials")) for i, b in enumerate(dotted_value(config, "training.budgets") or [])]
    problems += [
        f"config key {key} is {count}, but the authors' scripts hold {SETS} hyper-parameter sets (training.trial_source: "
        f"authors): ask for at most {SETS}"
        for key, count in counts
        if isinstance(count, int) and count > SETS
    ]
    return problems


def user_input_problems(config: Mapping) -> list[str]:
    """Every user-supplied input the config needs but lacks: the key to set, the files it must hold, and the overlay
    that drops what needs it (one message each; empty when every needed input is there)."""
    from ..resources.fetch import CHINESE_LEVYHOLT_FILES, CLUE_FILES

    problems = []
    chinese_models = dotted_value(config, "training.language_models_zh") or []
    languages = dotted_value(config, "booqa.languages") or []
    needs = []
    if chinese_models:
        needs.append(
            (
                "resources.levyholt_zh",
                CHINESE_LEVYHOLT_FILES,
                f"training.language_models_zh ({', '.join(chinese_models)}) fine-tunes S&S models on the Chinese LevyHolt, "
                "which is not published (docs/inputs.md, 'Inputs and the mirror')",
                "training: {language_models_zh: []}",
            )
        )
    if "zh" in languages and dotted_value(config, "corpus.zh.source") == "clue" and not dotted_value(config, "relations.imported.zh"):
        needs.append(
            (
                "resources.clue_news2016zh",
                CLUE_FILES,
                "the Chinese BoOQA (booqa.languages) is built from CLUE news2016zh (corpus.zh.source: clue), which has "
                "no direct download URL (https://github.com/brightmart/nlp_chinese_corpus, 'news2016zh')",
                "booqa: {languages: [en]}",
            )
        )
    from ..graphs.published import graph_file_paths

    for name, spec in sorted((dotted_value(config, "graphs.from_files") or {}).items()):
        directory = Path(spec.get("directory", "")) if isinstance(spec, Mapping) else None
        if directory is not None and not (directory.is_dir() and graph_file_paths(directory)):
            problems.append(
                f"config key graphs.from_files.{name}.directory is {str(directory)!r}, which "
                f"{'holds no <types>_sim.txt or <types>_gsim.txt file' if directory.is_dir() else 'is not a directory'}: "
                "give the directory of the graph's files (one per type pair, as Hosseini et al. release them)"
            )
    for name, spec in sorted((dotted_value(config, "evaluation.booqa_predictions") or {}).items()):
        file = Path(spec.get("file", "")) if isinstance(spec, Mapping) else None
        if file is not None and not file.is_file():
            problems.append(
                f"config key evaluation.booqa_predictions.{name}.file is {str(file)!r}, which is not a file: give the "
                "tab-separated file of per-entry scores (columns id, score; docs/inputs.md)"
            )
    problems += user_file_problems(config)
    for key, files, why, drop in needs:
        where = dotted_value(config, key)
        if not where:
            problems.append(
                f"config key {key} is not set, but {why}: set {key} to the directory holding "
                f"{', '.join(files)}, or drop what needs it with a file laid over the config "
                f"(--configfile), e.g. {drop!r}"
            )
        elif missing := [name for name in files if not (Path(where) / name).is_file()]:
            problems.append(
                f"config key {key} is {where}, which lacks {', '.join(missing)}: {why}; give the directory "
                f"holding {', '.join(files)}, or drop what needs it, e.g. {drop!r}"
            )
    return problems


def user_file_problems(config: Mapping) -> list[str]:
    """What the readers of the jobs find wrong in the small files a user hands in, read before any job runs (bin/doctor
    and every run's parse): LevyHolt predictions (``llm.predictions``: header, triples, finite scores, a pair given
    twice) and per-entry BoOQA scores (``evaluation.booqa_predictions``: header, finite scores, an id given twice). Each
    message is the reader's own (file, row, field) after the config key. What needs the run's outputs is checked by the
    jobs: the ids against BoOQA's entries, the pairs against the LevyHolt test sets."""
    from ..errors import InputFormatError
    from ..evaluation.entry_scores import read_entry_scores
    from ..llm.predictions import configured_file, configured_key, read_predictions

    checks = [
        (
            configured_key(index, item),
            configured_file(item),
            lambda path, item=item: read_predictions(path, model=item.get("model", ""), setting=item.get("setting", "")),
        )
        for index, item in enumerate(dotted_value(config, "llm.predictions") or [])
        if isinstance(item, Mapping) and configured_file(item)
    ]
    checks += [
        (f"evaluation.booqa_predictions.{name}.file", spec["file"], lambda path: read_entry_scores(path, None))
        for name, spec in sorted((dotted_value(config, "evaluation.booqa_predictions") or {}).items())
        if isinstance(spec, Mapping) and spec.get("file")
    ]
    problems = []
    for key, path, read in checks:
        if Path(path).is_file():
            try:
                read(path)
            except InputFormatError as error:
                problems.append(f"config key {key}: {error}")
    return problems


def pin_problems(config: Mapping) -> list[str]:
    """At paper scale, every hub model the run uses (``models``, and ``llm.models`` of the scoring LLMs) must be pinned
    to a commit (``name@<commit>``), so that runs a month apart train and score with the same weights; one message per model, with the command that prints the pins."""
    if config.get("scale") != "paper":
        return []
    from ..resources.pins import unpinned_llms, unpinned_models

    unpinned = {f"models.{alias}": name for alias, name in unpinned_models(config).items()}
    unpinned |= {f"llm.models.{alias}": name for alias, name in unpinned_llms(config).items()}
    return [
        f"config key {key} is the hub model {name!r} without a commit, so the run would take whatever the "
        f"hub's main is on the day: pin it as {name}@<40-hex commit> (on a machine that reaches the hub, "
        f"'.venv/bin/python -m directional_inference.resources.pins --configfile <your configs>' prints the pins to lay over "
        f"the config), or give a local directory"
        for key, name in unpinned.items()
    ]


def _where(path: Iterable) -> str:
    return ".".join(str(part) for part in path)


def schema_error_message(error) -> str:
    """One line for a ``jsonschema.ValidationError``: the key and what is wrong, never the schema itself."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        deepest = max(error.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(error.absolute_path):
            return schema_error_message(deepest)  # e.g. a mistyped key inside a tiny-model spec
    where = _where(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        keys = ", ".join(f"{where + '.' if where else ''}{key}" for key in extra)
        section = f"under '{where}'" if where else "at the top level"
        return f"unknown config key {keys}; allowed {section}: {', '.join(allowed)}"
    if error.validator == "propertyNames":
        return f"config key {where}: name {error.instance!r} is not allowed ({error.message})"
    value = repr(error.instance)
    if len(value) > 80:
        value = value[:77] + "..."
    if error.validator in ("oneOf", "anyOf"):
        return f"config key {where}: {value} has none of the allowed forms"
    message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
    return f"config key {where or '(top level)'}: {message}"


def schema_problems(config: Mapping, schema: Mapping) -> list[str]:
    """Every schema violation of ``config`` as a one-line message, in key order."""
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema).iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path])
    return [schema_error_message(error) for error in errors]
