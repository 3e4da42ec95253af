"""Rule build_levyholt_subsets: LevyHolt subsets (+ hypothesis-only variants), SherLIiC and count tables."""

from pathlib import Path

from directional_inference.levyholt.english import write_levyholt_datasets
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
write_levyholt_datasets(
    Path(snakemake.output.subgroups).parent,
    levyholt_dir=snakemake.input.raw,
    authors_dir=snakemake.input.authors,
    source=snakemake.params.source,
    seed=snakemake.params.seed,
    limits=snakemake.params.limits,
    authors_subsets=snakemake.params.authors_subsets,
    resplit=snakemake.params.resplit,
    dev_pairs=snakemake.params.dev_pairs,
    hypothesis_only_premise=(snakemake.params.premise, "", ""),
)
