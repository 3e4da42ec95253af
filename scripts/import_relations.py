"""Rule import_relations: one relation file made elsewhere (relations.imported), checked, as a relation shard."""

from directional_inference.relations.imported import import_relations
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
import_relations(
    snakemake.input[0],
    snakemake.output[0],
    snakemake.params.window_days,
    max_chars=snakemake.params.max_chars,
    empty_files=snakemake.params.empty_files,
)
