"""Rule collect_clue_news: copy the user-supplied CLUE news2016zh files into resources/ (verified, atomic)."""

from directional_inference.resources.fetch import collect_clue_news
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
collect_clue_news(snakemake.params.source, snakemake.output[0])
