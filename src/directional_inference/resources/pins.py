"""Hub models pinned to a commit, so that two runs of the paper's config a month apart train the same weights.

A model value ``name@<40-hex commit>`` is pinned; a bare hub name takes whatever the hub's ``main`` is on the day it is
downloaded. At paper scale the parse-time checks (``config_checks.pin_problems``) refuse a model the run uses that is
neither pinned nor a local directory. On a machine that reaches the hub, this prints the pins to add:

    .venv/bin/python -m directional_inference.resources.pins [--configfile config/paper.yaml ...]

(the configs are laid over config/config.yaml as Snakemake does); it prints a ``models:`` block (and an ``llm: models:``
block for the scoring LLMs) to lay over them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path

from ..config_tree import used_aliases


def unpinned_name(spec) -> str | None:
    """The hub name of a model value that is a hub name without a commit; None for a pinned one, a local directory or
    anything that is not a hub name (a tiny model, a package's file)."""
    from .models import COMMIT, split_revision

    if not isinstance(spec, str) or Path(spec).expanduser().is_dir():
        return None
    name, revision = split_revision(spec)
    return None if revision and COMMIT.fullmatch(revision) else name


def unpinned_models(config: Mapping) -> dict[str, str]:
    """alias -> hub name of every used model that is a hub name without a commit (a local directory or a tiny model
    is pinned by what it is; MiniLM comes from a pinned PyPI package)."""
    from .models import MINILM

    names = {alias: unpinned_name((config.get("models") or {}).get(alias)) for alias in used_aliases(config)}
    return {alias: name for alias, name in names.items() if name and name != MINILM}


def unpinned_llms(config: Mapping) -> dict[str, str]:
    """alias -> hub name of every scoring LLM (``llm.scorers``) that is a hub name without a commit (a .gguf file, a
    package's file, a local directory or a tiny model is pinned by what it is)."""
    llm = config.get("llm") or {}
    specs = {alias: (llm.get("models") or {}).get(alias) for alias in llm.get("scorers") or []}
    names = {alias: unpinned_name(spec) for alias, spec in specs.items() if not str(spec).endswith(".gguf")}
    return {alias: name for alias, name in names.items() if name}


def main(argv: list[str] | None = None) -> int:
    import yaml
    from huggingface_hub import HfApi
    from snakemake.utils import update_config

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", nargs="*", default=["config/paper.yaml"])
    args = parser.parse_args(argv)
    config: dict = {}
    for path in ["config/config.yaml", *args.configfile]:
        update_config(config, yaml.safe_load(Path(path).read_text(encoding="utf-8")))
    pins = {alias: f"{name}@{HfApi().model_info(name).sha}" for alias, name in unpinned_models(config).items()}
    llm_pins = {alias: f"{name}@{HfApi().model_info(name).sha}" for alias, name in unpinned_llms(config).items()}
    overlay = ({"models": pins} if pins else {}) | ({"llm": {"models": llm_pins}} if llm_pins else {})
    print(yaml.safe_dump(overlay, sort_keys=False) if overlay else "# every model the config uses is pinned", end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
