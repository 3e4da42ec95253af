"""What each corpus-wide job asks of a cluster: memory, local disk and time as functions of its input size and of the
attempt (a retry asks for more), so that a SLURM request fits at every scale.

The numbers come from the scale benchmark (``benchmarks/paper_scale.py``, ``benchmarks/results/paper_scale.json``,
``docs/run-times.md``): the out-of-core engine keeps a job's memory flat as its input grows (it spills to the job's
temporary directory), so memory is a constant per rule with a margin, while disk (spill and output) and time grow
with the input. Times were measured on one core of the benchmark's CPU and are asked for with a margin of
``TIME_MARGIN``; each retry multiplies memory and disk by ``RETRY_GROWTH`` and time by the attempt.

At plan time (a dry run) a job's input may not exist yet; its size is then estimated from the config
(``expected_input_mb``), so the plan shows numbers, not <TBD>; the real size replaces the estimate before a job runs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

TIME_MARGIN = 3.0
RETRY_GROWTH = 1.5


@dataclass(frozen=True)
class Demand:
    """A rule's request: ``mem_mb`` (flat: the engine's pool is a share of it), ``disk_mb`` of spill and output per
    MB of input (plus ``disk_base_mb``), and ``seconds_per_mb`` of input (plus ``minutes_base``) on the benchmark's CPU."""

    mem_mb: int
    disk_per_input_mb: float
    seconds_per_mb: float
    disk_base_mb: int = 1000
    minutes_base: int = 5

    def request(self, key: str, input_mb: float, attempt: int = 1) -> int:
        attempt = max(int(attempt), 1)
        if key == "mem_mb":
            return int(math.ceil(self.mem_mb * RETRY_GROWTH ** (attempt - 1)))
        if key == "disk_mb":
            return int(math.ceil((self.disk_base_mb + self.disk_per_input_mb * input_mb) * RETRY_GROWTH ** (attempt - 1)))
        if key == "runtime":  # minutes
            return int(math.ceil((self.minutes_base + TIME_MARGIN * self.seconds_per_mb * input_mb / 60) * attempt))
        raise KeyError(key)


# Memory: the engine's rules ask for 6 GB (its pool is 3.6 GB, the graph build's 2.1 GB, graphs.ENGINE_POOL_SHARE; the
# benchmark's largest job at 102M relations peaked at 5.2 GB), Python-bound ones for their peak at 102M relations with a
# margin. Time: the longest job of each rule at 102M relations, in seconds per MB of its input, on the benchmark's CPU
# (one AMD EPYC core, Zen 5). Disk: the output and the spill per MB of input, covering what the benchmark measured at
# 200M relations (docs/run-times.md, narrow rows): scratch 5.2x the input (positives, before their narrow choice), 2.3x
# (graph build, whose outputs add 2.9x), 1.7x (merge, plus its output 0.8x), 1.4x (imported corpus table), under 0.7x
# elsewhere.
# benchmarks/results/paper_scale.json has the runs.
DEMANDS = {
    "build_corpus": Demand(mem_mb=4000, disk_per_input_mb=3.0, seconds_per_mb=0.1),
    "extract_relations": Demand(mem_mb=3000, disk_per_input_mb=0.5, seconds_per_mb=50.0),
    "import_relations": Demand(mem_mb=1000, disk_per_input_mb=1.5, seconds_per_mb=0.08),
    "merge_relations": Demand(mem_mb=6000, disk_per_input_mb=3.0, seconds_per_mb=0.15),
    "describe_imported_corpus": Demand(mem_mb=4000, disk_per_input_mb=2.0, seconds_per_mb=0.03),
    "select_booqa_positives": Demand(mem_mb=6000, disk_per_input_mb=5.5, seconds_per_mb=0.2),
    "generate_booqa_negatives": Demand(mem_mb=6000, disk_per_input_mb=1.0, seconds_per_mb=0.17),
    "write_booqa_card": Demand(mem_mb=6000, disk_per_input_mb=1.5, seconds_per_mb=0.09),
    "validate_booqa": Demand(mem_mb=4000, disk_per_input_mb=1.0, seconds_per_mb=0.03),
    "build_entailment_graph": Demand(mem_mb=6000, disk_per_input_mb=5.5, seconds_per_mb=0.15),
    "gather_entailment_graph": Demand(mem_mb=2000, disk_per_input_mb=1.1, seconds_per_mb=0.02),
    "retrieve_booqa_evidence": Demand(mem_mb=6000, disk_per_input_mb=1.5, seconds_per_mb=0.13),
    "retrieve_tfidf_evidence": Demand(mem_mb=6000, disk_per_input_mb=0.5, seconds_per_mb=1.0),
}


