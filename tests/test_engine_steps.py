"""Every out-of-core step, through Snakemake, on synthetic relations (the scale benchmark's model, 5 times the default's
English relations): one thread and a roomy buffer pool, and two threads and a 128 MB pool (``engine_pool_mb``), give
the same bytes. In the 128 MB pool the merge, which holds the most, spills; the negatives get a pool of their own below
their data (``NEGATIVES_POOL_MB``), where they spill too (8-14 MB at 2 threads). Every job that spilled
stays within the spill bound (``spill_bound`` times its Parquet input). (tests/test_engine.py forces the merge to
spill on its own at 1, 2 and 4 threads.) The imported corpus table, the positives, the graph build, evidence retrieval
and graph scoring hold too little on that data to spill at two and four threads (they stop with "out of memory" below
it): the last five tests call each directly on 30 times the default's relations, where each spills at 1, 2 and 4
threads; the positives are also called in 32 MB at one thread, where their old step stopped. Spill figures are exact:
DuckDB's profiler (``Engine.spilled_mb``)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import REPO, copy_workflow, run_snakemake
from test_engine import SMALL_POOL_MB, spill_bound  # pools below the merge's data, above what DuckDB's sort must pin

# The negatives' pool at two threads: below their data, above what DuckDB must hold at once (48 MB stopped with "out of
# memory" and 64 MB spilled; AMD EPYC, 2026-11-29)
NEGATIVES_POOL_MB = 64

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
        pools = {rule: NEGATIVES_POOL_MB if rule == "generate_booqa_negatives" else pool_mb for rule in ENGINE_RULES}
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


def test_every_engine_step_gives_the_same_bytes_at_one_and_two_threads_and_when_the_merge_and_the_negatives_spill(synthetic_relations, tmp_path):
    """Two runs: one thread in a roomy pool, where nothing spills, and two threads in pools below the merge's and the
    negatives' data, where both spill. A third run at four threads (70 s of CI) is left to the direct tests: the merge's
    in test_engine.py and the five below run at 1, 2 and 4 threads; at four threads in the engine's floor of 256 MB the
    merge of this data does not spill."""
    roomy = _run(tmp_path / "roomy", synthetic_relations, threads=1, pool_mb=None)
    tight = _run(tmp_path / "tight", synthetic_relations, threads=2, pool_mb=SMALL_POOL_MB)
    assert roomy == tight
    assert "2 threads" in (tmp_path / "tight" / "logs" / "relations" / "merge_relations" / "en.log").read_text()
    checked = yaml.safe_load((tmp_path / "tight" / "results" / "en" / "booqa" / "validation.json").read_text())["checked"]
    assert checked["positives"] > 100 and checked["negatives"] > 100  # a BoOQA worth the name ran through every step
    assert not _spills(tmp_path / "roomy")
    spills = _spills(tmp_path / "tight")
    assert {"merge_relations", "generate_booqa_negatives"} <= set(spills), spills
    for rule, (spilled_mb, input_bytes) in spills.items():  # docs/operations.md, "Spill bound"
        assert spilled_mb * 1e6 <= spill_bound(2) * input_bytes, f"{rule} spilled {spilled_mb} MB of {input_bytes / 1e6:.1f} MB of input"


def _positives(files):
    """A run of the positives' step on ``files`` for ``_same_bytes_and_spill``."""
    from directional_inference.booqa.positives import select_positives

    settings = {"starring_min_articles": 5, "starring_min_predicates": 5, "felicity_min_pairs": 10, "felicity_count": "pairs", "seed": 13}

    def run(engine, folder):
        found = select_positives(engine, files, "en", **settings, positives_path=folder / "positives.parquet", counts_path=folder / "counts.parquet")
        assert found[0] > 1000

    return run


def test_positives_spill_instead_of_stopping_in_a_pool_below_their_data(synthetic_relations, tmp_path):
    """The positives' group-bys in a 32 MB pool at one thread, where their data does not fit: they must spill (more than
    1 MB) and give a roomy pool's bytes. Before the per-sentence step joined its least hash back, it took the proposition by
    ``arg_min`` of a 128-bit value, whose state DuckDB cannot spill: "out of memory" here (and at 15 times the
    default's relations in a 96 MB pool at two threads; the old step passes the test at 1, 2 and 4 threads below, in
    a pool of 192 MB, so this one stays)."""
    files = sorted(synthetic_relations.glob("*.parquet"))
    _same_bytes_and_spill("positives", _positives(files), tmp_path, _parquet_bytes(files), pool_mb=32, threads=(1,))


