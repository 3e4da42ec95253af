"""Every out-of-core step, through Snakemake, on synthetic relations (the scale benchmark's model, 5 times the default's
English relations): one thread and a roomy buffer pool, then two threads and a 128 MB pool (``engine_pool_mb``), give
the same bytes; the merge, which holds the most, spills in the small pool. (tests/test_engine.py forces the merge to
spill on its own; the narrow steps after it hold less than 128 MB here.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from conftest import REPO, copy_workflow, run_snakemake
from test_engine import SMALL_POOL_MB  # below the merge's data, above what DuckDB's sort must pin

pytestmark = pytest.mark.workflow

ENGINE_RULES = (
    "merge_relations",
    "describe_imported_corpus",
    "select_booqa_positives",
    "generate_booqa_negatives",
    "validate_booqa",
    "write_booqa_card",
    "retrieve_booqa_evidence",
    "build_entailment_graph",
    "score_booqa",
)
TARGETS = (
    "results/en/booqa/validation.json",
    "results/en/booqa/README.md",
    "results/booqa_scores/en/dev/graph_binc.parquet",
    "results/booqa_scores/en/test/graph_binc.parquet",
)


@pytest.fixture(scope="module")
def synthetic_relations(tmp_path_factory) -> Path:
    from directional_inference.relations.synthetic import SyntheticModel, generate_relations

    model = SyntheticModel.load(REPO / "benchmarks" / "synthetic_relations.json")
    folder = tmp_path_factory.mktemp("synthetic-relations")
    generate_relations(model, 5 * model.base_relations, folder, seed=11, file_relations=150_000)
    return folder


def _run(workdir: Path, relations: Path, threads: int, pool_mb: int | None) -> dict[str, str]:
    copy_workflow(workdir)
    overlay = {
        "booqa": {
            "languages": ["en"],
            "starring_min_articles": 5,
            "starring_min_predicates": 5,
            "felicity_min_pairs": 10,
            "wsd": "first_sense",
            "overrides": None,
        },
        "graphs": {"measures": ["binc"]},
        "corpus": {"en": {"window_days": 3}},
        "resources": {"datasets": ["wordnet-3.0", "omw-cmn"]},
        "llm": {"released_predictions": False, "scorers": []},
        "relations": {"imported": {"en": str(relations)}},
        "scratch_root": str(workdir / "scratch"),
    }
    (workdir / "config" / "engine.yaml").write_text(yaml.safe_dump(overlay))
    settings = ["--set-threads", *(f"{rule}={threads}" for rule in ENGINE_RULES)]
    if pool_mb is not None:
        settings += ["--set-resources", *(f"{rule}:engine_pool_mb={pool_mb}" for rule in ENGINE_RULES)]
    run_snakemake(workdir, *TARGETS, "--cores", "2", "--configfile", "config/config.yaml", "config/engine.yaml", *settings)
    return {str(p.relative_to(workdir)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((workdir / "results").rglob("*")) if p.is_file()}


def _spilled(workdir: Path) -> set[str]:
    """The rules whose DuckDB wrote spill files (its log says so when it closes: ``spilled <n> MB``)."""
    return {log.parent.name for log in (workdir / "logs").rglob("*.log") if "spilled" in log.read_text(errors="replace")}


def test_every_engine_step_gives_the_same_bytes_whatever_the_threads_and_when_it_spills(synthetic_relations, tmp_path):
    roomy = _run(tmp_path / "roomy", synthetic_relations, threads=1, pool_mb=None)
    tight = _run(tmp_path / "tight", synthetic_relations, threads=2, pool_mb=SMALL_POOL_MB)
    assert roomy == tight
    checked = yaml.safe_load((tmp_path / "tight" / "results" / "en" / "booqa" / "validation.json").read_text())["checked"]
    assert checked["positives"] > 100 and checked["negatives"] > 100  # a BoOQA worth the name ran through every step
    assert not _spilled(tmp_path / "roomy")
    assert "merge_relations" in _spilled(tmp_path / "tight")
