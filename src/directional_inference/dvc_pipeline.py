"""Generate ``dvc.yaml`` from the phase list: one DVC stage per phase, whose command runs Snakemake for it.

Snakemake is the only executor; DVC versions each phase's outputs with their lineage (upstream outputs,
the phase's rules, scripts and package modules, and its config keys as params).

    python -m directional_inference.dvc_pipeline                 # write dvc.yaml for config/config.yaml
    python -m directional_inference.dvc_pipeline --check         # exit 1 if dvc.yaml is stale
    python -m directional_inference.dvc_pipeline --configfile config/smoke.yaml   # a pipeline for another scale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

from .phases import COMMON_MODULES, PHASES, Phase

DEFAULT_CONFIG = "config/config.yaml"
HEADER = "# Generated from src/directional_inference/phases.py by `python -m directional_inference.dvc_pipeline`; do not edit.\n"
PACKAGE_DIR = "src/directional_inference"


def _has_key(tree: dict, dotted: str) -> bool:
    for part in dotted.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return False
        tree = tree[part]
    return True


def _stage(phase: Phase, root: Path, configfiles: list[str]) -> dict:
    upstream = [out for name in phase.upstream for p in PHASES if p.name == name for out in p.outs]
    scripts = [f"scripts/{name}.py" for name in phase.rules + phase.shared_scripts if (root / "scripts" / f"{name}.py").is_file()]
    modules = [f"{PACKAGE_DIR}/{m}" for m in COMMON_MODULES + phase.modules]
    # Config files are not deps: a phase depends on its own keys only (params), so a change of another
    # phase's keys does not re-run it.
    deps = upstream + ["Snakefile", "rules/common.smk", "rules/phases.smk", f"rules/{phase.name}.smk"]
    deps += sorted(set(scripts)) + sorted(set(modules))
    params = []
    for configfile in configfiles:
        tree = yaml.safe_load((root / configfile).read_text(encoding="utf-8")) or {}
        keys = [key for key in phase.params if _has_key(tree, key)]
        if keys:
            params.append({configfile: keys})
    extra = "".join(f" --configfile {c}" for c in configfiles if c != DEFAULT_CONFIG)
    allowed = " ".join((*phase.rules, phase.target_rule))
    stage: dict = {
        "cmd": f"snakemake --cores all{extra} --allowed-rules {allowed} -- {phase.target_rule}",
        "deps": deps,
    }
    if params:
        stage["params"] = params
    stage["outs"] = list(phase.outs)
    if phase.metrics:
        stage["metrics"] = list(phase.metrics)
    if phase.plots:
        stage["plots"] = [{path: {"x": "recall", "y": "precision"}} for path in phase.plots]
    return stage


def render(root: str | Path = ".", configfiles: list[str] | None = None) -> str:
    """The text of dvc.yaml for the given config files (config/config.yaml first, overlays after)."""
    root = Path(root)
    configfiles = [DEFAULT_CONFIG] + [c for c in (configfiles or []) if c != DEFAULT_CONFIG]
    stages = {phase.name: _stage(phase, root, configfiles) for phase in PHASES}
    return HEADER + yaml.safe_dump({"stages": stages}, sort_keys=False, width=200)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configfile", action="append", default=[], help="config overlay (as for snakemake)")
    parser.add_argument("--output", default="dvc.yaml")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file differs from what would be generated")
    args = parser.parse_args(argv)
    text = render(".", args.configfile)
    target = Path(args.output)
    if args.check:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            print(f"{target} is stale: run python -m directional_inference.dvc_pipeline", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
