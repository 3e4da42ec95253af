"""Rules fetch_dataset and fetch_newscrawl_year: one dataset of the input table (or one year of News Crawl) into
resources/, sha256-verified."""

from directional_inference.resources.fetch import ChecksumLock, fetch_dataset, newscrawl_auth
from directional_inference.resources.inputs import open_mirrors
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
year = snakemake.wildcards.get("year")
dataset = "newscrawl" if year else snakemake.wildcards.dataset
only, auth = None, None
if dataset == "newscrawl":
    only = [f"news-docs.{year}.en.filtered.gz"]
    auth = newscrawl_auth(snakemake.config)
mirrors = open_mirrors(snakemake.config.get("mirror"))
fetch_dataset(dataset, snakemake.output[0], mirrors, only=only, auth=auth, lock=ChecksumLock())
