"""Rules fetch_dataset and fetch_newscrawl_year: one dataset of the input table (or one year of News Crawl) into
resources/, sha256-verified."""

import os

from directional_inference.resources.fetch import BasicAuth, ChecksumLock, fetch_dataset
from directional_inference.resources.inputs import open_mirrors
from directional_inference.workflow.rulelog import start_job

start_job(snakemake)
year = snakemake.wildcards.get("year")
dataset = "newscrawl" if year else snakemake.wildcards.dataset
only, auth = None, None
if dataset == "newscrawl":
    only = [f"news-docs.{year}.en.filtered.gz"]
    settings = snakemake.config["resources"]["newscrawl"]
    user = os.environ.get("NEWSCRAWL_USER") or settings["user"]
    password = os.environ.get("NEWSCRAWL_PASSWORD") or settings["password"]
    auth = BasicAuth(user, password) if user and password else None
mirrors = open_mirrors(snakemake.config.get("mirror"))
fetch_dataset(dataset, snakemake.output[0], mirrors, only=only, auth=auth, lock=ChecksumLock())
