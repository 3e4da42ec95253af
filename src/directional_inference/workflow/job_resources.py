"""What each corpus-wide job asks of a cluster: memory, local disk and time as functions of its input size and of the
attempt (a retry asks for more), so that a SLURM request fits at every scale.

The numbers come from the scale benchmark (``benchmarks/paper_scale.py``, ``benchmarks/results/paper_scale.json``,
``docs/run-times.md``): the out-of-core engine keeps a job's memory flat as its input grows (it spills to the job's
temporary directory), so memory is a constant per rule with a margin, while disk (spill and output) and time grow
with the input. Times were measured on one core of the benchmark's CPU and are asked for with a margin of
``TIME_MARGIN``; each retry multiplies memory and disk by ``RETRY_GROWTH`` and time by the attempt.

Each corpus-wide rule states its ``Demand`` in its own resources (``**corpus_job(Demand(...))`` in rules/<phase>.smk;
``workflow.phases.corpus_wide_rules`` finds them there). How its numbers were set: memory, 6 GB for the engine's rules
(its pool is 3.6 GB, the graph build's 2.1 GB, graphs.ENGINE_POOL_SHARE; the benchmark's largest job at 102M relations
peaked at 5.2 GB), the peak at 102M relations with a margin for Python-bound ones; time, the longest job of each rule
at 102M relations in seconds per MB of its input, on one AMD EPYC core (Zen 5); disk, the output and the spill per MB
of input, covering what the benchmark measured at 200M relations (docs/run-times.md, narrow rows): scratch 5.2x the
input (positives, before their narrow choice), 2.3x (graph build, whose outputs add 2.9x), 1.7x (merge, plus its
output 0.8x), 1.4x (imported corpus table), under 0.7x elsewhere. benchmarks/results/paper_scale.json has the runs.

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
    MB of input (plus ``disk_base_mb``), and ``seconds_per_mb`` of input (plus ``minutes_base``) on the benchmark's CPU.
    ``reads`` is what its input files are, which sizes a job before they exist (one of ``READS``)."""

    mem_mb: int
    disk_per_input_mb: float
    seconds_per_mb: float
    reads: str = "relations"
    disk_base_mb: int = 1000
    minutes_base: int = 5

    def __post_init__(self):
        if self.reads not in READS:
            raise ValueError(f"Demand.reads is {self.reads!r}: one of {', '.join(READS)}")

    def request(self, key: str, input_mb: float, attempt: int = 1) -> int:
        attempt = max(int(attempt), 1)
        if key == "mem_mb":
            return int(math.ceil(self.mem_mb * RETRY_GROWTH ** (attempt - 1)))
        if key == "disk_mb":
            return int(math.ceil((self.disk_base_mb + self.disk_per_input_mb * input_mb) * RETRY_GROWTH ** (attempt - 1)))
        if key == "runtime":  # minutes
            return int(math.ceil((self.minutes_base + TIME_MARGIN * self.seconds_per_mb * input_mb / 60) * attempt))
        raise KeyError(key)


def resource_function(
    demand: Demand, key: str, expected_input_mb: Callable[[object], float], input_share: Callable[[object], float] | None = None
) -> Callable:
    """The Snakemake resource callable of ``key`` (mem_mb, disk_mb, runtime) of ``demand``: from the job's input size
    (times ``input_share(wildcards)``, the part of it the job reads: an extraction shard's block of the corpus), or,
    before its input exists, from ``expected_input_mb(wildcards)`` (already the job's part)."""

    def resource(wildcards, input, attempt):  # noqa: A002 - Snakemake passes the job's input by this name
        paths = [str(p) for p in input]
        if all(os.path.exists(p) for p in paths):
            size = sum(_size(p) for p in paths) / 1e6 * (input_share(wildcards) if input_share else 1.0)
        else:
            size = expected_input_mb(wildcards)
        return demand.request(key, size, attempt)

    return resource


def corpus_job_resources(
    demand: Demand, expected_input_mb: Callable[[object], float], input_share: Callable[[object], float] | None, node_scratch: bool
) -> dict[str, Callable]:
    """The resources of a corpus-wide rule (mem_mb, disk_mb, slurm_extra, runtime; see ``resource_function``):
    slurm_extra asks SLURM for the job's disk as node-local scratch (``--tmp``, which the SLURM executor passes on)
    where ``node_scratch`` (config request_node_scratch), else nothing."""
    disk = resource_function(demand, "disk_mb", expected_input_mb, input_share)

    def slurm_extra(wildcards, input, attempt):  # noqa: A002 - Snakemake's name
        return f"--tmp={disk(wildcards, input, attempt)}M" if node_scratch else ""

    return {
        "mem_mb": resource_function(demand, "mem_mb", expected_input_mb, input_share),
        "disk_mb": disk,
        "slurm_extra": slurm_extra,
        "runtime": resource_function(demand, "runtime", expected_input_mb, input_share),
    }


# For plan-time estimates: bytes per article of the corpus table and relations per article, per corpus source
# (Reuters-21578 and CCTV measured on this workflow's tables; News Crawl from the paper's 28 sentences per article at
# the default run's 0.87 relations per sentence; CLUE assumed like News Crawl's text at the Chinese extraction rate),
# and bytes per merged relation (measured: English 56, Chinese 90).
ARTICLE_BYTES = {"reuters21578": 347, "cctv": 748, "newscrawl": 1500, "clue": 1500}
RELATIONS_PER_ARTICLE = {"reuters21578": 4.56, "cctv": 2.01, "newscrawl": 24.4, "clue": 8.0}
RELATION_BYTES = {"en": 56, "zh": 90}
# What a corpus-wide rule's input files are (Demand.reads): the corpus's raw files (building its table), the corpus
# table (an extraction shard reads its block of it), one relation file (a shard: extracted, or imported), or a
# language's relations (every rule after the merge).
READS = ("raw corpus", "corpus table", "relation file", "relations")


def expected_input_mb(reads: str, lang: str, config: dict, shards: int = 1) -> float:
    """The input files of a job that ``reads`` them for ``lang`` (Demand.reads), expected from the config alone, in MB
    (see module docstring); ``shards``: the language's relation files."""
    from ..corpus.sources import expected_articles

    corpus = config["corpus"][lang]
    articles = expected_articles(corpus["source"], corpus.get("years"), corpus.get("max_articles"))
    table = articles * ARTICLE_BYTES[corpus["source"]] / 1e6
    if reads == "raw corpus":
        return table * 2  # the raw files, about twice the table
    if reads == "corpus table":
        return table
    if reads == "relation file":
        return table / shards
    return articles * RELATIONS_PER_ARTICLE[corpus["source"]] * RELATION_BYTES[lang] / 1e6


def imported_input_mb(reads: str, files: Sequence[str | os.PathLike]) -> float:
    """The input files of a job that ``reads`` them (Demand.reads) for a language whose relations are imported
    (relations.imported), in MB: one file for an import job, all of them (about the merged relations' size) for the
    rules after it."""
    total = sum(_size(str(path)) for path in files) / 1e6
    return total / len(files) if reads == "relation file" else total


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