# Each step called directly at 1, 2 and 4 threads in a pool below its data, on relations 30 times the default's (about
# 2.5M, 34 MB of Parquet), where it spills at every thread count (AMD EPYC, 2026-12-01; MB spilled at 1 / 2 / 4 threads):
# the imported corpus table (describe_imported_corpus) in 88 MB (8 / 15-25 / 21-22, 3 runs; at 72 MB and 4 threads 3
# runs of 3 stopped with "out of memory"), the positives in 192 MB (17 / 21-24 / 27-36, 2-5 runs each; at 256 MB they
# hold it all; at 160 MB and 4 threads 2 runs of 4 stopped), the graph build at the engine's floor, 256 MB (179 / 170 /
# 294-296), evidence retrieval for 1 relation in 40 as an entry (63,612 entries, about the paper's BoOQA; 1.9M matched
# relations) at 256 MB (12 / 82 / 19), the graph scoring of that evidence at 256 MB (271 / 233 / 164). Each must give a
# roomy pool's bytes, spill more than 1 MB and stay within the spill bound.
STEP_POOLS_MB = {"imported corpus": 88, "positives": 192, "graph build": 256, "evidence": 256, "graph scoring": 256}
ENTRY_SHARE = 40  # one relation in ENTRY_SHARE is an entry of the evidence and scoring tests


@pytest.fixture(scope="module")
def relations_30x(tmp_path_factory) -> list[Path]:
    from directional_inference.relations.synthetic import SyntheticModel, generate_relations

    model = SyntheticModel.load(REPO / "benchmarks" / "synthetic_relations.json")
    folder = tmp_path_factory.mktemp("synthetic-relations-30x")
    return sorted(generate_relations(model, 30 * model.base_relations, folder, seed=11, file_relations=150_000))


@pytest.fixture(scope="module")
def entries_30x(relations_30x):
    """BoOQA-like entries: one relation in ENTRY_SHARE (a seeded hash), with its window, arguments, types and sentence."""
    import duckdb

    from directional_inference.engine import parquet_source, seeded_hash

    return duckdb.sql(f"""
        SELECT 'q' || row_number() OVER (ORDER BY article_id, sentence_id, pred, subj, obj) AS id, "window", subj, obj, pred, subj_type, obj_type,
               article_id, sentence_id
        FROM {parquet_source(relations_30x)} WHERE {seeded_hash(1, "article_id", "sentence_id", "pred", "subj", "obj")} % {ENTRY_SHARE} = 0
        ORDER BY id""").df()


def _same_bytes_and_spill(step: str, run, tmp_path: Path, input_bytes: int, *, pool_mb: int, threads=(1, 2, 4)) -> None:
    """``run(engine, folder)`` (writing the step's outputs into ``folder``) at one thread in a roomy pool, then at each of
    ``threads`` in a pool of ``pool_mb``: every run gives the roomy run's bytes, the roomy run does not spill, each other
    run spills more than 1 MB and within the bound of its threads (``spill_bound``)."""
    from directional_inference.engine import Engine

    digests, spilled = {}, {}
    for count, pool in ((None, 4000), *((t, pool_mb) for t in threads)):
        folder = tmp_path / (f"threads-{count}" if count else "roomy")
        folder.mkdir(parents=True)
        with Engine(pool_mb=pool, threads=count or 1, spill=folder / "spill") as engine:
            run(engine, folder)
        spilled[count] = engine.spilled_mb
        digests[count] = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(folder.glob("*")) if f.is_file()}
        assert digests[count], f"{step} wrote nothing"
    assert all(found == digests[None] for found in digests.values()), f"{step}: other bytes at other threads or pools"
    assert spilled.pop(None) == 0, step
    for count, mb in spilled.items():
        assert 1 < mb <= spill_bound(count) * input_bytes / 1e6, (
            f"{step} at {count} thread(s) spilled {mb:.1f} MB of {input_bytes / 1e6:.1f} MB of input"
        )


