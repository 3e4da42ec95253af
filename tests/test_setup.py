"""bin/setup as a newcomer meets it: a Python outside pyproject.toml's bounds is refused with the fix, and a DVC
remote's plugin is one option away (its kinds are the pinned extras of pyproject.toml, the ones bin/doctor names)."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

from conftest import REPO
from directional_inference.tools.doctor import REMOTE_PLUGINS


def checkout_with(tmp_path: Path, pythons: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """bin/setup and pyproject.toml in a folder, and a PATH of the tools bin/setup uses plus fake interpreters that
    report the given versions (name -> version)."""
    checkout = tmp_path / "checkout"
    (checkout / "bin").mkdir(parents=True)
    shutil.copy2(REPO / "bin" / "setup", checkout / "bin" / "setup")
    shutil.copy2(REPO / "pyproject.toml", checkout / "pyproject.toml")
    tools = tmp_path / "path"
    tools.mkdir()
    for tool in ("sed", "cat", "dirname", "sha256sum", "cut", "tr", "rm", "touch", "basename"):
        (tools / tool).symlink_to(shutil.which(tool))
    for name, version in pythons.items():
        (tools / name).write_text(f"#!/bin/sh\necho {version}\n", encoding="utf-8")
        (tools / name).chmod(0o755)
    return checkout, {"PATH": str(tools), "HOME": str(tmp_path)}


def setup(checkout: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["/bin/bash", str(checkout / "bin" / "setup"), *args], capture_output=True, text=True, env=env)


def test_python_3_13_is_refused_with_the_fix(tmp_path):
    checkout, env = checkout_with(tmp_path, {"python3": "3.13.1"})
    result = setup(checkout, env)
    assert result.returncode == 1 and not (checkout / ".venv").exists()
    bounds = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"the workflow needs Python {bounds}" in result.stderr and "python3 (Python 3.13.1)" in result.stderr
    assert "python3.12 (not found)" in result.stderr and "PYTHON=/path/to/python3.12 bin/setup" in result.stderr
    named = setup(checkout, env | {"PYTHON": str(tmp_path / "path" / "python3")})
    assert named.returncode == 1 and "(Python 3.13.1)" in named.stderr


def test_the_first_python_within_the_bounds_is_taken(tmp_path):
    """python3 is 3.13 and python3.12 fits: bin/setup goes on with python3.12 (the fake one cannot make a venv, which
    shows which interpreter it took)."""
    checkout, env = checkout_with(tmp_path, {"python3": "3.13.1", "python3.12": "3.12.7"})
    result = setup(checkout, env)
    assert "'python3.12 -m venv' does not work" in result.stderr, result.stderr
    assert "needs Python" not in result.stderr


def test_remote_kinds_are_the_pinned_extras_bin_doctor_names(tmp_path):
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    kinds = {name.removeprefix("dvc-") for name in extras if name.startswith("dvc-")}
    assert {plugin.removeprefix("dvc-") for plugin in REMOTE_PLUGINS.values()} - {"http"} <= kinds  # http ships with DVC
    assert all(extras[f"dvc-{kind}"] == [extras[f"dvc-{kind}"][0]] and "==" in extras[f"dvc-{kind}"][0] for kind in kinds)
    checkout, env = checkout_with(tmp_path, {"python3": "3.11.9"})
    result = setup(checkout, env, "--remote", "s4")
    assert result.returncode == 2 and "no DVC plugin for a remote of kind 's4'" in result.stderr
    assert set(result.stderr.split("the kinds are: ")[1].split()) == kinds


def test_a_torch_index_of_another_build_replaces_the_installed_torch(tmp_path):
    """bin/doctor's fix for a CPU-only torch on a CUDA machine is `TORCH_INDEX=.../whl/cu128 bin/setup`: pip alone keeps
    torch 2.13.0+cpu for torch==2.13.0, so bin/setup removes a torch of another build before it installs from the index;
    a torch of the index's build stays. (An environment whose interpreter logs what it is asked: the pip calls.)"""
    checkout, env = checkout_with(tmp_path, {})
    log = tmp_path / "asked.log"
    venv = checkout / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text(
        f"""#!/bin/sh
echo "$*" >> {log}
case "$*" in
  *version_info*) echo 3.12.7 ;;
  *importlib.metadata*) echo 2.13.0+cpu ;;
esac
""",
        encoding="utf-8",
    )
    (venv / "python").chmod(0o755)
    pip = "-m pip install --quiet --disable-pip-version-check --index-url"
    for index, replaced in (("https://download.pytorch.org/whl/cu128", True), ("https://download.pytorch.org/whl/cpu/", False)):
        log.unlink(missing_ok=True)
        for stamp in (checkout / ".venv").glob(".installed-*"):
            stamp.unlink()
        result = setup(checkout, env | {"TORCH_INDEX": index})
        assert result.returncode == 0, result.stderr
        asked = log.read_text().splitlines()
        install = asked.index(f"{pip} {index} torch==2.13.0")
        uninstall = [n for n, line in enumerate(asked) if line.startswith("-m pip uninstall") and line.endswith(" -y torch")]
        assert bool(uninstall) == replaced and all(n < install for n in uninstall), asked
        assert asked[-1] == "-m directional_inference.workflow.dvc_pipeline --make-dependency-folders"  # for dvc repro --dry
