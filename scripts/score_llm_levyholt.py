"""Rules score_llm_levyholt and score_llm_run_test: a causal LM scores every pair of a LevyHolt test set (the whole
Directional test; this run's test sets of llm.test_sets) with the prompts of McKenna, Li et al. 2023, written as a
predictions file (llm.predictions)."""

from directional_inference.compute import set_threads
from directional_inference.llm.scorer import score_test_with_llm
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
params = snakemake.params
set_threads(params.torch_threads)
score_test_with_llm(
    snakemake.input.model,
    snakemake.input.test,
    snakemake.output[0],
    name=snakemake.wildcards.llm,
    prompts=params.prompts,
    batch_size=params.batch_size,
    precision=params.precision,
    checkpoints=params.checkpoints,
    rule=params.answer_rule,
)
