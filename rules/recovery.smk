# What every run does before its first job. Recovery, once all rules are known (src/directional_inference/recovery/): the lock of a run
# that is gone is removed; outputs made from what a killed or failed job took with it, or older than the package code
# their script runs, are marked incomplete so that this run makes them again; the scratch folders killed jobs left are
# removed when no other run works in this directory. Snakemake's main process only: cluster and subprocess jobs re-parse
# this file and must not touch the run's state. Then a local run's checks of its GPU and its forecast (at_run_start).
from directional_inference.compute import local_gpu_problems
from directional_inference.recovery.start import recover_at_start
from directional_inference.tools.run_forecast import forecast_at_run_start
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


def at_run_start():
    """What a run does before its first job (the onstart handler; never in a dry run): a local run whose jobs ask for a
    GPU stops where torch sees none; a local run says how long it will take here (tools.run_forecast)."""
    if not workflow.local_exec:
        return
    if model_gpus() > 0:
        stop_for_config(local_gpu_problems(model_gpus()), "Error: this run cannot start on this machine:")
    print(forecast_at_run_start(workflow, config, run_cores(), workflow.basedir), file=sys.stderr)


onstart:
    at_run_start()
    if LOCK_OWNER is not None:  # the lock files this run holds, for a later run to recognise if this one dies
        LOCK_OWNER.record_locks(lock_files(workflow))