def resource_function(
    rule: str, key: str, expected_input_mb: Callable[[object], float], input_share: Callable[[object], float] | None = None
) -> Callable:
    """The Snakemake resource callable of ``key`` (mem_mb, disk_mb, runtime) of ``rule``: from the job's input size (times
    ``input_share(wildcards)``, the part of it the job reads: an extraction shard's block of the corpus), or, before its
    input exists, from ``expected_input_mb(wildcards)`` (already the job's part)."""
    demand = DEMANDS[rule]

    def resource(wildcards, input, attempt):  # noqa: A002 - Snakemake passes the job's input by this name
        paths = [str(p) for p in input]
        if all(os.path.exists(p) for p in paths):
            size = sum(_size(p) for p in paths) / 1e6 * (input_share(wildcards) if input_share else 1.0)
        else:
            size = expected_input_mb(wildcards)
        return demand.request(key, size, attempt)

    return resource


# For plan-time estimates: bytes per article of the corpus table and relations per article, per corpus source
# (Reuters-21578 and CCTV measured on this workflow's tables; News Crawl from the paper's 28 sentences per article at
# the default run's 0.87 relations per sentence; CLUE assumed like News Crawl's text at the Chinese extraction rate),
# and bytes per merged relation (measured: English 56, Chinese 90).
ARTICLE_BYTES = {"reuters21578": 347, "cctv": 748, "newscrawl": 1500, "clue": 1500}
RELATIONS_PER_ARTICLE = {"reuters21578": 4.56, "cctv": 2.01, "newscrawl": 24.4, "clue": 8.0}
RELATION_BYTES = {"en": 56, "zh": 90}
CORPUS_RULES = {"build_corpus"}
SHARD_RULES = {"extract_relations", "import_relations"}


def expected_input_mb(rule: str, lang: str, config: dict, shards: int = 1) -> float:
    """The input a job of ``rule`` for ``lang`` is expected to read, in MB, from the config alone (see module docstring)."""
    from ..corpus.sources import expected_articles

    corpus = config["corpus"][lang]
    articles = expected_articles(corpus["source"], corpus.get("years"), corpus.get("max_articles"))
    if rule in CORPUS_RULES:
        return articles * ARTICLE_BYTES[corpus["source"]] * 2 / 1e6  # the raw files, about twice the table
    if rule in SHARD_RULES:
        return articles * ARTICLE_BYTES[corpus["source"]] / shards / 1e6
    return articles * RELATIONS_PER_ARTICLE[corpus["source"]] * RELATION_BYTES[lang] / 1e6


def imported_input_mb(rule: str, files: Sequence[str | os.PathLike]) -> float:
    """The input a job of ``rule`` reads for a language whose relations are imported (relations.imported), in MB: one
    file for an import job, all of them (about the merged relations' size) for the rules after it."""
    total = sum(_size(str(path)) for path in files) / 1e6
    return total / len(files) if rule in SHARD_RULES else total


def input_mb(paths: Iterable[str], expected: Callable[[], float]) -> float:
    """Size of a job's input files in MB, or ``expected()`` while one of them does not exist yet."""
    paths = [str(p) for p in paths]
    if not all(os.path.exists(p) for p in paths):
        return expected()
    return sum(_size(p) for p in paths) / 1e6


def _size(path: str) -> int:
    """Bytes of a file, or of every file under a directory."""
    if not os.path.isdir(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(root, name)) for root, _, names in os.walk(path) for name in names)
