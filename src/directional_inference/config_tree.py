"""The merged config as a tree: the config a run reads (``run_config``: its config files merged as Snakemake merges
them, the schema's defaults filled in), values at dotted keys, and the model aliases a run uses. It sits below all
that read it: the parse-time checks (``workflow.config_checks``), the model pins (``resources.pins``), the mirror
builder (``resources.mirror``) and the user's tools (``bin/plan``, ``bin/doctor``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

# Every config key whose value is a model alias (or a list of them) from config['models'].
MODEL_ALIAS_KEYS = (
    "training.language_models",
    "training.language_models_zh",
    "training.booqa_language_models",
    "evaluation.lm_encoder",
    "evaluation.lm_encoder_zh",
    "booqa.wsd_encoder",
)


def dotted_value(config: Mapping, dotted: str, missing=None):
    """The value at a dotted key (``training.epochs``) of a config tree, or ``missing`` where a part is absent."""
    value = config
    for part in dotted.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return missing
        value = value[part]
    return value


def used_aliases(config: Mapping) -> list[str]:
    """The model aliases the config's runs use, in key order, each once."""
    aliases: list[str] = []
    for key in MODEL_ALIAS_KEYS:
        for alias in aliases_at(config, key):
            if alias not in aliases:
                aliases.append(alias)
    return aliases


def aliases_at(config: Mapping, key: str) -> list[str]:
    """The model aliases one key of MODEL_ALIAS_KEYS names (``training.booqa_language_models: all`` names none of its
    own: it takes training.language_models')."""
    value = dotted_value(config, key)
    if key == "training.booqa_language_models" and value == "all":
        return []
    return list(value) if isinstance(value, list) else [value] if value is not None else []


def booqa_language_models(config: Mapping) -> list[str]:
    """The English language models whose S&S models answer BoOQA: the first of training.language_models, then those of
    training.booqa_language_models (``all``: every one of training.language_models), each once."""
    english = list(dotted_value(config, "training.language_models") or [])
    all_of_them = dotted_value(config, "training.booqa_language_models") == "all"
    listed = english if all_of_them else aliases_at(config, "training.booqa_language_models")
    return list(dict.fromkeys(english[:1] + listed)) if english else []


def run_config(args: list[str], root: Path) -> dict:
    """The config a run with Snakemake arguments ``args`` reads: config/config.yaml with every ``--configfile`` laid
    over it and the schema's defaults filled in, as Snakemake does (``--config`` overrides are not read)."""
    import yaml
    from snakemake.utils import update_config, validate

    files, taking = [root / "config" / "config.yaml"], False
    for arg in args:
        if arg.startswith("--configfile"):
            taking = True
            files += [Path(v) for v in arg.split("=", 1)[1:]]
        elif arg.startswith("-"):
            taking = False
        elif taking:
            files.append(Path(arg))
    config: dict = {}
    for path in files:
        update_config(config, yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    validate(config, str(root / "config" / "schema.yaml"), set_default=True)
    return config
