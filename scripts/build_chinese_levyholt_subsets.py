"""Rule build_chinese_levyholt_subsets: Full / Directional / Symmetric of the user-supplied Chinese LevyHolt (+ H-only)."""

from pathlib import Path

from directional_inference.levyholt.chinese import write_chinese_levyholt
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
params = snakemake.params
write_chinese_levyholt(
    Path(snakemake.output.table).parent,
    snakemake.input[0],
    seed=params.seed,
    limits=params.limits,
    dev_pairs=params.dev_pairs,
    hypothesis_only_premise=(params.premise, "", ""),
)
