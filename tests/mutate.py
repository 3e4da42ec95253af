"""Deliberate breaks of the guarantees that the recovery and resume tests hold, each re-runnable: a mutation
(``MUTATIONS`` of tests/hold/sitecustomize.py, applied in memory as the package is imported, in the test process and
every Snakemake and job process under it) breaks one guarantee; the tests that hold it must then fail.

    .venv/bin/python tests/mutate.py --list
    .venv/bin/python tests/mutate.py [--smoke-repo DIR] NAME [NAME ...]   # exit 0 when every break was caught

The tests work in copies of a finished smoke run: ``--smoke-repo`` names one (the smoke fixture's ``repo`` folder of
an earlier pytest run of this code); without it one is made first, without any mutation (about 10 minutes). Set
BOOQA_MIRROR as for bin/test. The code on disk is never changed, so the smoke run stays valid for every mutation.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOOK = REPO / "tests" / "hold"


def _hook_mutations() -> dict:
    """The hook's own table of mutations (loaded from its file: another ``sitecustomize`` may be imported already)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("di_test_hook", HOOK / "sitecustomize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MUTATIONS


RECOVERY = "tests/test_recovery.py"
CHAIN = f"{RECOVERY}::test_each_job_of_the_chain_killed_inside_its_work_then_the_same_command_reruns_what_it_lost_and_gives_the_same_bytes"
RESUME = f"{RECOVERY}::test_a_scoring_killed_after_saved_batches_resumes_from_them_and_a_changed_input_file_starts_it_over"
SIGNATURE = "tests/test_booqa_scoring.py::test_a_changed_input_file_changes_the_signature_and_its_saved_progress_is_not_resumed"

# the tests that must fail under each mutation
CATCHERS = {
    "keep-scratch": (CHAIN,),
    "keep-part-files": (CHAIN,),
    "no-stale-marking": (CHAIN,),
    "never-resume": (RESUME,),
    "signature-of-paths": (SIGNATURE, RESUME),
    "keep-progress": (RESUME,),
}


def pytest(tests, env: dict, *extra: str) -> int:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, *tests], cwd=REPO, env=env).returncode


def smoke_run(env: dict) -> Path:
    """A finished smoke run of this code, made by the smoke fixture (with a test that only reads it)."""
    base = Path(tempfile.mkdtemp(prefix="di-mutate-"))
    if pytest([f"{RECOVERY}::test_two_runs_side_by_side_share_no_state"], env, "--basetemp", str(base)) != 0:
        raise SystemExit("the smoke run (or the test that reads it) failed without any mutation: see above")
    return next(base.glob("smoke*/repo"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of {', '.join(CATCHERS)}")
    parser.add_argument("--smoke-repo", type=Path, help="a finished smoke run (the fixture's repo folder) to test in copies of")
    parser.add_argument("--list", action="store_true", help="name each mutation and the tests that must catch it")
    args = parser.parse_args()
    assert set(CATCHERS) == set(_hook_mutations()), "every mutation of the hook has its tests here"
    if args.list or not args.names:
        for name, tests in CATCHERS.items():
            print(f"{name}: caught by {', '.join(test.split('::')[-1] for test in tests)}")
        return
    unknown = [name for name in args.names if name not in CATCHERS]
    if unknown:
        parser.error(f"no mutation {', '.join(unknown)}: see --list")
    env = os.environ.copy()
    env.pop("DI_MUTATION", None)
    smoke = args.smoke_repo or smoke_run(env)
    caught = {}
    for name in args.names:
        mutated = env | {
            "DI_MUTATION": name,
            "DI_SMOKE_REPO": str(smoke),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(HOOK), env.get("PYTHONPATH")])),
        }
        caught[name] = pytest(CATCHERS[name], mutated, "-x") != 0
    for name, was_caught in caught.items():
        print(f"{name}: {'caught' if was_caught else 'NOT CAUGHT'} by {', '.join(test.split('::')[-1] for test in CATCHERS[name])}")
    sys.exit(0 if all(caught.values()) else 1)


if __name__ == "__main__":
    main()
