"""Rule generate_booqa_negatives: WordNet-hyponym negatives of every positive, felicity- and absence-checked."""

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.booqa.negatives import generate_negatives
from directional_inference.booqa.senses import SenseChooser
from directional_inference.relations.shards import load_relations
from directional_inference.rulelog import log_to_file
from directional_inference.resources.wordnet import open_wordnet

log_to_file(snakemake.log[0])
import torch  # noqa: E402

torch.set_num_threads(snakemake.threads)
lang, settings = snakemake.wildcards.lang, snakemake.params.settings
counts = pd.read_parquet(snakemake.input.counts).set_index(["pred", "subj_type", "obj_type"])["count"]
encode = None
if snakemake.input.encoder:
    from directional_inference.encoders import SentenceEncoder

    encode = SentenceEncoder(snakemake.input.encoder[0], pooling="mean")
chooser = SenseChooser(open_wordnet(snakemake.input.wordnet), lang, settings["wsd"], encode)
relations = load_relations(snakemake.input.relations, pd.read_parquet(snakemake.input.articles))
negatives = generate_negatives(pd.read_parquet(snakemake.input.positives), relations, counts, lang, chooser, settings["felicity_min_pairs"],
                               negatives_of_negated_predicates=settings["negatives_of_negated_predicates"])
with atomic_file(snakemake.output[0]) as tmp:
    negatives.to_parquet(tmp, index=False)
