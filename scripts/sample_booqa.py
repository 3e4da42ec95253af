"""Rule sample_booqa: frequency-matched bundles per window, split into dev and test; Parquet and JSON lines."""

import pandas as pd

from directional_inference.atomic import atomic_file
from directional_inference.booqa.release import write_split
from directional_inference.booqa.sampling import POSITIVE_COLUMNS, sample_bundles
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
settings, output = snakemake.params.settings, snakemake.output
articles = pd.read_parquet(snakemake.input.articles, columns=["window"])
splits = sample_bundles(
    pd.read_parquet(snakemake.input.positives, columns=POSITIVE_COLUMNS),
    pd.read_parquet(snakemake.input.negatives, columns=["positive_id", "pred", "frequency"]),
    articles.groupby("window").size().to_dict(),
    **settings,
    seed=snakemake.params.seed,
)
write_split(splits["dev"], output.dev, output.dev_jsonl)
write_split(splits["test"], output.test, output.test_jsonl)
with atomic_file(output.reserved) as tmp:
    splits["reserved_windows"].to_csv(tmp, index=False)
