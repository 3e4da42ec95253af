"""Deliberate breaks of the guarantees that the recovery, resume, engine and recomputation tests hold, each
re-runnable; the tests that hold the guarantee must then fail. A break is either

* a mutation of the code (``MUTATIONS`` of tests/hooks/sitecustomize.py, applied in memory as the package is
  imported, in the test process and every Snakemake and job process under it), or
* an edit of a copy of a finished smoke run (``RUN_EDITS`` here: a table cell that is not what its scores give, a
  label that is not its test set's, a score file gone), as a table-writing bug would leave it.

    .venv/bin/python tests/mutate.py --list
    .venv/bin/python tests/mutate.py [--smoke-repo DIR] NAME [NAME ...]   # exit 0 when every test of every break failed
    .venv/bin/python tests/mutate.py --all --report tests/mutate-report.txt  # every break, the verdicts kept in a file

The smoke-run tests work in copies of a finished smoke run: ``--smoke-repo`` names one (the smoke fixture's ``repo``
folder of an earlier pytest run of this code); without it, and where a named break needs one, one is made first,
without any break (about 10 minutes). Set BOOQA_MIRROR as for bin/test. The code on disk is never changed, and an edit
is made in a copy, so the smoke run stays valid for every break.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import HOOKS, REPO, SMOKE_STEPS, copy_run  # this script's folder is first on sys.path


def _hook_mutations() -> dict:
    """The hook's own table of mutations (loaded from its file: another ``sitecustomize`` may be imported already)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("di_test_hook", HOOKS / "sitecustomize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MUTATIONS


RECOVERY = "tests/test_recovery.py"
CHAIN = f"{RECOVERY}::test_each_job_of_the_chain_killed_inside_its_work_then_the_same_command_reruns_what_it_lost_and_gives_the_same_bytes"
RESUME = f"{RECOVERY}::test_a_scoring_killed_after_saved_batches_resumes_from_them_and_a_changed_input_file_starts_it_over"
SWEEP = f"{RECOVERY}::test_the_scratch_a_killed_job_left_is_swept_by_the_next_run_and_never_while_another_run_works_here"
KILLED = f"{RECOVERY}::test_after_sigkill_the_same_command_recovers_byte_identical_artefacts"
TRIAL_RESUME, LLM_RESUME = f"{KILLED}[training trial]", f"{KILLED}[LLM scoring]"
SIGNATURE = "tests/test_booqa_scoring.py::test_a_changed_input_file_changes_the_signature_and_its_saved_progress_is_not_resumed"
MERGE_SPILL = "tests/test_engine.py::test_the_merge_spills_within_its_bound_and_gives_the_same_bytes_at_one_two_and_four_threads"
ENGINE_STEPS = (
    "tests/test_engine_steps.py::test_every_engine_step_gives_the_same_bytes_at_one_and_two_threads_and_when_the_merge_and_the_negatives_spill"
)
STEP = "tests/test_engine_steps.py::test_"
POSITIVES_SPILL = f"{STEP}the_positives_spill_instead_of_stopping_and_give_the_same_bytes_at_one_two_and_four_threads"
GRAPH_BUILD_SPILL = f"{STEP}the_graph_build_spills_and_gives_the_same_edges_at_one_two_and_four_threads"
EVIDENCE_SPILL = f"{STEP}evidence_retrieval_spills_instead_of_stopping_and_gives_the_same_evidence_at_one_two_and_four_threads"
GRAPH_SCORING_SPILL = f"{STEP}graph_scoring_spills_and_gives_the_same_scores_at_one_two_and_four_threads"
SMALL_POOL_POSITIVES = f"{STEP}positives_spill_instead_of_stopping_in_a_pool_below_their_data"
IMPORTED_CORPUS_SPILL = f"{STEP}the_imported_corpus_table_spills_and_gives_the_same_bytes_at_one_two_and_four_threads"
STEP_SPILLS = (SMALL_POOL_POSITIVES, IMPORTED_CORPUS_SPILL, POSITIVES_SPILL, GRAPH_BUILD_SPILL, EVIDENCE_SPILL, GRAPH_SCORING_SPILL)
THREADS_RESUME = "tests/test_sns.py::test_a_trial_is_the_same_bytes_at_the_same_threads_and_resumes_only_at_its_own_thread_count"
RECOMPUTE = "tests/test_workflow.py::test_every_tables_aucnorm_is_recomputed_from_its_score_files_by_an_independent_implementation"

