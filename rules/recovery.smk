# Recovery at the start of every run, once all rules are known (src/directional_inference/recovery/): the lock of a run
# that is gone is removed; outputs made from what a killed or failed job took with it, or older than the package code
# their script runs, are marked incomplete so that this run makes them again; the scratch folders killed jobs left are
# removed when no other run works in this directory. Snakemake's main process only: cluster and subprocess jobs re-parse
# this file and must not touch the run's state.
from directional_inference.recovery.start import recover_at_start
from directional_inference.workflow.snakemake_state import lock_files, metadata_in_files

LOCK_OWNER = None
if workflow.is_main_process:
    LOCK_OWNER = recover_at_start(
        ".snakemake",
        workflow.rules,
        os.path.join(workflow.basedir, "src", "directional_inference"),
        config.get("scratch_root"),
        metadata_in_files=metadata_in_files(workflow),
        tell=lambda message: print(message, file=sys.stderr),
    )


onstart:
    at_run_start()
    if LOCK_OWNER is not None:  # the lock files this run holds, for a later run to recognise if this one dies
        LOCK_OWNER.record_locks(lock_files(workflow))
