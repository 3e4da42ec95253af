"""The resources phase run for real by Snakemake on the smoke config, from the mirror."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from conftest import copy_workflow, run_snakemake
from directional_inference.inputs import inputs_of
from directional_inference.wordnet import open_wordnet

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory, mirrors) -> Path:
    workdir = copy_workflow(tmp_path_factory.mktemp("smoke"))
    run_snakemake(workdir, "--cores", "2", "--configfile", "config/smoke.yaml")
    return workdir


def test_every_dataset_is_complete_and_verified(smoke_run):
    for dataset in ("levyholt", "levyholt-authors", "reuters21578", "zh-news", "omw-cmn", "wordnet-3.0"):
        root = smoke_run / "resources" / dataset
        expected = {item.path: item.sha256 for item in inputs_of(dataset)}
        recorded = dict(reversed(line.split("  ", 1)) for line in (root / "SHA256SUMS").read_text().splitlines())
        assert recorded == expected, dataset
        for path, sha in expected.items():
            assert hashlib.sha256((root / path).read_bytes()).hexdigest() == sha
    assert not list((smoke_run / "resources").glob(".*.part"))


def test_wordnet_root_works(smoke_run):
    wordnet = open_wordnet(smoke_run / "resources" / "nltk_data")
    assert "walk.v.01" in {s.name() for s in wordnet.synsets("走", lang="cmn")}


def test_models_load(smoke_run):
    for alias in ("tiny", "minilm"):
        path = smoke_run / "resources" / "models" / alias
        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=2)
        assert model(**tokenizer(["x acquired y"], return_tensors="pt")).logits.shape == (1, 2)


def test_rules_write_logs_and_benchmarks(smoke_run):
    benchmark = smoke_run / "logs" / "resources" / "build_wordnet" / "nltk_data.benchmark.tsv"
    header, values = benchmark.read_text().splitlines()[:2]
    assert header.split("\t")[:2] == ["s", "h:m:s"] and float(values.split("\t")[0]) > 0
    assert "走" in (smoke_run / "logs" / "resources" / "build_wordnet" / "nltk_data.log").read_text()


def test_second_run_has_nothing_to_do(smoke_run):
    result = run_snakemake(smoke_run, "-n", "--configfile", "config/smoke.yaml")
    assert "Nothing to be done" in result.stdout + result.stderr
