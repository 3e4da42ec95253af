"""The conventions Snakemake users look for: the workflow catalog's usage file, true to the workflow."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def rule_blocks() -> dict[str, str]:
    """Rule name -> its text, over every rules/*.smk."""
    blocks = {}
    for smk in sorted((ROOT / "rules").glob("*.smk")):
        parts = re.split(r"^rule (\w+):\n", smk.read_text(encoding="utf-8"), flags=re.M)
        blocks.update(dict(zip(parts[1::2], parts[2::2])))
    return blocks


def test_workflow_catalog_usage_is_true_to_the_workflow():
    usage = yaml.safe_load((ROOT / ".snakemake-workflow-catalog.yml").read_text(encoding="utf-8"))["usage"]
    assert set(usage) == {"mandatory-flags", "software-stack-deployment", "report"}
    assert usage["mandatory-flags"]["flags"] == "--cores 2" and "BOOQA_MIRROR" in usage["mandatory-flags"]["desc"]
    blocks = rule_blocks()
    assert len(blocks) > 30
    if usage["software-stack-deployment"]["conda"]:
        # --sdm conda: every rule that runs code of the project has an environment
        assert [name for name, text in blocks.items() if "script:" in text and "conda:" not in text] == []
    if usage["report"]:
        assert 'report: "report/workflow.rst"' in (ROOT / "Snakefile").read_text(encoding="utf-8")
        captions = {c for text in blocks.values() for c in re.findall(r'caption="\.\./(report/[\w.]+)"', text)}
        assert captions and all((ROOT / c).is_file() for c in captions)
    # the catalog's standardized usage also reads config/README.md
    assert (ROOT / "config" / "README.md").read_text(encoding="utf-8").startswith("# Configuration reference")


def test_readme_is_short_starts_with_the_two_commands_and_its_links_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 180  # a front page: the rest is in docs/
    quickstart = readme.index("## Quickstart")
    assert quickstart < readme.index("## Scales")
    main_job = "bin/setup && BOOQA_MIRROR=../shared/mirror .venv/bin/snakemake results/table5.csv --cores 2"
    tests = "BOOQA_MIRROR=../shared/mirror bin/test"
    assert main_job in readme[quickstart:] and tests in readme[quickstart:]
    assert "\nbin/test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")  # CI runs the README's test command
    links = re.findall(r"\]\(((?:docs|config)/[^)#]+|CHANGELOG\.md)(?:#[^)]*)?\)", readme)
    assert links and [link for link in links if not (ROOT / link).is_file()] == []
    for doc in (ROOT / "docs").glob("*.md"):  # links between the documents
        text = doc.read_text(encoding="utf-8")
        missing = [link for link in re.findall(r"\]\(([\w-]+\.md)(?:#[^)]*)?\)", text) if not (doc.parent / link).is_file()]
        assert missing == [], doc.name


def test_every_rule_script_starts_its_job_first():
    """Every rule script's first call is ``start_job(snakemake)``: its log, and a GPU job that sees no GPU stopped at once."""
    import ast

    for script in sorted((ROOT / "scripts").glob("*.py")):
        calls = [
            node.value
            for node in ast.parse(script.read_text(encoding="utf-8")).body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
        ]
        first = calls[0].func if calls else None
        assert isinstance(first, ast.Name) and first.id == "start_job", script.name


def test_the_suites_recorded_durations_name_tests_that_exist():
    """tests/durations.tsv (every test's seconds in a run of .ci/run, tests/durations.py): a wall-clock and pytest's
    total in its header, within the budget of .ci/run, and every test it names still defined (a renamed or removed test
    means the record is stale)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from durations import BUDGET_S, read

    figures, rows = read()
    # each process adds up its own tests: the rows sum to at most pytest's total in every process
    assert (
        figures["wall_clock_s"] >= figures["pytest_s"] and figures["pytest_s"] * figures["processes"] >= sum(seconds for seconds, _, _ in rows) * 0.95
    )
    assert figures["wall_clock_s"] <= BUDGET_S, f"the recorded .ci/run took {figures['wall_clock_s']:.0f} s, over its budget of {BUDGET_S} s"
    assert rows and {phase for _, phase, _ in rows} <= {"setup", "call", "teardown"}
    missing = set()
    for _, _, test in rows:
        path, _, name = test.partition("::")
        function = name.split("[")[0].split("::")[-1]
        if not (ROOT / path).is_file() or not re.search(rf"^\s*def {re.escape(function)}\(", (ROOT / path).read_text(encoding="utf-8"), flags=re.M):
            missing.add(test)
    assert not missing, f"tests/durations.tsv names tests that no longer exist (record it again): {sorted(missing)[:5]}"


def test_a_break_counts_as_caught_by_a_failing_test_not_by_one_whose_set_up_errored(tmp_path, monkeypatch):
    """tests/mutate.py judges each break by the tests that hold its guarantee: a test that fails catches it; one whose
    fixture errors before its checks run catches nothing."""
    import os
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    import mutate

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef broken():\n    raise RuntimeError('the set-up broke')\n\n\n"
        "def test_fails():\n    assert 1 == 2\n\n\ndef test_errors(broken):\n    assert True\n\n\ndef test_passes():\n    assert True\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(mutate, "REPO", tmp_path)
    failed, errored = mutate.failed_tests(["tests/test_x.py"], os.environ.copy())
    assert failed == {"tests/test_x.py::test_fails"} and errored == {"tests/test_x.py::test_errors"}


PACKAGE = ROOT / "src" / "directional_inference"


def package_layers() -> dict[str, int]:
    """Each top-level module or subpackage of the package -> its layer, as the package docstring draws them."""
    import ast

    docstring = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    layers = re.findall(r"^(\d+)\. (?:\w+: )?([\w, \n]+?)(?=^\d+\. |\Z)", docstring, flags=re.M)
    return {name: int(number) for number, names in layers for name in re.findall(r"\w+", names)}


def imported_units(path: Path, package: Path = PACKAGE) -> set[tuple[str, int]]:
    """The package's top-level modules and subpackages that the module at ``path`` imports (relative, absolute, at
    module level or deferred inside a function), each with its line."""
    import ast

    here = path.relative_to(package.parent).with_suffix("").parts
    home = here if path.name == "__init__.py" else here[:-1]
    units = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = list(home[: len(home) - node.level + 1]) if node.level else []
            module = [*base, *(node.module.split(".") if node.module else [])]
            targets = [module + [alias.name] for alias in node.names] if len(module) == 1 else [module]
        elif isinstance(node, ast.Import):
            targets = [alias.name.split(".") for alias in node.names]
        else:
            continue
        for target in targets:
            if target[0] == package.name and len(target) > 1 and target[1] != "__version__":
                units.add((target[1], node.lineno))
    return units


def test_the_package_imports_only_down_its_layers():
    layers = package_layers()
    units = {p.stem if p.suffix == ".py" else p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    assert set(layers) == units - {"__init__"}, "the package docstring draws every module and subpackage, once"
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if parts == ("__init__.py",):
            continue
        unit = parts[0].removesuffix(".py")
        upward += [
            f"{path.relative_to(ROOT)}:{line} ({unit}, layer {layers[unit]}) imports {target} (layer {layers[target]})"
            for target, line in sorted(imported_units(path))
            if layers[target] > layers[unit]
        ]
    assert upward == [], "\n".join(upward)


def test_the_layer_check_reads_relative_absolute_and_deferred_imports(tmp_path):
    package = tmp_path / "directional_inference"
    (package / "sns").mkdir(parents=True)
    module = package / "sns" / "model.py"
    module.write_text(
        "from ..atomic import atomic_file\n"
        "from .. import engine\n"
        "import directional_inference.tables.figures\n"
        "from . import prompts\n"
        "def later():\n    from ..workflow.plan import run_config\n",
        encoding="utf-8",
    )
    assert imported_units(module, package) == {("atomic", 1), ("engine", 2), ("tables", 3), ("sns", 4), ("workflow", 6)}


def test_the_durations_record_reads_every_row_of_pytests_report_parametrized_ids_with_spaces_too():
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from durations import parse

    report = (
        "============================= slowest durations =============================\n"
        "38.75s call     tests/test_recovery.py::test_after_sigkill[training trial]\n"
        "2.10s setup    tests/test_a.py::test_b\n"
        "(3 durations < 0.005s hidden.  Use -vv to show these durations.)\n"
        "================= 2 passed in 41.20s =================\n"
    )
    rows = [(38.75, "call", "tests/test_recovery.py::test_after_sigkill[training trial]"), (2.10, "setup", "tests/test_a.py::test_b")]
    assert parse(report) == (rows, 41.20, 1)
    # in bin/test's two processes, pytest-xdist says how many before the tests
    assert parse("created: 2/2 workers\n2 workers [730 items]\n" + report) == (rows, 41.20, 2)


# No function of src/ is longer than this (decorators and docstring included): a longer one is split into named steps
LONGEST_FUNCTION = 80


def function_lengths(root: Path = PACKAGE) -> dict[str, int]:
    """``module:function`` -> its lines (decorators and docstring included), for every function under ``root``."""
    import ast

    lengths = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{path.relative_to(root).as_posix()}:{node.name}"  # two of a name (methods): the longer
                lengths[name] = max(lengths.get(name, 0), node.end_lineno - node.lineno + 1)
    return lengths


def test_no_function_in_the_package_is_longer_than_the_limit(tmp_path):
    # the measure sees a long method and a nested function, by their whole length
    body = "\n".join(f"        x{k} = {k}" for k in range(LONGEST_FUNCTION))
    (tmp_path / "long.py").write_text(
        f"class A:\n    def method(self):\n{body}\n\n\ndef short():\n    def inner():\n        pass\n", encoding="utf-8"
    )
    assert function_lengths(tmp_path) == {"long.py:method": LONGEST_FUNCTION + 1, "long.py:short": 3, "long.py:inner": 2}
    long = {name: lines for name, lines in function_lengths().items() if lines > LONGEST_FUNCTION}
    assert not long, f"functions over {LONGEST_FUNCTION} lines: split them into named steps: {long}"
