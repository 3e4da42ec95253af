"""Test hooks, loaded by every Python process of a test run whose PYTHONPATH names this folder (tests/test_recovery.py,
tests/mutate.py, tests/test_slurm.py).

* ``DI_HOLD_JOBS=<folder>``: every atomic write of the package (``atomic.atomic_file``, ``atomic.atomic_directory``)
  stops once its block has written the temporary ``.part`` file or folder and before the rename that publishes it: the process writes
  ``<folder>/<pid>-<n>.held`` (JSON: ``target``, the file being written, relative to the working directory; ``part``,
  the temporary file; ``pid``) and waits until the test removes it (let go) or kills the process there. A job killed
  at its hold has done its work: its ``.part`` is written and, for an out-of-core job that writes inside its engine,
  its scratch folder holds what it staged. ``DI_HOLD_TARGETS`` (paths joined by ``os.pathsep``) holds only the writes of
  those targets: a download writes thousands of files, each a hold of some 40 ms otherwise.
* ``DI_SCORING_BATCH_ROWS=<n>``: BoOQA's LM, S&S and LLM scorings read their evidence in batches of ``n`` rows and save
  their progress after every batch (``resume.ScoringProgress`` with ``every_s`` 0), so that a small split
  has several batches to resume between. The scores do not depend on the batches (a maximum over them).
* ``DI_CHECKPOINT_INTERVAL_S=<s>``: a training trial writes its checkpoint at most once per ``s`` seconds
  (``sns.training.CHECKPOINT_INTERVAL_S``, 300): at 0 a smoke trial writes one at its dev evaluation and one at its
  epoch's end, so that a kill can come after a checkpoint. What a trial computes does not depend on its checkpoints.
* ``DI_SLURM_MAX_POLL_S=<s>``: the SLURM executor waits at most ``s`` seconds between its status checks. Its own rule
  adds 10 s to the wait after every check that finds no job finished, up to 180 s (MinJobAge on a real cluster), so
  that on a one-node test cluster most of a run was spent waiting to see that short jobs had ended.
* ``DI_MUTATION=<name>``: one deliberate break of a guarantee (``MUTATIONS``), for tests/mutate.py, which shows that
  the tests of the guarantee fail with it.

Nothing of the workflow is changed on disk: the hook patches the modules as they are imported.
"""

import contextlib
import itertools
import json
import os
import sys
import time

_HOLD = os.environ.get("DI_HOLD_JOBS")
_HOLD_TARGETS = set(filter(None, os.environ.get("DI_HOLD_TARGETS", "").split(os.pathsep)))
_BATCH_ROWS = os.environ.get("DI_SCORING_BATCH_ROWS")
_MUTATION = os.environ.get("DI_MUTATION")
_SLURM_MAX_POLL_S = os.environ.get("DI_SLURM_MAX_POLL_S")
_CHECKPOINT_INTERVAL_S = os.environ.get("DI_CHECKPOINT_INTERVAL_S")
_COUNT = itertools.count()


def _hold(target, part) -> None:
    target = os.path.relpath(os.path.abspath(target))
    if _HOLD_TARGETS and target not in _HOLD_TARGETS:
        return
    flag = os.path.join(_HOLD, f"{os.getpid()}-{next(_COUNT)}.held")
    record = {"target": target, "part": os.path.abspath(part), "pid": os.getpid()}
    with open(flag + ".tmp", "w") as out:
        json.dump(record, out)
    os.replace(flag + ".tmp", flag)
    while os.path.exists(flag):
        time.sleep(0.02)


def _patch_atomic(module) -> None:
    for name in ("atomic_file", "atomic_directory"):
        write = getattr(module, name)

        @contextlib.contextmanager
        def held(path, write=write):
            with write(path) as part:
                yield part
                _hold(path, part)  # the block has written the .part; the rename comes after

        setattr(module, name, held)


def _patch_scoring(module) -> None:
    for family in module.BATCH_ROWS:
        module.BATCH_ROWS[family] = int(_BATCH_ROWS)


def _patch_resume(module) -> None:
    start = module.ScoringProgress.__init__

    def every_batch(self, *args, **kwargs):
        start(self, *args, **kwargs)
        self.every_s = 0.0

    module.ScoringProgress.__init__ = every_batch


