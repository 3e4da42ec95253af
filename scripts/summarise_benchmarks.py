"""Rule summarise_benchmarks: time and memory per rule, from every benchmark file under logs/."""

from directional_inference.workflow.benchmarks import summarise_benchmarks
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
summarise_benchmarks("logs", snakemake.output[0])
