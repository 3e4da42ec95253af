"""The merged config as a tree: values at dotted keys, and the model aliases a run uses (below both the parse-time checks,
``config_checks``, and the model pins, ``resources.pins``, which read them)."""

from __future__ import annotations

from collections.abc import Mapping

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
        value = dotted_value(config, key)
        for alias in value if isinstance(value, list) else [value] if value else []:
            if alias not in aliases:
                aliases.append(alias)
    return aliases