def _patch_checkpoint_interval(module) -> None:
    module.CHECKPOINT_INTERVAL_S = float(_CHECKPOINT_INTERVAL_S)


def _path_signature(settings, inputs):
    import hashlib

    return hashlib.sha256(
        json.dumps({"settings": settings, "files": [str(item) for item in inputs]}, sort_keys=True, default=str).encode()
    ).hexdigest()


def _patch_status_checks(module) -> None:
    interval = module.RemoteExecutor.next_seconds_between_status_checks

    def capped(self, value):
        interval.fset(self, value if value is None else min(value, float(_SLURM_MAX_POLL_S)))

    module.RemoteExecutor.next_seconds_between_status_checks = interval.setter(capped)


def _pool_ignored(module) -> None:
    start = module.Engine.__init__

    def roomy(self, *args, **kwargs):
        kwargs["pool_mb"] = 8000
        start(self, *args, **kwargs)

    module.Engine.__init__ = roomy


def _no_spill(module) -> None:
    start = module.Engine.__init__

    def without_spill(self, *args, **kwargs):
        start(self, *args, **kwargs)
        self.con.execute("SET temp_directory = ''")

    module.Engine.__init__ = without_spill


def _mark_everything(module) -> None:
    from directional_inference.workflow import snakemake_state

    mark = module.mark_stale_outputs

    def everything(state_dir, *args, **kwargs):
        stale = mark(state_dir, *args, **kwargs)
        if stale:  # after a kill: every output, not only those made from what the kill took
            recorded = snakemake_state.recorded_outputs(state_dir)
            snakemake_state.mark_incomplete(state_dir, recorded)
            stale = dict.fromkeys(recorded, "marked by the mutation")
        return stale

    module.mark_stale_outputs = everything


def _unordered_writes(module) -> None:
    import re

    def unordered(sql: str) -> str:
        return re.sub(r"\s+ORDER BY\s+[^()]*$", "", sql, flags=re.IGNORECASE | re.DOTALL)

    write, write_all = module.Engine.write, module.Engine.write_all
    module.Engine.write = lambda self, sql, *args, **kwargs: write(self, unordered(sql), *args, **kwargs)
    module.Engine.write_all = lambda self, queries, *args, **kwargs: write_all(self, (unordered(sql) for sql in queries), *args, **kwargs)


# name -> (module, what is replaced in it by what), each the break of one guarantee
def _threads_out_of_signature(module) -> None:
    """A trial's checkpoint resumed whatever the thread count it was saved at."""

    def resumable(saved_signature, signature):
        def without_threads(found):
            return json.dumps(found | {"settings": {k: v for k, v in found["settings"].items() if k != "threads"}}, sort_keys=True)

        return without_threads(json.loads(saved_signature)) == without_threads(signature)

    module.resumable = resumable


def _never_resumes(of_kind):
    """The scorings whose progress file ``of_kind`` accepts ignore what they saved (the others resume)."""

    def patch(module):
        load = module.ScoringProgress.load
        module.ScoringProgress.load = lambda self, entries: None if of_kind(self.path) else load(self, entries)

    return patch


def _booqa_method(path) -> str:
    """The BoOQA method of a scoring's progress file (``.checkpoints/booqa_scores/<lang>/<split>/<method>[.part-k].npz``), or ""."""
    return path.name.split(".")[0] if "booqa_scores" in path.parts else ""


