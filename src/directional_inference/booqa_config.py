"""BoOQA thresholds per language: the shared ``booqa`` settings with ``booqa.overrides.<lang>`` laid over them.

The paper uses one set of thresholds for both languages; a small corpus of one language (the default scale's
CCTV stories) may need others, so any threshold below can be set per language. ``overrides`` itself and
``languages`` are not part of a language's settings.
"""

from __future__ import annotations

OVERRIDABLE = ("starring_min_articles", "starring_min_predicates", "felicity_min_pairs", "felicity_count",
               "max_negatives_per_positive", "frequency_buckets", "positive_budget", "dev_share", "graph_window_share")


def booqa_settings(booqa: dict, lang: str) -> dict:
    """The BoOQA settings of one language (shared values, then that language's overrides; null = not set)."""
    overrides = (booqa.get("overrides") or {}).get(lang) or {}
    unknown = sorted(set(overrides) - set(OVERRIDABLE))
    if unknown:
        raise ValueError(f"booqa.overrides.{lang}: {', '.join(unknown)} cannot be set per language; "
                         f"per-language keys: {', '.join(OVERRIDABLE)}")
    settings = {key: value for key, value in booqa.items() if key not in ("overrides", "languages")}
    settings.update({key: value for key, value in overrides.items() if value is not None})
    return settings
