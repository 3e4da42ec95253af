"""Rule check_sns_model: the selected model on cases any entailment model must get right (identity pairs, paraphrases,
non-entailments); sanity.csv holds every case's score, and the log says loudly when the model fails a kind."""

from directional_inference.atomic import write_text_atomic
from directional_inference.compute import set_threads
from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.sanity import check_model, format_rows

start_job(snakemake)
params = snakemake.params
set_threads(params.torch_threads)
rows, _ = check_model(snakemake.input.model, **params.scorer)
write_text_atomic(snakemake.output[0], format_rows(rows))
