"""Rule gather_newscrawl: the years of News Crawl, each fetched by its own job, as one dataset directory."""

from directional_inference.resources.fetch import gather_fetched
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
gather_fetched(snakemake.input, snakemake.output[0])
