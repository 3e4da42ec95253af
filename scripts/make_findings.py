"""Rule make_findings: one row per claim of the paper that this run can test, with a verdict from its paired interval
(results/findings.csv), and its reading as Markdown (results/findings.md)."""

from directional_inference.atomic import write_text_atomic
from directional_inference.booqa.release import read_evidence_density
from directional_inference.layout import search_directory
from directional_inference.workflow.rulelog import start_job
from directional_inference.tables.common import Evaluation, read_model_record, write_csv
from directional_inference.tables.findings import CLAIMS, HEADER, claim_row, claim_scores, findings_markdown

start_job(snakemake)
params = snakemake.params
evaluation = Evaluation(**params.evaluation)
claims = [CLAIMS[k] for k in params.claims]
frames = {s: claim_scores(s, params.lm) for claim in claims for s in (claim.a, claim.b) if s is not None}
density = read_evidence_density(snakemake.input.density)["test"] if snakemake.input.get("density") else {}
median = float(density["evidence_median"]) if density.get("evidence_median") else None


def record(scores):
    model = scores.model
    return read_model_record(search_directory(params.lm, *model)) if model else None


rows = [claim_row(claim, frames, evaluation, record=record, evidence_median=median, lm=params.lm) for claim in claims]
write_csv(snakemake.output.csv, HEADER, rows)
write_text_atomic(snakemake.output.markdown, findings_markdown(HEADER, rows, params.scale))
