"""Rule make_table17: local entailment graphs on Holt's (2019) LevyHolt directional subset, AUC50 beside the paper's."""

from directional_inference.engine import job_engine
from directional_inference.tables.table17 import read_directional_subset, table17_rows
from directional_inference.tables.common import Evaluation, write_csv
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
params = snakemake.params
directional = f"{snakemake.input.levyholt}/LevyHoltDS/test_dir"
subset = read_directional_subset(f"{directional}/test_dir_s.txt", f"{directional}/test_dir_rels.txt")
graph, why_not = None, ""
if snakemake.input.get("graph"):
    import spacy

    graph, nlp = snakemake.input.graph, spacy.load(params.spacy_model)
else:
    nlp, why_not = None, "not run: English is not among booqa.languages, so there is no English corpus graph"
with job_engine(snakemake) as engine:
    header, rows = table17_rows(
        engine,
        subset,
        graph,
        params.measures,
        nlp,
        lookup=params.lookup,
        graph_name=params.graph_name,
        scale=params.scale,
        evaluation=Evaluation(**params.evaluation),
        why_not=why_not,
    )
write_csv(snakemake.output[0], header, rows)
