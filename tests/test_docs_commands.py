"""Every command the docs give to type, run as typed from the root of a fresh clone in a plain shell (``env -i``, the
system's PATH): the lines of the shell blocks of README.md, config/README.md and docs/*.md, and the commands of their
text that start with ``.venv/bin/`` or ``bin/`` and take an argument (a placeholder such as
``<targets>`` or ``KIND`` left out). Each step of
a line (``&&``, ``;``) runs in its short form where it would run for long: Snakemake's dry run (``-n``), DVC's
(``repro --dry``), ``--help`` for a module or a script; ``bin/plan``, ``bin/doctor`` and the rest as typed. The files
they name are written first: ``mine.yaml`` from the README's own block, ``my-inputs.yaml`` from the plan page's
stand-ins (the keys paper.yaml needs), ``published.yaml`` as docs/paper-scale.md describes it; the mirror the docs name
(``../shared/mirror``) is this suite's. What is not run is in EXCEPTIONS, each with its reason."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import REPO

DOCS = [REPO / "README.md", REPO / "config" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SHELL_BLOCK = re.compile(r"^```(?:bash|sh|console)\n(.*?)^```", flags=re.S | re.M)
# a command in the text: environment assignments, then a program of this checkout
TEXT_COMMAND = re.compile(r"`((?:[A-Z_]+=\S+ )*(?:\.venv/bin/|bin/)[^\s`]+ [^`\n]+)`")  # with an argument: alone, a name in prose
PLACEHOLDER = re.compile(r"<[^>]*>|\.\.\.|\b(?:KIND|N|NAME|DIR|RESULTS|C)\b|\|")
# placeholders a reader fills in that the shell would misread as they stand
FILLED = {"<user>": "user", "<password>": "password"}

# a step not run (matched at its start, environment assignments aside) -> why
EXCEPTIONS = {
    r"bin/setup\b": "sets up .venv (minutes); .ci/run and tests/test_setup.py run it, and the clone here links the tested environment",
    r"bin/test\b": "the test suite itself",
    r"git\b": "git on the lab's own repository",
    r"cd\b": "into the lab's clone (this test runs in a clone of its own)",
    r"\.venv/bin/dvc (?:commit|push|pull|metrics)\b": "needs a finished run and a DVC remote: tests/test_dvc.py runs the README's lines on both",
    r"\.venv/bin/dvc exp run\b": (
        "an experiment runs the phases; its dry form fails in DVC's own checkout (treeverse/dvc#10135, docs/operations.md): "
        "tests/test_dvc.py runs the README's experiment"
    ),
    r"bin/sync-after-pull\b": "needs a pulled run (dvc status clean): tests/test_dvc.py runs the colleague's line",
    r"\.venv/bin/snakemake --report\b": "renders a finished run: tests/test_workflow.py makes the report",
}


def commands() -> list[str]:
    """Every command line of the docs (each once), in the order they come."""
    found: dict[str, None] = {}
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for block in SHELL_BLOCK.finditer(text):
            for line in block.group(1).splitlines():
                line = re.split(r"\s+#\s", line)[0].strip()
                if line and not line.startswith("#"):
                    found[line] = None
        for command in TEXT_COMMAND.findall(SHELL_BLOCK.sub("", text)):
            if not PLACEHOLDER.search(command) and ":" not in command.split()[0]:  # "bin/doctor: no environment ..." is a message
                found[command.strip()] = None
    return list(found)


def steps(line: str) -> list[str]:
    for placeholder, value in FILLED.items():
        line = line.replace(placeholder, value)
    return [step.strip() for step in re.split(r"&&|;", line) if step.strip()]


def program(step: str) -> str:
    """The step without its leading environment assignments."""
    return re.sub(r"^(?:[A-Z_]+=\S+\s+)+", "", step)


def exception(step: str) -> str | None:
    return next((why for pattern, why in EXCEPTIONS.items() if re.match(pattern, program(step))), None)


def short_form(step: str) -> str:
    """The step as it runs here: a dry run, --help, or as typed."""
    command = program(step)
    words = shlex.split(command)
    if words[0].endswith("snakemake") and not {"-n", "--dry-run", "--unlock", "--lint"} & set(words):
        return f"{step} -n"
    if words[0].endswith("dvc") and words[1:2] == ["repro"] and "--dry" not in words:
        return f"{step} --dry"
    if words[0].endswith("python"):
        module_or_script = words[1:3] if words[1] == "-m" else words[1:2]
        return shlex.join([words[0], *module_or_script, "--help"])
    return step


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A clone of this checkout with the working tree's edits, its .venv the tested one, and what bin/setup makes after
    installing (the DVC stages' dependency folders); the files the docs' commands name."""
    clone = tmp_path_factory.mktemp("docs-commands") / "directional-inference"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split("\0")
    for name in filter(None, tracked):
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, clone / name)
    (clone / ".venv").symlink_to(REPO / ".venv")
    python = str(clone / ".venv" / "bin" / "python")
    subprocess.run(
        [python, "-m", "directional_inference.workflow.dvc_pipeline", "--make-dependency-folders"], cwd=clone, check=True, env=plain_environment()
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    mine = re.search(r"```yaml\n(.*?)```", readme[readme.index("## Adding your own model") :], flags=re.S).group(1)
    (clone / "mine.yaml").write_text(re.sub(r"<commit>", "0" * 40, mine), encoding="utf-8")
    shutil.copy2(clone / "mine.yaml", clone / "config" / "mine.yaml")
    from directional_inference.tools.plan_page import planning_overlay

    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text(encoding="utf-8"))
    (clone / "my-inputs.yaml").write_text(yaml.safe_dump(planning_overlay(clone / "stand-ins", paper)), encoding="utf-8")
    (clone / "published.yaml").write_text("training: {search: published}\n", encoding="utf-8")
    return clone


