"""Rule collect_chinese_levyholt: copy the user-supplied Chinese LevyHolt into resources/ (verified, atomic)."""

from directional_inference.resources.fetch import collect_chinese_levyholt
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
collect_chinese_levyholt(snakemake.params.source, snakemake.output[0])
