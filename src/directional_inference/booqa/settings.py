"""BoOQA thresholds per language: the shared ``booqa`` settings with ``booqa.overrides.<lang>`` laid over them.

The paper uses one set of thresholds for both languages; a small corpus of one language (the default scale's
CCTV stories) may need others, so the thresholds can be set per language. Which keys can is said once, in
``config/schema.yaml`` (``booqa.overrides``), which refuses any other before a job is planned. ``overrides`` itself
and ``languages`` are not part of a language's settings.
"""

from __future__ import annotations


def booqa_settings(booqa: dict, lang: str) -> dict:
    """The BoOQA settings of one language (shared values, then that language's overrides; null = not set)."""
    overrides = (booqa.get("overrides") or {}).get(lang) or {}
    settings = {key: value for key, value in booqa.items() if key not in ("overrides", "languages")}
    settings.update({key: value for key, value in overrides.items() if value is not None})
    return settings
