"""Every out-of-core step, through Snakemake, on synthetic relations (the scale benchmark's model, 5 times the default's
English relations): one thread and a roomy buffer pool, two threads and a 128 MB pool (``engine_pool_mb``), and four
threads and a 256 MB pool give the same bytes. In the 128 MB pool the merge, which holds the most, spills; the
negatives get a pool of their own below their data (``NEGATIVES_POOL_MB``), where they spill too (8-14 MB at 2
threads, 2-9 MB at 4). Every job that spilled stays within the spill bound (SPILL_BOUND times its Parquet input).
(tests/test_engine.py forces the merge to spill on its own at 1, 2 and 4 threads.) The positives (32 MB) and the graph build
(48 MB) spill at one thread, called directly (the last two tests). Evidence and scoring hold too little on this data
to spill: docs/operations.md, "Spill bound". Spill figures are exact: DuckDB's profiler (``Engine.spilled_mb``)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import REPO, copy_workflow, run_snakemake
from test_engine import FOUR_THREAD_POOL_MB, SMALL_POOL_MB, SPILL_BOUND  # pools below the merge's data, above what DuckDB's sort must pin

# The negatives' pool by threads: below their data, above what DuckDB must hold at once (at 2 threads 48 MB stopped
# with "out of memory" and 64 MB spilled; at 4 threads 80 MB stopped and 96 MB spilled; AMD EPYC, 2026-11-29)
NEGATIVES_POOL_MB = {2: 64, 4: 96}

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
        pools = {rule: NEGATIVES_POOL_MB[threads] if rule == "generate_booqa_negatives" else pool_mb for rule in ENGINE_RULES}
        settings += ["--set-resources", *(f"{rule}:engine_pool_mb={pool}" for rule, pool in pools.items())]
    cores = str(max(2, threads))  # Snakemake gives a job at most --cores threads, whatever the machine has
    run_snakemake(workdir, *TARGETS, "--cores", cores, "--configfile", "config/config.yaml", "config/engine.yaml", *settings)
    return {str(p.relative_to(workdir)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((workdir / "results").rglob("*")) if p.is_file()}


def _parquet_bytes(paths) -> int:
    """Bytes of the Parquet files among ``paths`` (files, or folders of them): what a job's DuckDB reads."""
    files = [f for p in map(Path, paths) for f in ([p] if p.is_file() else sorted(p.rglob("*")))]
    return sum(f.stat().st_size for f in files if f.suffix == ".parquet")


def _spills(workdir: Path) -> dict[str, tuple[float, int]]:
    """Rule -> (the most its DuckDB spilled, in MB, as its log says when it closes: ``spilled <n> MB``; the bytes of the
    Parquet files it read, from Snakemake's record of the job's inputs), for every job that spilled."""
    spills = {}
    for record in (workdir / ".snakemake" / "metadata").iterdir():
        job = json.loads(record.read_text())
        for log in job.get("log") or []:
            found = re.search(r"spilled ([0-9.]+) MB", (workdir / log).read_text(errors="replace"))
            if found:
                spills[job["rule"]] = (float(found.group(1)), _parquet_bytes(workdir / path for path in job["input"]))
    return spills


def test_every_engine_step_gives_the_same_bytes_at_one_two_and_four_threads_and_when_the_merge_and_the_negatives_spill(synthetic_relations, tmp_path):
    roomy = _run(tmp_path / "roomy", synthetic_relations, threads=1, pool_mb=None)
    tight = _run(tmp_path / "tight", synthetic_relations, threads=2, pool_mb=SMALL_POOL_MB)
    four = _run(tmp_path / "four", synthetic_relations, threads=4, pool_mb=FOUR_THREAD_POOL_MB)
    assert roomy == tight == four
    assert "4 threads" in (tmp_path / "four" / "logs" / "relations" / "merge_relations" / "en.log").read_text()
    checked = yaml.safe_load((tmp_path / "tight" / "results" / "en" / "booqa" / "validation.json").read_text())["checked"]
    assert checked["positives"] > 100 and checked["negatives"] > 100  # a BoOQA worth the name ran through every step
    assert not _spills(tmp_path / "roomy")
    tight_spills = _spills(tmp_path / "tight")
    assert {"merge_relations", "generate_booqa_negatives"} <= set(tight_spills)
    for rule, (spilled_mb, input_bytes) in {**tight_spills, **_spills(tmp_path / "four")}.items():  # docs/operations.md, "Spill bound"
        assert spilled_mb * 1e6 <= SPILL_BOUND * input_bytes, f"{rule} spilled {spilled_mb} MB of {input_bytes / 1e6:.1f} MB of input"


def test_positives_spill_instead_of_stopping_in_a_pool_below_their_data(synthetic_relations, tmp_path):
    """The positives' group-bys in a 32 MB pool at one thread, where their data does not fit: they must spill (more than
    1 MB) and give a roomy pool's bytes. Before the per-sentence step joined its least hash back, it took the proposition by
    ``arg_min`` of a 128-bit value, whose state DuckDB cannot spill: "out of memory" here (and at 15 times the
    default's relations in a 96 MB pool at two threads)."""
    from directional_inference.booqa.positives import select_positives
    from directional_inference.engine import Engine

    files = sorted(synthetic_relations.glob("*.parquet"))
    settings = {"starring_min_articles": 5, "starring_min_predicates": 5, "felicity_min_pairs": 10, "felicity_count": "pairs", "seed": 13}
    outputs, spilled = {}, {}
    for name, pool in (("roomy", 2000), ("tight", 32)):
        folder = tmp_path / name
        folder.mkdir()
        with Engine(pool_mb=pool, threads=1, spill=folder / "spill") as engine:
            found = select_positives(
                engine, files, "en", **settings, positives_path=folder / "positives.parquet", counts_path=folder / "counts.parquet"
            )
            spilled[name] = engine.spilled_mb
        outputs[name] = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in (folder / "positives.parquet", folder / "counts.parquet")}
        assert found[0] > 1000
    assert outputs["roomy"] == outputs["tight"]
    assert spilled["roomy"] == 0 and 1 < spilled["tight"] <= SPILL_BOUND * _parquet_bytes(files) / 1e6, spilled


def test_the_graph_build_spills_in_a_pool_below_its_feature_counts_and_gives_the_same_edges(synthetic_relations, tmp_path):
    """The graph build's feature counts (a group-by and two windowed cut-offs) in a 48 MB pool at one thread spill
    (20-22 MB on this data, 3.8-4.1 times its input) and give a roomy pool's edges, byte for byte (32 MB stops with "out
    of memory"; at two threads it spills 5 MB in 64 MB)."""
    from directional_inference.engine import Engine
    from directional_inference.graphs import build_graphs

    files = sorted(synthetic_relations.glob("*.parquet"))
    edges, spilled = {}, {}
    for name, pool in (("roomy", 2000), ("tight", 48)):
        output = tmp_path / f"{name}.parquet"
        with Engine(pool_mb=pool, threads=1, spill=tmp_path / f"{name}-spill") as engine:
            assert build_graphs(engine, files, min_arg_pairs=2, min_predicates=2, output=output) > 10_000
            spilled[name] = engine.spilled_mb
        edges[name] = hashlib.sha256(output.read_bytes()).hexdigest()
    assert edges["roomy"] == edges["tight"]
    assert spilled["roomy"] == 0 and 1 < spilled["tight"] <= SPILL_BOUND * _parquet_bytes(files) / 1e6, spilled
