"""The out-of-core engine of every corpus-wide step: DuckDB, SQL over Parquet files, within the job's memory.

Sentence deduplication, window and pair statistics, felicity counts, positives, the negatives' absence checks,
evidence retrieval and the graphs' feature counts are set operations over the whole corpus (about 200M relations at
the paper's scale). They run here as SQL over the Parquet files the steps pass to each other: DuckDB streams and
spills what does not fit under ``memory_limit`` (set from the rule's ``mem_mb``) to the job's scratch folder,
with the rule's threads. One implementation serves every scale; tests hand in small pandas frames instead of files
(``Engine.table``).

Determinism: every query whose rows are written orders them completely, aggregates in SQL are integer counts (a
parallel floating-point sum depends on the thread schedule), and random choices are seeded hashes
(``seeded_hash``), so the same inputs, config and seed give byte-identical files whatever the threads.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pandas as pd

from .atomic import atomic_file

log = logging.getLogger(__name__)

# DuckDB's buffer pool gets this share of the job's memory; the rest is for Python, Arrow batches and the allocations
# DuckDB makes outside its pool.
POOL_SHARE = 0.6
MIN_POOL_MB = 256
ROW_GROUP_ROWS = 65_536
BATCH_ROWS = 65_536


def sql_string(value: str) -> str:
    """A SQL string literal."""
    return "'" + str(value).replace("'", "''") + "'"


def sql_list(values: Iterable) -> str:
    """A SQL list literal of strings (``[]`` when empty)."""
    return "[" + ", ".join(sql_string(v) for v in values) + "]"


def parquet_source(paths: str | os.PathLike | Sequence[str | os.PathLike], *, row_numbers: bool = False) -> str:
    """``read_parquet([...])`` of one or several files, with missing columns as NULL (``union_by_name``); with
    ``row_numbers``, each row's place in its file as column ``file_row_number``."""
    files = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not files:
        raise ValueError("no Parquet files to read")
    return f"read_parquet({sql_list(str(Path(f)) for f in files)}, union_by_name = true{', file_row_number = true' if row_numbers else ''})"


def seeded_hash(seed: int, *columns: str) -> str:
    """SQL of a seeded 128-bit hash of ``columns`` (md5 of the seed and the values, unit-separated): a reproducible
    random order that needs no state, so a choice among rows is the same in one process or across many."""
    parts = " || chr(31) || ".join(f"coalesce(CAST({c} AS VARCHAR), '')" for c in columns)
    return f"md5_number({sql_string(str(seed))} || chr(31) || {parts})"