# the tests that must fail under each mutation
CATCHERS = {
    "keep-scratch": (SWEEP,),
    "no-sweep-guard": (SWEEP,),
    "keep-part-files": (CHAIN,),
    "no-stale-marking": (CHAIN,),
    "mark-everything": (CHAIN,),
    "never-resume": (RESUME, LLM_RESUME),
    "trial-never-resumes": (TRIAL_RESUME,),
    "sns-scoring-never-resumes": (RESUME,),
    "llm-scoring-never-resumes": (RESUME, LLM_RESUME),
    "signature-of-paths": (SIGNATURE, RESUME),
    "keep-progress": (RESUME,),
    "pool-ignored": (MERGE_SPILL, ENGINE_STEPS, *STEP_SPILLS),
    "no-spill": (MERGE_SPILL, *STEP_SPILLS),
    "unordered-writes": (MERGE_SPILL, ENGINE_STEPS, POSITIVES_SPILL, EVIDENCE_SPILL),
    "fixed-evidence-chunks": (EVIDENCE_SPILL,),
    "threads-out-of-signature": (THREADS_RESUME,),
}
SMOKE_RUN_TESTS = (CHAIN, RESUME, SWEEP, TRIAL_RESUME, LLM_RESUME, RECOMPUTE)  # the tests that read the smoke run


def _move_cell(run: Path, table: str, column: str) -> None:
    """The first number of ``column`` of a table, one point higher (a table-writing bug)."""
    import pandas as pd

    path = run / "results" / f"{table}.csv"
    frame = pd.read_csv(path)
    row = frame[column].first_valid_index()
    frame.loc[row, column] += 1.0
    frame.to_csv(path, index=False)


def _flip_split_label(run: Path) -> None:
    """One label of English BoOQA's test split flipped: the tables were made from labels that are not the split's."""
    import pandas as pd

    path = run / "results" / "en" / "booqa" / "test.parquet"
    split = pd.read_parquet(path)
    split.loc[0, "label"] = not bool(split.loc[0, "label"])
    split.to_parquet(path, index=False)


def _remove_score_file(run: Path) -> None:
    """The score file behind Table 5's LM row gone: a number that nothing can check."""
    (run / "results" / "booqa_scores" / "en" / "test" / "lm_rel.parquet").unlink()


# name -> (the edit of a copy of the smoke run, the tests that must fail on it)
RUN_EDITS = {
    "table5-cell-moved": (lambda run: _move_cell(run, "table5", "en_auc_norm"), (RECOMPUTE,)),
    "tie-aware-cell-moved": (lambda run: _move_cell(run, "table1", "auc_norm_tie_aware"), (RECOMPUTE,)),
    "split-label-flipped": (_flip_split_label, (RECOMPUTE,)),
    "score-file-removed": (_remove_score_file, (RECOMPUTE,)),
}


def edited_copy(smoke: Path, name: str) -> Path:
    """A copy of the smoke run (with the fixture's record beside it) with the edit ``name`` made."""
    copy = Path(tempfile.mkdtemp(prefix=f"di-{name}-")) / "repo"
    copy_run(smoke, copy)
    shutil.copy2(smoke.parent / SMOKE_STEPS, copy.parent / SMOKE_STEPS)
    RUN_EDITS[name][0](copy)
    return copy


def pytest(tests, env: dict, *extra: str) -> int:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra, *tests], cwd=REPO, env=env).returncode


