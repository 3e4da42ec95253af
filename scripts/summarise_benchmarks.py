"""Rule summarise_benchmarks: time and memory per rule, from every benchmark file under logs/."""

from directional_inference.workflow.benchmarks import summarise_benchmarks
from directional_inference.workflow.rulelog import log_to_file

log_to_file(snakemake.log[0])
summarise_benchmarks("logs", snakemake.output[0])