class Engine:
    """A DuckDB connection for one job: ``memory_mb`` of the job (its ``mem_mb``; the buffer pool takes ``pool_share``
    of it, ``POOL_SHARE`` unless the job's own Python work needs more), ``threads``, and ``spill``, the folder DuckDB
    spills to and the job stages files in: a job's scratch folder (``scratch.job_scratch``), which its owner
    empties and removes; without one, a private folder in the system's temporary directory, removed on close."""

    def __init__(
        self,
        memory_mb: int | None = None,
        threads: int = 1,
        spill: str | os.PathLike | None = None,
        *,
        pool_share: float = POOL_SHARE,
        pool_mb: int | None = None,
    ):
        """``pool_mb`` sets the buffer pool directly, below ``MIN_POOL_MB`` too (tests that force spilling)."""
        import duckdb

        self._own_spill = spill is None
        self.spill = Path(tempfile.mkdtemp(prefix="duckdb-spill-")) if self._own_spill else Path(spill)
        self.spill.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect()
        pool = pool_mb if pool_mb is not None else max(MIN_POOL_MB, int((memory_mb or 4000) * pool_share))
        self.pool_mb, self.threads = pool, max(int(threads), 1)  # steps that size their own pieces to the pool read them
        self.con.execute(f"SET memory_limit = '{pool}MB'")
        self.con.execute(f"SET threads = {self.threads}")
        self.con.execute(f"SET temp_directory = {sql_string(self.spill)}")
        # every query whose rows are written orders them itself; keeping the scan order would hold rows in memory
        self.con.execute("SET preserve_insertion_order = false")
        self.con.execute("SET enable_progress_bar = false")
        # DuckDB's profiler tells each query's spill exactly (the peak size of its temporary files while it ran)
        self.con.execute("PRAGMA enable_profiling = 'no_output'")
        self.con.execute("SET tracked_metrics = ['system.peak_temp_dir_size']")
        log.info("DuckDB: memory limit %d MB of the job's %s MB, %d threads, spilling to %s", pool, memory_mb, threads, self.spill)
        self.spilled_mb = 0.0  # the largest size DuckDB's spill files reached while a query ran (logged on close)

    def _note_spill(self) -> None:
        """Take the last query's spill from DuckDB's profiler into ``spilled_mb``. Called before each query and on close,
        so every query the engine ran is read once it has finished (a streamed result, once its reader is drained)."""
        import duckdb

        with contextlib.suppress(duckdb.Error):  # no query yet, or a statement the profiler does not cover
            metrics = json.loads(self.con.get_profiling_information(format="json")).get("system") or {}
            self.spilled_mb = max(self.spilled_mb, metrics.get("peak_temp_dir_size", 0) / 1e6)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._note_spill()
        self.con.close()
        if self.spilled_mb:
            log.info("DuckDB spilled %.1f MB at most (its temporary files' peak size, from its profiler)", self.spilled_mb)
        if self._own_spill:
            shutil.rmtree(self.spill, ignore_errors=True)

    def drop(self, *names: str) -> None:
        """Drop the views or tables ``names``: before a name is reused (by later steps of one job, as either), and once no
        later query reads one, so that its blocks leave the pool."""
        import duckdb

        for name in names:
            for kind in ("VIEW", "TABLE"):
                try:
                    self.execute(f"DROP {kind} IF EXISTS {name}")
                except duckdb.CatalogException:
                    pass

    def table(self, name: str, source) -> str:
        """Make ``name`` a view of ``source``: one or several Parquet files, or a pandas frame (tests). Returns ``name``."""
        self.drop(name)
        if isinstance(source, pd.DataFrame):
            self.con.register(f"{name}__frame", source)
            self.execute(f"CREATE TEMP VIEW {name} AS SELECT * FROM {name}__frame")
        else:
            self.execute(f"CREATE TEMP VIEW {name} AS SELECT * FROM {parquet_source(source)}")
        return name

    def frame(self, name: str, frame: pd.DataFrame) -> str:
        """Make a small pandas frame (a lookup computed in Python) a table of this connection."""
        self.drop(name)
        self.con.register(f"{name}__frame", frame)
        self.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {name}__frame")
        self.con.unregister(f"{name}__frame")
        return name

    def execute(self, sql: str, parameters=None):
        """Run ``sql`` now (its result is DuckDB's, to fetch)."""
        self._note_spill()
        return self.con.execute(sql, parameters) if parameters is not None else self.con.execute(sql)

    def sql(self, sql: str):
        """``sql`` as a DuckDB relation, to stream (``to_arrow_reader``) or fetch."""
        self._note_spill()
        return self.con.sql(sql)

    def materialise(self, name: str, sql: str) -> str:
        """``CREATE TEMP TABLE name AS sql``: a result several later queries read (spilled when large)."""
        self.drop(name)
        self.execute(f"CREATE TEMP TABLE {name} AS {sql}")
        return name

    def view(self, name: str, sql: str) -> str:
        """``CREATE TEMP VIEW name AS sql``."""
        self.drop(name)
        self.execute(f"CREATE TEMP VIEW {name} AS {sql}")
        return name

    def df(self, sql: str) -> pd.DataFrame:
        """A (small) query result as a pandas frame."""
        return self.execute(sql).df()

    def columns(self, source: str) -> set[str]:
        """The column names of a table, view or source expression (``read_parquet(...)``), without reading rows."""
        return {row[0] for row in self.sql(f"DESCRIBE SELECT * FROM {source}").fetchall()}

    def count(self, sql: str) -> int:
        return int(self.execute(f"SELECT count(*) FROM ({sql})").fetchall()[0][0])

    def write(self, sql: str, path: str | os.PathLike, *, row_group_rows: int = ROW_GROUP_ROWS) -> int:
        """Stream the rows of ``sql`` into the Parquet file ``path`` atomically (``write_batches``); returns the rows."""
        reader = self.sql(sql).to_arrow_reader(BATCH_ROWS)
        return write_batches(reader, reader.schema, path, row_group_rows=row_group_rows)

    def write_all(self, queries: Iterable[str], path: str | os.PathLike, *, empty: str, row_group_rows: int = ROW_GROUP_ROWS) -> int:
        """The rows of each query of ``queries`` in turn (one result at a time: a query may be made after the previous
        one's rows are written) into one Parquet file, atomically; ``empty``: a query of no rows with their columns,
        for when there is no query. Returns the rows."""
        schema = self.sql(empty).to_arrow_reader(1).schema

        def batches():
            for sql in queries:
                yield from self.sql(sql).to_arrow_reader(BATCH_ROWS)

        return write_batches(batches(), schema, path, row_group_rows=row_group_rows)

    def write_partitions(self, sql: str, column: str, folder: str | os.PathLike, *, flush_rows: int = 16_384) -> dict[int, Path]:
        """Stream the rows of ``sql`` into one Parquet file per value of its integer column ``column`` (dropped from the
        files): ``folder/<value>.parquet``, in no particular row order. Rows wait in memory until ``flush_rows`` of a
        value are there, so memory stays within (values x ``flush_rows``) rows whatever the result's size; DuckDB's own
        partitioned COPY holds larger buffers per partition and fails in a small pool. Returns value -> file."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        reader = self.sql(sql).to_arrow_reader(BATCH_ROWS)
        schema = reader.schema.remove(reader.schema.get_field_index(column))
        writers: dict[int, pq.ParquetWriter] = {}
        pending: dict[int, list] = {}
        waiting: dict[int, int] = {}

        def flush(value: int) -> None:
            if value not in writers:
                writers[value] = pq.ParquetWriter(folder / f"{value}.parquet", schema, compression="zstd")
            writers[value].write_table(pa.Table.from_batches(pending.pop(value), schema=schema))
            waiting[value] = 0

        try:
            for batch in reader:
                values = batch.column(column)
                rows = pa.RecordBatch.from_arrays([batch.column(name) for name in schema.names], schema=schema)
                for value in pc.unique(values).to_pylist():
                    piece = rows.filter(pc.equal(values, value))
                    pending.setdefault(value, []).append(piece)
                    waiting[value] = waiting.get(value, 0) + piece.num_rows
                    if waiting[value] >= flush_rows:
                        flush(value)
            for value in list(pending):
                flush(value)
        finally:
            for writer in writers.values():
                writer.close()
        return {value: folder / f"{value}.parquet" for value in sorted(writers)}


@contextlib.contextmanager
def job_engine(job, *, threads: int | None = None, pool_share: float = POOL_SHARE) -> Iterator[Engine]:
    """The engine of a running Snakemake job (a rule script's ``snakemake``): the job's ``mem_mb`` and threads (or
    ``threads``), spilling to the job's own scratch folder, which is emptied first and removed after. A resource
    ``engine_pool_mb`` (``--set-resources rule:engine_pool_mb=N``) sets the buffer pool itself: tests force spilling
    with it."""
    from .scratch import job_scratch

    pool_mb = getattr(job.resources, "engine_pool_mb", None)
    with (
        job_scratch(job) as scratch,
        Engine(
            job.resources.mem_mb,
            job.threads if threads is None else threads,
            scratch,
            pool_share=pool_share,
            pool_mb=int(pool_mb) if pool_mb else None,
        ) as engine,
    ):
        yield engine


class RowGroups:
    """Rows added in pieces of any size, written to an open ``pyarrow.parquet.ParquetWriter`` in row groups of exactly
    ``rows`` rows; ``flush()`` writes what is left as one shorter group. The same rows give the same bytes however
    they were cut: each row group is handed to the writer as one contiguous piece (Arrow's writer cuts its data pages
    where the pieces it is given end)."""

    def __init__(self, writer, schema, rows: int = ROW_GROUP_ROWS) -> None:
        self.writer, self.schema, self.rows = writer, schema, rows
        self.pending: list = []
        self.pending_rows = self.written = 0

    def add(self, piece) -> None:
        """A record batch or a table of the schema."""
        import pyarrow as pa

        self.pending.extend(piece.to_batches() if isinstance(piece, pa.Table) else [piece])
        self.pending_rows += piece.num_rows
        while self.pending_rows >= self.rows:
            table = pa.Table.from_batches(self.pending, schema=self.schema)
            self.writer.write_table(table.slice(0, self.rows).combine_chunks(), row_group_size=self.rows)
            rest = table.slice(self.rows)
            self.pending, self.pending_rows = rest.to_batches(), rest.num_rows
            self.written += self.rows

    def flush(self, *, even_if_empty: bool = False) -> None:
        import pyarrow as pa

        if self.pending_rows or even_if_empty:
            self.writer.write_table(pa.Table.from_batches(self.pending, schema=self.schema).combine_chunks(), row_group_size=self.rows)
            self.written += self.pending_rows
            self.pending, self.pending_rows = [], 0


def write_batches(batches, schema, path: str | os.PathLike, *, row_group_rows: int = ROW_GROUP_ROWS) -> int:
    """Arrow record batches into one Parquet file (zstd), atomically, in row groups of exactly ``row_group_rows``
    (the last one shorter) whatever the batches' sizes, so the same rows give the same bytes. Returns the rows."""
    import pyarrow.parquet as pq

    with atomic_file(path) as tmp:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            groups = RowGroups(writer, schema, row_group_rows)
            for batch in batches:
                groups.add(batch)
            groups.flush(even_if_empty=groups.written == 0)  # an empty file still has its schema in one row group
    return groups.written


def parquet_rows(path: str | os.PathLike) -> int:
    """Rows of a Parquet file, from its footer."""
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows
