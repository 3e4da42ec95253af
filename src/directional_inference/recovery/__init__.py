"""Recovery: what every run does at its start so that a rerun after any kill, failure or change gives the bytes of a
clean run (``start.recover_at_start``, called by rules/recovery.smk in Snakemake's main process).

- ``locks``: the lock of a Snakemake run that is gone is removed, never a live run's;
- ``outputs``: outputs made from what a dead job took with it, or older than the code their script runs, are marked to
  be made again;
- ``start``: the scratch folders a killed job left (``directional_inference.scratch``: each job's folder for the
  engine's spill and staged files, emptied at its start, removed at its end) swept when no run works in the directory.
"""
