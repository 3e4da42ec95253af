"""Rule make_table4: BoOQA positives / negatives per split and language beside the paper's Table 4, and the evidence
per entry (written by write_booqa_card) beside what the paper's starring rule gives."""

import pandas as pd

from directional_inference import layout
from directional_inference.booqa.release import DENSITY_COLUMNS, PAPER_EVIDENCE_PER_ENTRY, PAPER_TABLE4, read_evidence_density
from directional_inference.tables.common import write_csv
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
evidence_columns = DENSITY_COLUMNS[2:]
rows = []
for lang in snakemake.params.languages:
    densities = read_evidence_density(layout.booqa_file(lang, "evidence_density.csv"))
    for split in ("dev", "test"):
        frame = pd.read_parquet(layout.booqa_split(lang, split))
        positives, negatives = int(frame["label"].sum()), int((~frame["label"]).sum())
        paper_pos, paper_neg = PAPER_TABLE4[(lang, split)]
        rate = f"{positives / len(frame):.4f}" if len(frame) else ""
        density = [densities[split][column] for column in evidence_columns]
        rows.append(
            [
                lang,
                split,
                positives,
                negatives,
                rate,
                paper_pos,
                paper_neg,
                *density,
                PAPER_EVIDENCE_PER_ENTRY,
                snakemake.params.sources[lang],
                snakemake.params.scale,
            ]
        )
header = [
    "language",
    "split",
    "positives",
    "negatives",
    "positive_rate",
    "positives_paper",
    "negatives_paper",
    *evidence_columns,
    "evidence_per_entry_paper",
    "corpus",
    "scale",
]
write_csv(snakemake.output[0], header, rows)
