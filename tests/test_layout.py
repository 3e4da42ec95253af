"""One results layout (src/directional_inference/layout.py): every path of the planned runs is one its functions give."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from dry_run_snapshot import CONFIGS, read_snapshot

from directional_inference import layout


def layout_patterns() -> dict[str, list[re.Pattern]]:
    """Each layout function -> the paths it can give, as regular expressions: each parameter any folder name (one
    named ``pattern`` or ``..._path`` any path), each optional part (a None or False default) with and without."""
    patterns = {}
    for name, function in inspect.getmembers(layout, inspect.isfunction):
        if function.__module__ != layout.__name__:
            continue
        parameters = inspect.signature(function).parameters
        required = [p for p, spec in parameters.items() if spec.default is inspect.Parameter.empty]
        optional = [p for p, spec in parameters.items() if spec.default is not inspect.Parameter.empty]
        spans = {f"\x00{p}\x00": ".+" if p == "pattern" or p.endswith("_path") else "[^/]+" for p in parameters}
        found = []
        for mask in range(2 ** len(optional)):
            arguments = {p: f"\x00{p}\x00" for p in required}
            for k, p in enumerate(optional):
                if mask >> k & 1:
                    arguments[p] = True if isinstance(parameters[p].default, bool) else f"\x00{p}\x00"
            parts = re.split(r"(\x00\w+\x00)", function(**arguments))
            found.append(re.compile("".join(spans.get(part) or re.escape(part) for part in parts)))
        patterns[name] = found
    return patterns


def planned_paths() -> set[str]:
    """Every input, output, log and benchmark of the committed dry runs (tests/snapshots)."""
    paths = set()
    for scale in CONFIGS:
        for job in read_snapshot(scale):
            paths.update(job["input"] + job["output"] + job["log"] + ([job["benchmark"]] if job["benchmark"] else []))
    return paths


def test_every_planned_path_is_one_the_layout_gives():
    patterns = [pattern for found in layout_patterns().values() for pattern in found]
    user_files = {path for path in planned_paths() if path.startswith("mine/")}  # the overlay's own files
    strays = sorted(path for path in planned_paths() - user_files if not any(pattern.fullmatch(path) for pattern in patterns))
    assert not strays, f"{len(strays)} planned paths no function of layout.py gives, e.g. {strays[:10]}"


def test_the_layouts_patterns_tell_folders_apart():
    patterns = layout_patterns()
    assert patterns["booqa_split"][0].fullmatch("results/en/booqa/dev.parquet")
    assert not patterns["booqa_split"][0].fullmatch("results/en/booqa/sub/dev.parquet")
    assert any(p.fullmatch("logs/training/train_sns_trial/tiny/sns/full/3.log") for p in patterns["job_log"])
    assert {p.pattern for p in patterns["booqa_scores"]} == {
        r"results/booqa_scores/[^/]+/[^/]+/[^/]+\.parquet",
        r"results/booqa_scores/[^/]+/[^/]+/[^/]+\.part\-[^/]+\.parquet",
    }


ROOT = Path(__file__).resolve().parents[1]
LAYOUT_PREFIXES = ("results/", "resources/", "logs/")
LAYOUT_FOLDERS = tuple(prefix.rstrip("/") for prefix in LAYOUT_PREFIXES)
# literals that name no artefact of a run, each with why
NOT_ARTEFACTS = {
    ("src/directional_inference/llm/released.py", "results/levyholt_results"): "a folder inside the released archive",
    ("src/directional_inference/workflow/dvc_pipeline.py", "resources/inputs.py"): "a module of the package",
    ("src/directional_inference/workflow/dvc_pipeline.py", "resources/data/inputs.tsv"): "a data file of the package",
    ("src/directional_inference/workflow/phases.py", "resources/models.py"): "a module of the package",
}


def path_literals(path: Path) -> list[str]:
    """The string literals of a Python file (f-strings by their first part; docstrings left out) or, in a rule file,
    of its code lines, that start with results/, resources/ or logs/, and a Python file's path joins through one of
    those folders (``root / "resources" / ...``)."""
    import ast

    if path.suffix == ".smk" or path.name == "Snakefile":
        code = "\n".join(line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())
        return [m.group(1) for m in re.finditer(r"f?[\"']((?:results|resources|logs)/[^\"'\n]*)", code)]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body and isinstance(node.body[0], ast.Expr)
    }
    found = []
    for node in ast.walk(tree):
        # a join of a layout folder onto a root, as ``root / "resources" / "models" / alias`` (not one inside another
        # folder, as ``ROOT / "benchmarks" / "results"``)
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Constant)
            and node.right.value in LAYOUT_FOLDERS
            and not (isinstance(node.left, ast.BinOp) and isinstance(node.left.right, ast.Constant))
        ):
            found.append(f"{node.right.value}/")
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            node = node.values[0]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings and node.value.startswith(LAYOUT_PREFIXES):
            found.append(node.value)
    return found


def test_no_rule_script_or_module_writes_a_path_of_the_layout_by_hand():
    files = [*sorted((ROOT / "rules").rglob("*.smk")), ROOT / "Snakefile", *sorted((ROOT / "scripts").glob("*.py"))]
    files += [p for p in sorted((ROOT / "src" / "directional_inference").rglob("*.py")) if p.name != "layout.py"]
    by_hand = [
        (path.relative_to(ROOT).as_posix(), literal)
        for path in files
        for literal in path_literals(path)
        if (path.relative_to(ROOT).as_posix(), literal) not in NOT_ARTEFACTS
    ]
    assert not by_hand, f"paths written out beside layout.py (ask it instead): {by_hand[:10]}"
    assert path_literals(ROOT / "src" / "directional_inference" / "layout.py") == [], "layout.py builds its paths from RESULTS, RESOURCES and LOGS"