MUTATIONS = {
    # a run no longer removes the scratch folders that killed jobs left
    "keep-scratch": ("directional_inference.recovery.start", lambda module: setattr(module, "sweep_scratch", lambda root, workdir=None: [])),
    # a writer no longer removes the .part files that an interrupted writer of its output left
    "keep-part-files": ("directional_inference.atomic", lambda module: setattr(module, "remove_stale_temporaries", lambda target: [])),
    # a run no longer marks the outputs made from what a killed job took with it
    "no-stale-marking": ("directional_inference.recovery.start", lambda module: setattr(module, "mark_stale_outputs", lambda *a, **k: {})),
    # a run that finds stale outputs marks every output it has a record of: a rerun after a kill makes everything again
    "mark-everything": ("directional_inference.recovery.start", _mark_everything),
    # a scoring never resumes its saved progress
    "never-resume": ("directional_inference.resume", lambda module: setattr(module.ScoringProgress, "load", lambda self, entries: None)),
    # the signature of a scoring's inputs reads their paths, not the files
    "signature-of-paths": ("directional_inference.resume", lambda module: setattr(module, "input_signature", _path_signature)),
    # a scoring leaves its progress file after it has written its scores
    "keep-progress": ("directional_inference.resume", lambda module: setattr(module.ScoringProgress, "remove", lambda self: None)),
    # an engine job's buffer pool is 8 GB whatever it was given: a job never spills, its memory is unbounded
    "pool-ignored": ("directional_inference.engine", _pool_ignored),
    # the engine has no folder to spill to: a job whose data outgrows its pool stops with "out of memory"
    "no-spill": ("directional_inference.engine", _no_spill),
    # the engine writes the rows of a query in the order its threads produce them (its final ORDER BY dropped)
    "unordered-writes": ("directional_inference.engine", _unordered_writes),
    # a trial killed at one thread count and resumed at another mixes their sums
    "threads-out-of-signature": ("directional_inference.sns.training", _threads_out_of_signature),
    # a run sweeps the scratch folders of this directory even while another run works in it (its jobs' scratch too)
    "no-sweep-guard": ("directional_inference.recovery.start", lambda module: setattr(module, "other_runs", lambda state_dir: [])),
    # a training trial never resumes its checkpoint: a kill costs the trial's whole training again
    "trial-never-resumes": ("directional_inference.sns.training", lambda module: setattr(module, "resumable", lambda saved, signature: False)),
    # BoOQA's S&S scorings never resume their saved progress (the LM's and LLM's do)
    "sns-scoring-never-resumes": (
        "directional_inference.resume",
        _never_resumes(lambda path: _booqa_method(path).startswith(("sns_", "sym_sns_"))),
    ),
    # the LLM scorings (of LevyHolt, and of BoOQA) never resume their saved progress
    "llm-scoring-never-resumes": (
        "directional_inference.resume",
        _never_resumes(lambda path: "llm_scores" in path.parts or _booqa_method(path).startswith("llm")),
    ),
    # evidence retrieval chooses in chunks of a fixed 2M matched rows, whatever the pool: a small pool stops with "out of memory"
    "fixed-evidence-chunks": (
        "directional_inference.evaluation.evidence",
        lambda module: setattr(module, "chunk_rows", lambda engine: module.CHUNK_ROWS),
    ),
}

PATCHES: dict = {}  # module -> the patches to apply once it has run
if _MUTATION:
    _module, _patch = MUTATIONS[_MUTATION]
    PATCHES.setdefault(_module, []).append(_patch)
if _HOLD:
    PATCHES.setdefault("directional_inference.atomic", []).append(_patch_atomic)
if _CHECKPOINT_INTERVAL_S:
    PATCHES.setdefault("directional_inference.sns.training", []).append(_patch_checkpoint_interval)
if _SLURM_MAX_POLL_S:
    PATCHES.setdefault("snakemake_interface_executor_plugins.executors.remote", []).append(_patch_status_checks)
if _BATCH_ROWS:
    PATCHES.setdefault("directional_inference.evaluation.scoring", []).append(_patch_scoring)
    PATCHES.setdefault("directional_inference.resume", []).append(_patch_resume)


class _PatchOnImport:
    """A meta path finder that lets the real finders find a module of PATCHES and patches it once it has run."""

    def find_spec(self, name, path=None, target=None):
        if name not in PATCHES:
            return None
        for finder in sys.meta_path:
            spec = None if finder is self else getattr(finder, "find_spec", lambda *a: None)(name, path, target)
            if spec is not None:
                break
        else:
            return None
        run_module = spec.loader.exec_module

        def exec_module(module):
            run_module(module)
            for patch in PATCHES[name]:
                patch(module)

        spec.loader.exec_module = exec_module
        return spec


if PATCHES:
    sys.meta_path.insert(0, _PatchOnImport())
