"""Rule read_authors_trials: the authors' hyper-parameter sets, element k of the arrays of their training scripts as
trial k (training.trial_source: authors), read once the scripts' sha256 match the input table."""

from directional_inference.workflow.rulelog import start_job
from directional_inference.sns.authors import SETS, authors_trials
from directional_inference.sns.search import write_trials

start_job(snakemake)
write_trials(snakemake.output[0], authors_trials(snakemake.input.scripts, SETS))
