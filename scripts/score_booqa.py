"""Rule score_booqa: one method's scores of every entry of a BoOQA split (max over the entry's evidence)."""

import logging

import pandas as pd

from directional_inference import booqa_scoring
from directional_inference.atomic import atomic_file
from directional_inference.booqa_methods import METHODS
from directional_inference.evidence import cap_per_entry
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
import torch  # noqa: E402

torch.set_num_threads(snakemake.threads)
lang, method, settings = snakemake.wildcards.lang, snakemake.wildcards.method, snakemake.params.settings
family, detail = METHODS[method]
entries = pd.read_parquet(snakemake.input.split)
evidence = pd.read_parquet(snakemake.input.evidence)
if family == "lm":
    from directional_inference.encoders import SentenceEncoder

    pooling = "cls" if settings["lm_pooling"] == "cls" else "mean"
    scores, ratio = booqa_scoring.lm_cosine(entries, evidence, SentenceEncoder(snakemake.input.model, pooling=pooling), lang, detail)
elif family == "sns":
    from directional_inference.sns import PromptScorer

    if lang == "zh":  # the paper capped S&S evidence for Chinese
        evidence = cap_per_entry(evidence, "entry", settings["evidence_cap_ss_zh"], settings["seed"])
    scorer = PromptScorer(snakemake.input.model, max_length=settings["max_length"], symmetric=detail[0] == "sns_sym")
    scores, ratio = booqa_scoring.prompt_model(entries, evidence, scorer, lang)
else:
    scores, ratio = booqa_scoring.graph_scores(entries, evidence, pd.read_parquet(snakemake.input.graph), detail, fuzzy=settings["fuzzy_backoff"])
logging.info("%s on %s/%s: deduplication ratio %.2f", method, lang, snakemake.wildcards.split, ratio)
frame = pd.DataFrame({"entry": entries["id"], "label": entries["label"].astype("int8"), "score": scores})
with atomic_file(snakemake.output[0]) as tmp:
    frame.to_parquet(tmp, index=False)
