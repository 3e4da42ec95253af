"""config/README.md, generated from config/schema.yaml: every key with its type, schema default, the value each
scale's config file sets and its description, so that the reference cannot drift from the schema.

    .venv/bin/python -m directional_inference.workflow.config_reference            # rewrite config/README.md
    .venv/bin/python -m directional_inference.workflow.config_reference --check    # exit 1 when config/README.md is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import yaml

from ..config_tree import dotted_value
from ..generated import write_or_check

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = ROOT / "config" / "schema.yaml"
REFERENCE = ROOT / "config" / "README.md"
# the scale files, in the order a user meets them; smoke and paper are laid over config.yaml key by key
SCALE_FILES = ("config.yaml", "smoke.yaml", "paper.yaml")
UNSET = object()


def leaf_keys(schema: dict, prefix: str = "") -> list[tuple[str, dict]]:
    """(dotted key, schema) of every key a config file sets: an object with named properties is walked, anything
    else (a value, a list, a mapping of free names such as ``models``) is one key."""
    keys = []
    for name, node in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        if node.get("type") == "object" and "properties" in node:
            keys += leaf_keys(node, f"{path}.")
        else:
            keys.append((path, node))
    return keys


def cell(value) -> str:
    """A value as a Markdown table cell: compact JSON in code, empty when unset."""
    if value is UNSET:
        return ""
    return "`" + json.dumps(value, ensure_ascii=False, separators=(", ", ": ")).replace("|", "\\|") + "`"


def type_name(node: dict) -> str:
    kind = node.get("type", "one of" if "oneOf" in node else "")
    if "oneOf" in node and all("type" in choice or "const" in choice for choice in node["oneOf"]):  # e.g. integer or "auto"
        kind = [choice.get("type") or json.dumps(choice["const"]) for choice in node["oneOf"]]
    kinds = kind if isinstance(kind, list) else [kind]
    text = " or ".join(str(k) for k in kinds)
    if "enum" in node:
        text += " (" + ", ".join(str(v) for v in node["enum"]) + ")"
    return text.replace("|", "\\|")


def description(node: dict) -> str:
    return " ".join(str(node.get("description", "")).split()).replace("|", "\\|")


def config_reference(schema: dict, scales: dict[str, dict]) -> str:
    """The Markdown reference: one table per top-level section (the top-level values in one), one row per key."""
    sections: dict[str, list[str]] = {}
    for key, node in leaf_keys(schema):
        section = key.split(".")[0] if "." in key else "top level"
        values = " | ".join(cell(dotted_value(config, key, UNSET)) for config in scales.values())
        sections.setdefault(section, []).append(
            f"| `{key}` | {type_name(node)} | {cell(node.get('default', UNSET))} | {values} | {description(node)} |"
        )
    header = "| key | type | schema default | " + " | ".join(f"`{name}`" for name in scales) + " | description |"
    rule = "|" + "---|" * (4 + len(scales))
    parts = [
        f"""# Configuration reference

Generated from `config/schema.yaml` by `.venv/bin/python -m directional_inference.workflow.config_reference`; do not edit by hand
(a test fails when this file is stale). {description(schema)}

A scale file sets only the keys it lists; a key it leaves empty takes the value of `config.yaml` (for
`smoke.yaml` and `paper.yaml`, which are laid over it with `--configfile`) or else the schema default.
Any key can also be set on the command line, e.g. `snakemake --config seed=1`, or through DVC:
`dvc exp run -S config/config.yaml:training.epochs=4`.
"""
    ]
    for section, rows in sections.items():
        parts.append(f"## {section if section == 'top level' else f'`{section}`'}\n\n{header}\n{rule}\n" + "\n".join(rows) + "\n")
    return "\n".join(parts)


def render(root: Path = ROOT) -> str:
    schema = yaml.safe_load((root / "config" / "schema.yaml").read_text(encoding="utf-8"))
    scales = {name: yaml.safe_load((root / "config" / name).read_text(encoding="utf-8")) or {} for name in SCALE_FILES}
    return config_reference(schema, scales)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when config/README.md differs from the schema's")
    args = parser.parse_args(argv)
    return write_or_check(REFERENCE, render(), "directional_inference.workflow.config_reference", args.check)


if __name__ == "__main__":
    sys.exit(main())