def _evidence_of(relations, entries, engine, output) -> int:
    """The evidence of ``entries`` among ``relations`` into ``output`` (the evidence and graph-scoring tests' call)."""
    from directional_inference.booqa.negatives import RelationKeys
    from directional_inference.evaluation.evidence import retrieve_evidence

    return retrieve_evidence(engine, entries, relations, cap=100, seed=3, relation_keys=RelationKeys("en"), output=output)


def _graph_of(relations, engine, output) -> int:
    """The local graphs of ``relations`` into ``output`` (the graph-build and graph-scoring tests' call)."""
    from directional_inference.graphs import build_graphs

    return build_graphs(engine, relations, min_arg_pairs=2, min_predicates=2, output=output)


def test_the_imported_corpus_table_spills_and_gives_the_same_bytes_at_one_two_and_four_threads(relations_30x, tmp_path):
    """The articles of imported relations (rule describe_imported_corpus): one group-by over every relation, sorted."""
    from directional_inference.relations.imported import write_imported_corpus

    def run(engine, folder):
        reading = write_imported_corpus(engine, relations_30x, relations_30x, [str(f) for f in relations_30x], folder / "articles.parquet")
        assert reading["articles_kept"] > 100_000

    _same_bytes_and_spill("imported corpus", run, tmp_path, _parquet_bytes(relations_30x), pool_mb=STEP_POOLS_MB["imported corpus"])


def test_the_positives_spill_instead_of_stopping_and_give_the_same_bytes_at_one_two_and_four_threads(relations_30x, tmp_path):
    """The positives' group-bys below their data, at each thread count."""
    _same_bytes_and_spill("positives", _positives(relations_30x), tmp_path, _parquet_bytes(relations_30x), pool_mb=STEP_POOLS_MB["positives"])


def test_the_graph_build_spills_and_gives_the_same_edges_at_one_two_and_four_threads(relations_30x, tmp_path):
    """The graph build's feature counts (a group-by, two windowed cut-offs and a sort) at the engine's floor."""

    def run(engine, folder):
        assert _graph_of(relations_30x, engine, folder / "graph.parquet") > 1_000_000

    _same_bytes_and_spill("graph build", run, tmp_path, _parquet_bytes(relations_30x), pool_mb=STEP_POOLS_MB["graph build"])


def test_evidence_retrieval_spills_instead_of_stopping_and_gives_the_same_evidence_at_one_two_and_four_threads(relations_30x, entries_30x, tmp_path):
    """The matched relations and the capped choice per entry at the engine's floor. The choice's window function holds
    a chunk of entries in the pool: chunks of a fixed 2M matched rows stopped with "out of memory" here
    (``evidence.chunk_rows`` sizes them to the pool)."""

    def run(engine, folder):
        assert _evidence_of(relations_30x, entries_30x, engine, folder / "evidence.parquet") > 500_000

    _same_bytes_and_spill("evidence", run, tmp_path, _parquet_bytes(relations_30x), pool_mb=STEP_POOLS_MB["evidence"])


def test_graph_scoring_spills_and_gives_the_same_scores_at_one_two_and_four_threads(relations_30x, entries_30x, tmp_path):
    """The lookups of every piece of evidence's edge in a graph larger than the pool (score_booqa's SQL of a graph)."""
    from directional_inference.engine import Engine
    from directional_inference.evaluation.scoring import graph_scores

    evidence, graph = tmp_path / "evidence.parquet", tmp_path / "graph.parquet"
    with Engine(pool_mb=4000, threads=2) as engine:
        _evidence_of(relations_30x, entries_30x, engine, evidence)
        _graph_of(relations_30x, engine, graph)

    def run(engine, folder):
        scores, _ = graph_scores(engine, entries_30x, evidence, graph, "binc")
        assert (scores > 0).sum() > 10_000
        (folder / "scores.npy").write_bytes(scores.tobytes())

    _same_bytes_and_spill("graph scoring", run, tmp_path / "runs", _parquet_bytes([evidence, graph]), pool_mb=STEP_POOLS_MB["graph scoring"])
