"""Build a mirror of the inputs from their canonical URLs: ``.venv/bin/python -m directional_inference.resources.mirror build DIR``.

A mirror (see :class:`~.inputs.Mirror`) holds each file of the input table at ``<dataset>/<path>`` and a ``MANIFEST.tsv``
(path, bytes, sha256, url, licence) listing them, the layout of the shared mirror. Each file is downloaded by the
workflow's own download code (:func:`~.fetch.fetch_input`: resumed after a dropped connection, verified by its sha256 and
size, placed atomically) or copied from a mirror given with ``--copy-from``; ``MANIFEST.tsv`` is written last, atomically.
A second build fetches nothing that is already there and verified. With no ``--datasets``, the datasets the tests read:
those of the smoke run (:func:`datasets_for_tests`). ``bin/test`` builds one in ``.cache/input-mirror`` where no mirror is
given.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from ..atomic import write_text_atomic
from ..errors import InputUnavailableError, WorkflowError
from ..progress import ProgressLog
from .fetch import fetch_input
from .inputs import MIRROR_ENV, ExternalInput, Mirror, inputs_of, read_tsv_with_header, sha256_of

log = logging.getLogger(__name__)

MANIFEST = "MANIFEST.tsv"
MANIFEST_COLUMNS = ("path", "bytes", "sha256", "url", "licence")
# The config the tests' workflow run reads (laid over config/config.yaml): its datasets are the ones the tests read.
TEST_CONFIG = "config/smoke.yaml"
DEFAULT_JOBS = 8  # downloads at a time (network-bound: many small files from one host)


class MirrorBuildError(WorkflowError):
    """A mirror could not be built: the message names the mirror, and the file, URL and checksums at fault."""


@dataclass(frozen=True)
class BuildSummary:
    """What a build did: the files it lists (mirror path -> sha256), and how many of them it fetched."""

    files: dict[str, str]
    fetched: int

    @property
    def reused(self) -> int:
        return len(self.files) - self.fetched


def mirror_path(item: ExternalInput) -> str:
    """Where ``item`` lies in a mirror (and its ``path`` in ``MANIFEST.tsv``): ``<dataset>/<path>``."""
    return f"{item.dataset}/{item.path}"


def run_datasets(config: Mapping) -> tuple[str, ...]:
    """The datasets a workflow run of ``config`` fetches (``resources.datasets``), sorted."""
    return tuple(sorted(config["resources"]["datasets"]))


def datasets_for_tests(workflow_dir: str | os.PathLike = ".") -> tuple[str, ...]:
    """The datasets the test suite reads: those of the smoke run (config/config.yaml with ``TEST_CONFIG`` laid over it,
    in ``workflow_dir``), which include every dataset a unit test reads from a mirror (tests/test_mirror.py checks both
    against the smoke run's dry run and the tests' sources)."""
    from ..config_tree import run_config

    root = Path(workflow_dir)
    if not (root / "config" / "config.yaml").is_file():
        raise MirrorBuildError(f"{root.resolve()} holds no config/config.yaml: run from the workflow's directory, or name --datasets")
    return run_datasets(run_config(["--configfile", str(root / TEST_CONFIG)], root))


def items_to_mirror(datasets: Iterable[str]) -> tuple[ExternalInput, ...]:
    """Every file of ``datasets``; a dataset with a file whose source publishes no sha256 (News Crawl) is refused, since
    a mirror holds only files it can verify."""
    items: list[ExternalInput] = []
    for dataset in sorted(set(datasets)):
        try:
            files = inputs_of(dataset)
        except KeyError as error:
            raise MirrorBuildError(error.args[0]) from None
        unverifiable = [item for item in files if item.sha256 is None]
        if unverifiable:
            raise MirrorBuildError(
                f"dataset {dataset!r}: {len(unverifiable)} file(s) have no published sha256 (e.g. {mirror_path(unverifiable[0])}, "
                f"URL {unverifiable[0].url}): a mirror holds only files it can verify; leave the dataset out"
            )
        items += files
    return tuple(items)


def place_verified(item: ExternalInput, directory: Path, sources: Sequence[Mirror]) -> bool:
    """Make ``directory/<dataset>/<path>`` a verified copy of ``item``: kept where it already matches its sha256, else
    copied from ``sources`` or downloaded from its URL (atomically, verified). Returns whether it was fetched."""
    target = directory / mirror_path(item)
    if target.is_file():
        if sha256_of(target) == item.sha256:
            return False
        log.warning("%s does not match its sha256 %s: fetched again", target, item.sha256)
    fetch_input(item, target, sources)
    return True


def failure(item: ExternalInput, error: BaseException) -> str:
    """Why ``item`` could not be mirrored: the download code's message names the file and its URL; another error (a
    full disk) is named with them."""
    if isinstance(error, InputUnavailableError):
        return str(error)
    return f"{mirror_path(item)} from {item.url}: {type(error).__name__}: {error}"


def manifest_rows(directory: Path, items: Sequence[ExternalInput]) -> dict[str, dict[str, str]]:
    """The rows of the mirror's manifest after a build of ``items``: theirs, and those an earlier build listed for other
    files still there (a mirror grows by dataset)."""
    rows: dict[str, dict[str, str]] = {}
    manifest = directory / MANIFEST
    if manifest.is_file():
        for _, row in read_tsv_with_header(manifest, MANIFEST_COLUMNS):
            if (directory / row["path"]).is_file():
                rows[row["path"]] = {column: row[column] for column in MANIFEST_COLUMNS}
    for item in items:
        rows[mirror_path(item)] = {
            "path": mirror_path(item),
            "bytes": str(item.size) if item.size is not None else "-",
            "sha256": item.sha256 or "-",
            "url": item.url,
            "licence": item.licence,
        }
    return rows


def write_manifest(directory: Path, rows: Mapping[str, Mapping[str, str]]) -> None:
    """``MANIFEST.tsv`` (tab-separated, a header, one row per file sorted by path), written atomically."""
    lines = ["\t".join(MANIFEST_COLUMNS)]
    lines += ["\t".join(rows[path][column] for column in MANIFEST_COLUMNS) for path in sorted(rows)]
    write_text_atomic(directory / MANIFEST, "\n".join(lines) + "\n")


def build_mirror(
    directory: str | os.PathLike, items: Sequence[ExternalInput], sources: Sequence[Mirror] = (), jobs: int = DEFAULT_JOBS
) -> BuildSummary:
    """Place every file of ``items`` in the mirror ``directory`` (``jobs`` at a time), then write its ``MANIFEST.tsv``.

    The first file that cannot be obtained or verified stops the build with :class:`MirrorBuildError` (the files
    verified so far stay for the next build; the manifest is not written); no half file is left."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    progress = ProgressLog(f"mirror {root}", len(items), "files", logger=log)
    fetched = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(place_verified, item, root, sources): item for item in items}
        try:
            for future in as_completed(futures):
                if (error := future.exception()) is not None:
                    raise MirrorBuildError(f"building the mirror {root}: {failure(futures[future], error)}") from error
                fetched += future.result()
                progress.advance()
        except BaseException:  # a failure or an interrupt: the files not started are not fetched
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    write_manifest(root, manifest_rows(root, items))
    return BuildSummary({mirror_path(item): item.sha256 or "" for item in items}, fetched)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=".venv/bin/python -m directional_inference.resources.mirror", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="download the datasets' files into DIR, verified, and write DIR/MANIFEST.tsv")
    build.add_argument("directory", metavar="DIR")
    build.add_argument(
        "--datasets", nargs="+", metavar="DATASET", help=f"datasets of the input table (default: those the tests read, the datasets of {TEST_CONFIG})"
    )
    build.add_argument(
        "--copy-from",
        action="append",
        default=[],
        metavar="MIRROR",
        help=f"a mirror to copy verified files from instead of downloading them (repeatable; {MIRROR_ENV} is not read)",
    )
    build.add_argument("--jobs", type=int, default=DEFAULT_JOBS, help=f"downloads at a time (default {DEFAULT_JOBS})")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    log.setLevel(logging.INFO)
    try:
        datasets = args.datasets or datasets_for_tests()
        items = items_to_mirror(datasets)
        sources = [Mirror(path) for path in args.copy_from]
        summary = build_mirror(args.directory, items, sources, args.jobs)
    except WorkflowError as error:
        print(f"mirror: {error}", file=sys.stderr)
        return 1
    megabytes = sum(item.size or 0 for item in items) / 1e6
    print(
        f"mirror {args.directory}: {len(summary.files)} files of {', '.join(sorted(set(datasets)))} ({megabytes:,.0f} MB): "
        f"{summary.fetched} fetched, {summary.reused} already there and verified"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
