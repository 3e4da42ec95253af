"""Rule generate_booqa_negatives: WordNet-hyponym negatives of every positive, felicity- and absence-checked."""

from directional_inference.booqa.negatives import generate_negatives
from directional_inference.booqa.senses import SenseChooser
from directional_inference.engine import job_engine
from directional_inference.resources.wordnet import open_wordnet
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
import torch  # noqa: E402

torch.set_num_threads(snakemake.threads)
inputs, lang, settings = snakemake.input, snakemake.wildcards.lang, snakemake.params.settings
encode = None
if inputs.encoder:
    from directional_inference.encoders import SentenceEncoder

    encode = SentenceEncoder(inputs.encoder[0], pooling="mean")
chooser = SenseChooser(open_wordnet(inputs.wordnet), lang, settings["wsd"], encode)
with job_engine(snakemake) as engine:
    engine.table("counts", inputs.counts)
    generate_negatives(
        engine,
        inputs.positives,
        inputs.relations,
        lang,
        chooser,
        settings["felicity_min_pairs"],
        negatives_of_negated_predicates=settings["negatives_of_negated_predicates"],
        output=snakemake.output[0],
    )
