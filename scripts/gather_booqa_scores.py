"""Rule gather_booqa_scores: the scoring jobs' chunks of one method's scores on one split, in entry order, as one file."""

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
frame = pd.concat([pd.read_parquet(path) for path in snakemake.input.parts], ignore_index=True)
with atomic_file(snakemake.output[0]) as tmp:
    frame.to_parquet(tmp, index=False)
