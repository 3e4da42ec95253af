"""Rule make_table4: BoOQA positives / negatives per split and language beside the paper's Table 4."""

import pandas as pd

from directional_inference.booqa.release import PAPER_TABLE4
from directional_inference.tables.common import write_csv
from directional_inference.rulelog import log_to_file

log_to_file(snakemake.log[0])
rows = []
for lang in snakemake.params.languages:
    for split in ("dev", "test"):
        frame = pd.read_parquet(f"results/{lang}/booqa/{split}.parquet")
        positives, negatives = int(frame["label"].sum()), int((~frame["label"]).sum())
        paper_pos, paper_neg = PAPER_TABLE4[(lang, split)]
        rate = f"{positives / len(frame):.4f}" if len(frame) else ""
        rows.append([lang, split, positives, negatives, rate, paper_pos, paper_neg, snakemake.params.sources[lang], snakemake.params.scale])
header = ["language", "split", "positives", "negatives", "positive_rate", "positives_paper", "negatives_paper", "corpus", "scale"]
write_csv(snakemake.output[0], header, rows)