def plain_environment() -> dict[str, str]:
    """A plain shell's environment: the system's PATH, HOME, the suite's offline switches and mirror."""
    keep = ("HOME", "HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "DVC_NO_ANALYTICS", "BOOQA_MIRROR", "DI_PRECISION_CACHE")
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", **{name: os.environ[name] for name in keep if name in os.environ}}


LINES = commands()


def test_the_docs_give_the_commands_of_each_journey():
    """What this test runs covers the README's journeys: the main job, the colleague's, the paper's preflight and plan,
    an own model's run, DVC's preview."""
    everything = " ".join(LINES)
    for expected in (
        ".venv/bin/snakemake results/table5.csv --cores 2",
        "bin/doctor",
        "bin/plan results/table5.csv --configfile config/paper.yaml my-inputs.yaml",
        "--configfile mine.yaml",
        ".venv/bin/dvc repro --dry",
    ):
        assert expected in everything, expected


@pytest.mark.parametrize("line", LINES, ids=[line[:80] for line in LINES])
def test_a_docs_command_runs_as_typed(clone, line):
    env = plain_environment()
    ran = 0
    for step in steps(line):
        if program(step).startswith("export "):
            env.update(dict(assignment.split("=", 1) for assignment in shlex.split(program(step))[1:]))
            continue
        if exception(step):
            continue
        command = short_form(step).replace("../shared/mirror", shlex.quote(os.environ.get("BOOQA_MIRROR", "../shared/mirror")))
        result = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True, timeout=600)
        output = result.stdout + result.stderr
        ran += 1
        if program(step).startswith("bin/doctor"):  # a preflight: exit 1 where the run would fail on this machine
            assert result.returncode in (0, 1) and "Traceback" not in output and re.search(r"^\s*(ok|note|FAIL)\b", output, flags=re.M), (
                f"{command}:\n{output[-3000:]}"
            )
        else:
            assert result.returncode == 0, f"{command} (from {line!r}) exited {result.returncode}:\n{output[-3000:]}"
    if not ran:
        pytest.skip("; ".join(dict.fromkeys(exception(step) for step in steps(line) if exception(step))))
