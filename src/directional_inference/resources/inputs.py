"""The table of every external input (canonical URL, sha256, size, licence) and the mirror lookup.

The table lives in ``data/inputs.tsv`` beside this module. A *mirror* is any directory holding a
``MANIFEST.tsv`` with (at least) the columns ``path`` and ``sha256``; a file is taken from it when
its name and checksum match an entry of the table. A mirror named where no such directory exists is passed over with a
warning (the canonical URLs serve its files), so that the README's commands work on a machine without the mirror; a
directory without a manifest is an error.
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path, PurePosixPath

from ..errors import InputFormatError

log = logging.getLogger(__name__)

MIRROR_ENV = "BOOQA_MIRROR"
INPUT_TABLE = "data/inputs.tsv"
_TABLE_COLUMNS = ("dataset", "path", "bytes", "sha256", "url", "licence")


@dataclass(frozen=True)
class ExternalInput:
    """One file the workflow downloads. ``sha256``/``size`` are None where the source publishes none."""

    dataset: str
    path: str
    size: int | None
    sha256: str | None
    url: str
    licence: str

    @property
    def name(self) -> str:
        return PurePosixPath(self.path).name


def read_tsv_with_header(path: str | os.PathLike, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """Read a tab-separated file with a header row (lines starting with '#' are comments).

    Returns ``(line_number, row)`` pairs; raises :class:`InputFormatError` naming the file, line and
    field when a required column is missing or a row has the wrong number of fields.
    """
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] | None = None
    with open(path, encoding="utf-8", newline="") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.rstrip("\n").rstrip("\r")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                for column in required:
                    if column not in header:
                        raise InputFormatError(str(path), number, column, "required column missing from the header")
                continue
            if len(fields) != len(header):
                raise InputFormatError(str(path), number, None, f"expected {len(header)} tab-separated fields, found {len(fields)}")
            rows.append((number, dict(zip(header, fields))))
    if header is None:
        raise InputFormatError(str(path), None, None, "file is empty (no header row)")
    return rows


def _optional_int(value: str, path: str, line: int, field: str) -> int | None:
    if value == "-":
        return None
    try:
        return int(value)
    except ValueError:
        raise InputFormatError(path, line, field, f"not an integer: {value!r}") from None


def _optional_sha256(value: str, path: str, line: int, field: str) -> str | None:
    if value == "-":
        return None
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise InputFormatError(path, line, field, f"not a lower-case hex sha256: {value!r}")
    return value


def parse_input_table(path: str | os.PathLike) -> tuple[ExternalInput, ...]:
    """Parse an input table (see module docstring) into :class:`ExternalInput` records."""
    records = []
    for line, row in read_tsv_with_header(path, _TABLE_COLUMNS):
        records.append(
            ExternalInput(
                dataset=row["dataset"],
                path=row["path"],
                size=_optional_int(row["bytes"], str(path), line, "bytes"),
                sha256=_optional_sha256(row["sha256"], str(path), line, "sha256"),
                url=row["url"],
                licence=row["licence"],
            )
        )
    return tuple(records)


@lru_cache(maxsize=1)
def input_table() -> tuple[ExternalInput, ...]:
    """The packaged table of every external input."""
    with resources.as_file(resources.files(__package__) / INPUT_TABLE) as path:
        return parse_input_table(path)


def datasets() -> tuple[str, ...]:
    """Names of all downloadable datasets, sorted."""
    return tuple(sorted({item.dataset for item in input_table()}))


def inputs_of(dataset: str) -> tuple[ExternalInput, ...]:
    """Every file of ``dataset``; raises KeyError naming the known datasets if it is unknown."""
    found = tuple(item for item in input_table() if item.dataset == dataset)
    if not found:
        raise KeyError(f"unknown dataset {dataset!r}; known: {', '.join(datasets())}")
    return found


def sha256_of(path: str | os.PathLike, chunk: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


class Mirror:
    """A local directory of input files described by its ``MANIFEST.tsv`` (path, sha256)."""

    def __init__(self, root: str | os.PathLike) -> None:
        self.root = Path(root)
        manifest = self.root / "MANIFEST.tsv"
        if not manifest.is_file():
            raise InputFormatError(str(manifest), None, None, f"a mirror needs a MANIFEST.tsv (set by {MIRROR_ENV} or config 'mirror')")
        self._by_name: dict[str, list[tuple[str, str]]] = {}
        for line, row in read_tsv_with_header(manifest, ("path", "sha256")):
            sha = _optional_sha256(row["sha256"], str(manifest), line, "sha256")
            rel = row["path"]
            self._by_name.setdefault(PurePosixPath(rel).name, []).append((rel, sha or ""))

    def lists(self, item: ExternalInput) -> bool:
        """Whether the manifest lists ``item`` (its name and checksum, or its path where it has no checksum) and the file
        is there; its bytes are not read (``find`` verifies them)."""
        return any(
            (item.sha256 == sha if item.sha256 is not None else rel == f"{item.dataset}/{item.path}") and (self.root / rel).is_file()
            for rel, sha in self._by_name.get(item.name, [])
        )

    def find(self, item: ExternalInput, rejected: list[tuple[Path, str, str]] | None = None) -> Path | None:
        """Path of a mirrored file with the same name and checksum as ``item`` (verified on disk), or None.

        For an input without a published checksum, the entry at ``<dataset>/<path>`` is taken when the
        file on disk matches the checksum the mirror's manifest records for it. A listed copy whose bytes do
        not match is appended to ``rejected`` as (path, expected sha256, actual sha256).
        """
        for rel, sha in self._by_name.get(item.name, []):
            if item.sha256 is not None and sha != item.sha256:
                continue
            if item.sha256 is None and rel != f"{item.dataset}/{item.path}":
                continue
            candidate = self.root / rel
            if not candidate.is_file():
                continue
            actual = sha256_of(candidate)
            if actual == sha:
                return candidate
            if rejected is not None:
                rejected.append((candidate, sha, actual))
        return None


def mirror_roots(config_value: str | list[str] | None) -> list[Path]:
    """Mirror directories in force: ``BOOQA_MIRROR`` (``os.pathsep``-separated) overrides config ``mirror``."""
    value = os.environ.get(MIRROR_ENV) or config_value
    if not value:
        return []
    parts = value.split(os.pathsep) if isinstance(value, str) else list(value)
    return [Path(part).expanduser().resolve() for part in parts if part]


def open_mirrors(config_value: str | list[str] | None) -> list[Mirror]:
    """The :class:`Mirror` objects of :func:`mirror_roots`; a listed directory without MANIFEST.tsv is an error, one that
    does not exist is passed over with a warning (its files come from their canonical URLs)."""
    mirrors = []
    for root in mirror_roots(config_value):
        if not root.exists():
            log.warning("the mirror %s does not exist: its inputs are downloaded from their canonical URLs", root)
            continue
        mirrors.append(Mirror(root))
    return mirrors
