"""Rule select_booqa_positives: starring argument pairs x felicitous predicates, one positive per sentence at most."""

from directional_inference.booqa.positives import select_positives
from directional_inference.engine import job_engine
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
output = snakemake.output
with job_engine(snakemake) as engine:
    select_positives(
        engine,
        snakemake.input.relations,
        snakemake.wildcards.lang,
        **snakemake.params.settings,
        seed=snakemake.params.seed,
        positives_path=output.positives,
        counts_path=output.counts,
    )
