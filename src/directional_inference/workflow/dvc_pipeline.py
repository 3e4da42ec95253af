"""Generate ``dvc.yaml`` from the phase list: one DVC stage per phase, whose command runs Snakemake for it.

Snakemake is the only executor; DVC versions each phase's outputs with their lineage (upstream outputs,
the phase's rules, scripts and package modules, and its config keys as params). The package modules are
computed, never listed by hand: the modules of ``directional_inference`` that the phase's scripts import,
directly or transitively (found statically with ``ast``, imports inside functions included).

    .venv/bin/python -m directional_inference.workflow.dvc_pipeline                 # write dvc.yaml for config/config.yaml
    .venv/bin/python -m directional_inference.workflow.dvc_pipeline --check         # exit 1 if dvc.yaml is stale
    .venv/bin/python -m directional_inference.workflow.dvc_pipeline --configfile config/smoke.yaml   # a pipeline for another scale
    .venv/bin/python -m directional_inference.workflow.dvc_pipeline --make-dependency-folders   # for dvc repro --dry (bin/setup)
"""

from __future__ import annotations

import argparse
import ast
import functools
import sys
from collections.abc import Iterable
from pathlib import Path

import yaml

from ..config_tree import dotted_value
from ..generated import write_or_check
from .phases import PHASES, Phase

DEFAULT_CONFIG = "config/config.yaml"
HEADER = "# Generated from src/directional_inference/workflow/phases.py by `.venv/bin/python -m directional_inference.workflow.dvc_pipeline`; do not edit.\n"
PACKAGE = "directional_inference"
PACKAGE_DIR = f"src/{PACKAGE}"
# A stage's command runs the workflow's own Snakemake whatever the shell's PATH (bin/snakemake finds .venv), so that
# `.venv/bin/dvc repro` works in a plain shell; SNAKEMAKE_PROFILE (Snakemake's variable) sends the stages through a profile.
STAGE_SNAKEMAKE = "bin/snakemake"
# Every stage's command and outputs come from the phase list (rules/phases.smk reads it too), and every phase's jobs
# from the run's design (rules/common.smk builds it): each a dep of every stage, with what it imports
STAGE_MODULES = ("workflow/phases.py", "workflow/run_design.py")
# Files a module reads from beside itself: a dep wherever the module is.
PACKAGE_DATA = {"resources/inputs.py": ("resources/data/inputs.tsv",), "sns/published.py": ("sns/data/published_choices.tsv",)}
_ABSENT = object()  # a key the config file does not set


def _module_file(package_dir: Path, parts: tuple[str, ...]) -> Path | None:
    """The file of the module ``parts`` (names below the package; () is the package itself), or None."""
    init = package_dir.joinpath(*parts, "__init__.py")
    if init.is_file():
        return init
    if parts:
        module = package_dir.joinpath(*parts[:-1], f"{parts[-1]}.py")
        if module.is_file():
            return module
    return None


