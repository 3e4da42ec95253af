"""Rule build_levyholt_whole_tests: the whole test sets (never subsampled) that predictions made elsewhere cover."""

from pathlib import Path

from directional_inference.levyholt.english import write_whole_tests
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
write_whole_tests(
    Path(snakemake.output[0]).parents[1],
    [Path(path).parent.name for path in snakemake.output],
    levyholt_dir=snakemake.input.raw,
    authors_dir=snakemake.input.authors,
    source=snakemake.params.source,
    seed=snakemake.params.seed,
    authors_subsets=snakemake.params.authors_subsets,
    resplit=snakemake.params.resplit,
    dev_pairs=snakemake.params.dev_pairs,
)