def failed_tests(tests, env: dict) -> tuple[set[str], set[str]]:
    """The node ids of ``tests`` that failed (each break must make every test that holds its guarantee fail), and of
    those that errored instead: a fixture or set-up that broke before the test's own checks ran, which catches nothing."""
    import xml.etree.ElementTree as ElementTree

    with tempfile.TemporaryDirectory(prefix="di-mutate-") as folder:
        report = Path(folder) / "report.xml"
        pytest(tests, env, f"--junitxml={report}", "-o", "junit_family=xunit2")
        failed, errored = set(), set()
        for case in ElementTree.parse(report).iter("testcase"):
            test = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
            if case.find("failure") is not None:
                failed.add(test)
            elif case.find("error") is not None:
                errored.add(test)
    return failed, errored


def smoke_run(env: dict) -> Path:
    """A finished smoke run of this code, made by the smoke fixture (with a test that only reads it)."""
    base = Path(tempfile.mkdtemp(prefix="di-mutate-"))
    if pytest([f"{RECOVERY}::test_two_runs_side_by_side_share_no_state"], env, "--basetemp", str(base)) != 0:
        raise SystemExit("the smoke run (or the test that reads it) failed without any mutation: see above")
    return next(base.glob("smoke*/repo"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"one of {', '.join([*CATCHERS, *RUN_EDITS])}")
    parser.add_argument("--smoke-repo", type=Path, help="a finished smoke run (the fixture's repo folder) to test in copies of")
    parser.add_argument("--list", action="store_true", help="name each mutation and the tests that must catch it")
    parser.add_argument("--all", action="store_true", help="every break")
    parser.add_argument("--report", type=Path, help="also write the verdicts here, with the commit, the CPU and the time taken")
    args = parser.parse_args()
    assert set(CATCHERS) == set(_hook_mutations()), "every mutation of the hook has its tests here"
    catchers = CATCHERS | {name: tests for name, (_, tests) in RUN_EDITS.items()}
    if args.all:
        args.names = list(catchers)
    if args.list or not args.names:
        for name, tests in catchers.items():
            print(f"{name}: caught by {', '.join(test.split('::')[-1] for test in tests)}")
        return
    unknown = [name for name in args.names if name not in catchers]
    if unknown:
        parser.error(f"no break {', '.join(unknown)}: see --list")
    import time

    started = time.monotonic()
    env = os.environ.copy()
    env.pop("DI_MUTATION", None)
    needs_smoke = any(test in SMOKE_RUN_TESTS for name in args.names for test in catchers[name])
    smoke = args.smoke_repo or (smoke_run(env) if needs_smoke else None)
    caught = {}
    for name in args.names:
        if name in RUN_EDITS:
            broken = env | {"DI_SMOKE_REPO": str(edited_copy(smoke, name))}
        else:
            broken = env | {"DI_MUTATION": name, "PYTHONPATH": os.pathsep.join(filter(None, [str(HOOKS), env.get("PYTHONPATH")]))}
            if smoke:
                broken["DI_SMOKE_REPO"] = str(smoke)
        caught[name] = failed_tests(catchers[name], broken)
    verdicts = [
        f"{name}: {'caught' if test in failed else 'NOT CAUGHT (its set-up errored)' if test in errored else 'NOT CAUGHT'} by {test.split('::')[-1]}"
        for name, (failed, errored) in caught.items()
        for test in catchers[name]
    ]
    print("\n".join(verdicts))
    every = all(set(catchers[name]) <= failed for name, (failed, _) in caught.items())
    if args.report:
        args.report.write_text(_report_header(started, every) + "\n".join(verdicts) + "\n", encoding="utf-8")
    sys.exit(0 if every else 1)


def _report_header(started: float, every: bool) -> str:
    import time

    from directional_inference.compute import cpu_name

    commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    return (
        f"# tests/mutate.py: each break and the tests that must fail under it (a test whose set-up errored catches nothing)\n"
        f"# code {commit}, {time.strftime('%Y-%m-%d')}, {cpu_name()}, {(time.monotonic() - started) / 60:.0f} min; "
        f"{'every break caught' if every else 'NOT every break caught'}\n"
    )


if __name__ == "__main__":
    main()