def _imports(path: Path, package: str, here: tuple[str, ...] | None) -> frozenset[tuple[str, ...]]:
    """``_parsed_imports`` of the file as it is now (read once per version of the file)."""
    return _parsed_imports(path, package, here, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _parsed_imports(path: Path, package: str, here: tuple[str, ...] | None, _version: int) -> frozenset[tuple[str, ...]]:
    """The modules of ``package`` that the file imports anywhere in it (in functions too), as names below the package.

    ``here`` is the package the file belongs to (for relative imports); None for a script outside the package.
    A name imported from a module (``from ..x import y``) is given as ``x`` plus ``x.y`` in case ``y`` is a
    submodule; the caller drops what is not a module. Every parent package of an imported module comes too,
    since importing a module runs its packages' ``__init__.py``.
    """
    found: set[tuple[str, ...]] = set()

    def add(parts: tuple[str, ...]) -> None:
        found.update(parts[:i] for i in range(len(parts) + 1))

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                head, *rest = alias.name.split(".")
                if head == package:
                    add(tuple(rest))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                head, *rest = (node.module or "").split(".")
                if head != package:
                    continue
                base = tuple(rest)
            else:
                if here is None or node.level - 1 > len(here):
                    continue  # a relative import outside the package
                base = here[: len(here) - (node.level - 1)] + (tuple(node.module.split(".")) if node.module else ())
            add(base)
            found.update(base + (alias.name,) for alias in node.names if alias.name != "*")
    return frozenset(found)


def module_dependencies(scripts: Iterable[str | Path], package_dir: str | Path, package: str = PACKAGE, modules: Iterable[str] = ()) -> list[str]:
    """The files of the package (relative to ``package_dir``, sorted) that the scripts import, directly or through
    other modules of the package, plus the data files those modules read (PACKAGE_DATA); ``modules`` (paths such as
    "levyholt/experiments.py") are followed the same way, as if a script imported them."""
    package_dir = Path(package_dir)
    seen: set[tuple[str, ...]] = set()
    pending = [part for script in scripts for part in _imports(Path(script), package, None)]
    pending += [tuple(module.removesuffix(".py").removesuffix("/__init__").split("/")) for module in modules]
    while pending:
        parts = pending.pop()
        if parts in seen:
            continue
        file = _module_file(package_dir, parts)
        if file is None:
            continue  # a name imported from a module, not a module
        seen.add(parts)
        here = parts if file.name == "__init__.py" else parts[:-1]
        pending.extend(_imports(file, package, here) - seen)
    files = {_module_file(package_dir, parts).relative_to(package_dir).as_posix() for parts in seen}
    files |= {data for module in list(files) for data in PACKAGE_DATA.get(module, ())}
    return sorted(files)


def phase_scripts(phase: Phase, root: str | Path = ".") -> list[str]:
    """The scripts the phase's rules run (scripts/<rule>.py, and the shared scripts it names), sorted."""
    root = Path(root)
    return sorted({f"scripts/{name}.py" for name in phase.rules_in(root) + phase.shared_scripts if (root / "scripts" / f"{name}.py").is_file()})


def phase_modules(phase: Phase, root: str | Path = ".") -> list[str]:
    """The package files a phase's stage depends on (paths from the repository root, sorted)."""
    root = Path(root)
    scripts = (root / s for s in phase_scripts(phase, root))
    return [f"{PACKAGE_DIR}/{m}" for m in module_dependencies(scripts, root / PACKAGE_DIR, modules=phase.planning_modules + STAGE_MODULES)]


def _upstream_outs(phase: Phase) -> list[str]:
    return [out for name in phase.upstream for p in PHASES if p.name == name for out in p.outs]


def make_dependency_folders(root: str | Path = ".") -> list[str]:
    """Make every phase output that another phase's stage depends on (each a folder), empty, where it is missing: what
    ``dvc repro --dry`` needs on a fresh clone. DVC 3 hashes a stage's deps to look the stage up in its run cache, also
    in a dry run, and stops with "No such file or directory" at the first that does not exist; an empty folder hashes,
    and Snakemake, ``dvc pull`` and a real ``dvc repro`` fill it as they would have made it. Returns the folders made."""
    made = []
    for path in dict.fromkeys(out for phase in PHASES for out in _upstream_outs(phase)):
        folder = Path(root) / path
        if not folder.exists():
            folder.mkdir(parents=True)
            made.append(path)
    return made


def _registers(helpers: Path, phase: Phase) -> bool:
    """Whether a file of rules/helpers/ holds the phase's helpers (it registers the phase's outputs)."""
    return f'PHASE_TARGETS["{phase.name}"]' in helpers.read_text(encoding="utf-8")


def _stage(phase: Phase, root: Path, configfiles: list[str]) -> dict:
    upstream = _upstream_outs(phase)
    # Config files are not deps: a phase depends on its own keys only (params), so a change of another
    # phase's keys does not re-run it.
    deps = upstream + ["Snakefile", "rules/setup.smk", "rules/common.smk", "rules/phases.smk", f"rules/{phase.name}.smk"]
    deps += [f"rules/helpers/{path.name}" for path in sorted((root / "rules" / "helpers").glob("*.smk")) if _registers(path, phase)]
    deps += phase_scripts(phase, root) + phase_modules(phase, root)
    params = []
    for configfile in configfiles:
        tree = yaml.safe_load((root / configfile).read_text(encoding="utf-8")) or {}
        keys = [key for key in phase.params if dotted_value(tree, key, _ABSENT) is not _ABSENT]
        if keys:
            params.append({configfile: keys})
    extra = "".join(f" --configfile {c}" for c in configfiles if c != DEFAULT_CONFIG)
    allowed = " ".join((*phase.rules_in(root), phase.target_rule))
    stage: dict = {
        "cmd": f"{STAGE_SNAKEMAKE} --cores all{extra} --allowed-rules {allowed} -- {phase.target_rule}",
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
    parser.add_argument("--make-dependency-folders", action="store_true", help="make the stages' missing dependency folders (bin/setup does)")
    args = parser.parse_args(argv)
    if args.make_dependency_folders:
        make_dependency_folders()
        return 0
    return write_or_check(Path(args.output), render(".", args.configfile), "directional_inference.workflow.dvc_pipeline", args.check)


if __name__ == "__main__":
    sys.exit(main())
