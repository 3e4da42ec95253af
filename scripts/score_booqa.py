"""Rule score_booqa: one method's scores of every entry of a BoOQA split (max over the entry's evidence)."""

import logging

import pandas as pd

from directional_inference.evaluation import scoring as booqa_scoring
from directional_inference.atomic import atomic_file
from directional_inference.evaluation.methods import METHODS
from directional_inference.evaluation.evidence import cap_per_entry
from directional_inference.rulelog import log_to_file
from directional_inference.compute import set_threads

log_to_file(snakemake.log[0])
set_threads(snakemake.params.torch_threads)
lang, method, settings = snakemake.wildcards.lang, snakemake.wildcards.method, snakemake.params.settings
family, detail = METHODS[method]
entries = pd.read_parquet(snakemake.input.split)
evidence = pd.read_parquet(snakemake.input.evidence)
if family == "lm":
    scores, ratio = booqa_scoring.lm_scores(entries, evidence, snakemake.input.model, lang, detail, pooling=settings["lm_pooling"],
                                            window=settings["lm_window"], nltk_data=snakemake.input.get("wordnet"))
elif family == "sns":
    from directional_inference.sns.model import PromptScorer

    if lang == "zh":  # the paper capped S&S evidence for Chinese
        evidence = cap_per_entry(evidence, "entry", settings["evidence_cap_ss_zh"], settings["seed"])
    symmetric = settings.get("sym_sns_prompts") == "symmetric"
    scorer = PromptScorer(snakemake.input.model, max_length=settings["max_length"], symmetric=symmetric, lang=lang,
                          precision=settings["precision"])
    scores, ratio = booqa_scoring.prompt_model(entries, evidence, scorer, lang)
else:
    scores, ratio = booqa_scoring.graph_scores(entries, evidence, pd.read_parquet(snakemake.input.graph), detail, **settings["lookup"])
logging.info("%s on %s/%s: deduplication ratio %.2f", method, lang, snakemake.wildcards.split, ratio)
covered = booqa_scoring.covered_entries(entries, evidence, scores, family)
logging.info("%s on %s/%s: %d of %d entries scored from evidence (coverage %.3f)", method, lang, snakemake.wildcards.split, covered.sum(),
             len(entries), covered.mean() if len(entries) else float("nan"))
frame = pd.DataFrame({"entry": entries["id"], "label": entries["label"].astype("int8"), "score": scores, "group": entries["bundle_id"],
                      "covered": covered})
with atomic_file(snakemake.output[0]) as tmp:
    frame.to_parquet(tmp, index=False)
