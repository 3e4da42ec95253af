"""Download external inputs: mirror first, then the canonical URL; every file sha256-verified, placed atomically."""

from __future__ import annotations

import base64
import gzip
import http.client
import logging
import os
import shutil
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..atomic import atomic_directory, atomic_file
from ..errors import InputUnavailableError
from .inputs import MIRROR_ENV, ExternalInput, Mirror, inputs_of, sha256_of
from ..progress import ProgressLog

log = logging.getLogger(__name__)

CHECKSUM_FILE = "SHA256SUMS"
DOWNLOAD_TIMEOUT_S = 60
DOWNLOAD_ATTEMPTS = 5  # a dropped connection is resumed (HTTP Range) this many times in all


@dataclass(frozen=True)
class BasicAuth:
    """HTTP basic-auth credentials (WMT serves the document-level News Crawl behind the ones it publishes)."""

    user: str
    password: str

    def header(self) -> str:
        token = base64.b64encode(f"{self.user}:{self.password}".encode()).decode()
        return f"Basic {token}"


def newscrawl_auth(config: Mapping) -> BasicAuth | None:
    """The user and password WMT publishes for the document-level News Crawl: NEWSCRAWL_USER / NEWSCRAWL_PASSWORD in the
    environment, else ``resources.newscrawl.user`` / ``password`` of the config; None where either is missing."""
    settings = (config.get("resources") or {}).get("newscrawl") or {}
    user = os.environ.get("NEWSCRAWL_USER") or settings.get("user")
    password = os.environ.get("NEWSCRAWL_PASSWORD") or settings.get("password")
    return BasicAuth(user, password) if user and password else None


def corrupt_mirror_copies(rejected: Sequence[tuple[Path, str, str]]) -> str:
    """What is wrong with mirror copies that failed their checksum: each file, its expected and actual sha256."""
    return "; ".join(
        f"the mirror copy {path} failed its checksum (expected sha256 {expected}, actual {actual})" for path, expected, actual in rejected
    )


def _unavailable(
    item: ExternalInput, mirrors: Sequence[Mirror], reason: str, rejected: Sequence[tuple[Path, str, str]] = ()
) -> InputUnavailableError:
    where = ", ".join(f"mirror {m.root}" for m in mirrors) or f"no mirror (set {MIRROR_ENV} or config key 'mirror')"
    mirror_problem = f"{corrupt_mirror_copies(rejected)}, and the download from its URL failed: " if rejected else ""
    return InputUnavailableError(
        f"cannot obtain input file '{item.dataset}/{item.path}': {mirror_problem}{reason}. "
        f"Looked in: {where}; URL: {item.url}. Place the file (listed with its sha256 in a MANIFEST.tsv) "
        f"in a mirror directory and point {MIRROR_ENV} at it, or give this machine network access to the URL."
    )


def _download(
    item: ExternalInput, target: Path, auth: BasicAuth | None, mirrors: Sequence[Mirror], rejected: Sequence[tuple[Path, str, str]] = ()
) -> str:
    """Stream ``item.url`` to ``target``; return the sha256 of what was written.

    A connection that drops or closes early is resumed where it stopped (an HTTP Range request; from the start where
    the server ignores it), up to ``DOWNLOAD_ATTEMPTS`` times; the bytes received must add up to the length the server
    announced, and a ``.gz`` file must decompress whole, so a short or corrupt file is never accepted (News Crawl
    publishes no checksum to catch it)."""
    received, total = 0, None
    progress = None
    for attempt in range(1, DOWNLOAD_ATTEMPTS + 1):
        request = urllib.request.Request(item.url, headers={"User-Agent": "directional-inference-workflow"})
        if auth is not None:
            request.add_header("Authorization", auth.header())
        if received:
            request.add_header("Range", f"bytes={received}-")
        try:
            with urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT_S) as response:
                content_range = response.headers.get("Content-Range") or ""
                resumed = received > 0 and response.status == 206 and content_range.startswith(f"bytes {received}-")
                if received and not resumed:  # the server ignored the Range (or answered another one): start again
                    received = 0
                total = _announced_length(response.headers, resumed) or total
                if progress is None:
                    progress = ProgressLog(f"downloading {item.dataset}/{item.path}", item.size or total, "bytes", logger=log)
                progress.done = received
                with open(target, "ab" if resumed else "wb") as out:
                    while block := response.read(1 << 20):
                        out.write(block)
                        received += len(block)
                        progress.advance(len(block))
        except urllib.error.HTTPError as exc:
            hint = " (this source needs the user and password WMT publishes: set them in config or the environment)" if exc.code == 401 else ""
            raise _unavailable(item, mirrors, f"HTTP {exc.code} {exc.reason}{hint}", rejected) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError, TimeoutError) as exc:
            if total is not None and received == total:  # dropped after the last byte: complete
                break
            if received == 0 or attempt == DOWNLOAD_ATTEMPTS:
                raise _unavailable(item, mirrors, f"download failed ({getattr(exc, 'reason', exc)}) after {received} bytes", rejected) from None
            log.warning("%s/%s: the connection dropped after %d bytes (%s); resuming", item.dataset, item.path, received, exc)
            continue
        if total is None or received == total:
            break
        log.warning("%s/%s: the server closed after %d of %d bytes; resuming", item.dataset, item.path, received, total)
    if total is not None and received != total:
        raise _unavailable(item, mirrors, f"short download: {received} of {total} bytes after {DOWNLOAD_ATTEMPTS} attempts", rejected)
    if progress is not None:
        progress.finish()
    if item.path.endswith(".gz") and (problem := _gzip_problem(target)):
        raise _unavailable(item, mirrors, f"the download is not a whole gzip file ({problem})", rejected)
    return sha256_of(target)


def _announced_length(headers, resumed: bool) -> int | None:
    """The whole file's length in bytes as the response announces it (a 206's Content-Range total), or None."""
    if resumed:
        total = (headers.get("Content-Range") or "").rpartition("/")[2]
        return int(total) if total.isdigit() else None
    length = headers.get("Content-Length")
    return int(length) if length and length.isdigit() else None


def _gzip_problem(path: Path) -> str:
    """Why ``path`` does not decompress whole ("" when it does): a truncated or corrupt gzip stream."""
    try:
        with gzip.open(path, "rb") as stream:
            while stream.read(1 << 24):
                pass
    except (OSError, EOFError, zlib.error) as exc:
        return str(exc) or type(exc).__name__
    return ""


def find_in_mirrors(item: ExternalInput, mirrors: Sequence[Mirror], rejected: list[tuple[Path, str, str]] | None = None) -> Path | None:
    """The first verified copy of ``item`` in ``mirrors``, or None; copies that fail their checksum go to ``rejected``."""
    for mirror in mirrors:
        if (found := mirror.find(item, rejected)) is not None:
            return found
    return None


INPUT_LOCK = "inputs.lock"


class ChecksumLock:
    """The sha256 of every input file whose source publishes none (News Crawl), recorded at its first download
    (``<sha256>  <dataset>/<path>`` lines, in the working directory's ``inputs.lock``) and verified at every later
    download, here or on another machine given the same file: a file that changed on the server or arrived corrupt is
    refused. Commit it beside your config to pin the inputs as the model pins pin the weights."""

    def __init__(self, path: str | os.PathLike = INPUT_LOCK) -> None:
        self.path = Path(path)

    def _entries(self) -> dict[str, str]:
        if not self.path.is_file():
            return {}
        lines = self.path.read_text(encoding="utf-8").splitlines()
        return {key: sha for sha, _, key in (line.partition("  ") for line in lines if line.strip() and not line.startswith("#"))}

    def recorded(self, item: ExternalInput) -> str | None:
        return self._entries().get(f"{item.dataset}/{item.path}")

    def record(self, item: ExternalInput, sha: str) -> None:
        """Add the file's sha256 (under an exclusive lock: downloads run side by side)."""
        import fcntl

        with open(self.path, "a", encoding="utf-8") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            if self.recorded(item) is None:
                handle.write(f"{sha}  {item.dataset}/{item.path}\n")


def fetch_input(
    item: ExternalInput, target: str | os.PathLike, mirrors: Sequence[Mirror], auth: BasicAuth | None = None, lock: ChecksumLock | None = None
) -> str:
    """Place ``item`` at ``target`` (atomically) from a mirror or its URL; return its verified sha256. A file without a
    published checksum is verified against ``lock`` where it is recorded there, and recorded where it is not."""
    target = Path(target)
    recorded = lock.recorded(item) if lock is not None and item.sha256 is None else None
    with atomic_file(target) as tmp:
        rejected: list[tuple[Path, str, str]] = []
        source = find_in_mirrors(item, mirrors, rejected)
        if rejected:
            log.warning("%s/%s: %s; trying its URL", item.dataset, item.path, corrupt_mirror_copies(rejected))
        if source is not None:
            log.info("%s/%s <- mirror %s", item.dataset, item.path, source)
            shutil.copyfile(source, tmp)
            sha = sha256_of(tmp)
        else:
            log.info("%s/%s <- %s", item.dataset, item.path, item.url)
            sha = _download(item, tmp, auth, mirrors, rejected)
        if item.sha256 is not None and sha != item.sha256:
            raise _unavailable(item, mirrors, f"checksum mismatch of the download: expected sha256 {item.sha256}, got {sha}", rejected)
        if item.size is not None and tmp.stat().st_size != item.size:
            raise _unavailable(item, mirrors, f"size mismatch: expected {item.size} bytes, got {tmp.stat().st_size}", rejected)
        if recorded is not None and sha != recorded:
            raise _unavailable(
                item,
                mirrors,
                f"checksum mismatch: sha256 {sha}, but {lock.path} recorded {recorded} at its first "
                "download (the file changed at its source, or arrived damaged)",
                rejected,
            )
        if item.sha256 is None and recorded is None:
            log.warning(
                "%s/%s has no published checksum; recorded sha256 %s%s", item.dataset, item.path, sha, f" in {lock.path}" if lock is not None else ""
            )
            if lock is not None:
                lock.record(item, sha)
    return sha


def fetch_dataset(
    dataset: str,
    destination: str | os.PathLike,
    mirrors: Sequence[Mirror],
    *,
    only: Iterable[str] | None = None,
    auth: BasicAuth | None = None,
    lock: ChecksumLock | None = None,
) -> dict[str, str]:
    """Fetch every file of ``dataset`` (or the paths in ``only``) into ``destination``, all or nothing.

    The directory appears only when every file is verified; it holds the files at their paths in the
    input table and a ``SHA256SUMS`` listing them. Returns ``{path: sha256}``.
    """
    items = inputs_of(dataset)
    if only is not None:
        wanted = set(only)
        unknown = wanted - {item.path for item in items}
        if unknown:
            raise KeyError(f"dataset {dataset!r} has no file(s) {sorted(unknown)}")
        items = tuple(item for item in items if item.path in wanted)
    checksums: dict[str, str] = {}
    progress = ProgressLog(f"fetching {dataset}", len(items), "files", logger=log)
    with atomic_directory(destination) as tmp:
        for item in items:
            checksums[item.path] = fetch_input(item, tmp / item.path, mirrors, auth, lock)
            progress.advance()
        progress.finish()
        _write_checksums(tmp, checksums)
    return checksums


def _write_checksums(directory: Path, checksums: dict[str, str]) -> None:
    """A dataset directory's ``SHA256SUMS``: ``<sha256>  <path>`` lines, sorted by path."""
    lines = "".join(f"{sha}  {path}\n" for path, sha in sorted(checksums.items()))
    (directory / CHECKSUM_FILE).write_text(lines, encoding="utf-8")


def gather_fetched(parts: Sequence[str | os.PathLike], destination: str | os.PathLike) -> dict[str, str]:
    """One dataset directory from directories that ``fetch_dataset`` filled with parts of it (one News Crawl year
    each, fetched by its own job): the files hard-linked, not copied (a year is gigabytes), and one ``SHA256SUMS``
    over all, as ``fetch_dataset`` would write it for the whole dataset. Returns ``{path: sha256}``."""
    checksums: dict[str, str] = {}
    with atomic_directory(destination) as tmp:
        for part in map(Path, parts):
            for line in (part / CHECKSUM_FILE).read_text(encoding="utf-8").splitlines():
                sha, _, path = line.partition("  ")
                target = tmp / path
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(part / path, target)
                except OSError:  # another file system
                    shutil.copyfile(part / path, target)
                checksums[path] = sha
        _write_checksums(tmp, checksums)
    return checksums


CLUE_FILES = ("news2016zh_train.json", "news2016zh_valid.json")


def collect_user_input(
    source: str | os.PathLike | None, destination: str | os.PathLike, files: Sequence[str], config_key: str, how: str
) -> dict[str, str]:
    """Copy user-supplied input files (relative paths under ``source``) into ``destination`` atomically, with their
    SHA256SUMS; an unset or incomplete ``source`` gives one message naming ``config_key`` and saying ``how``."""
    if not source:
        raise InputUnavailableError(f"config key {config_key} is not set. {how}")
    missing = [name for name in files if not (Path(source) / name).is_file()]
    if missing:
        raise InputUnavailableError(f"{source} lacks {', '.join(missing)} (config key {config_key}). {how}")
    checksums = {}
    with atomic_directory(destination) as tmp:
        for name in files:
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(source) / name, tmp / name)
            checksums[name] = sha256_of(tmp / name)
        _write_checksums(tmp, checksums)
    return checksums


def collect_clue_news(source: str | os.PathLike | None, destination: str | os.PathLike) -> dict[str, str]:
    """The user-supplied CLUE news2016zh files (no direct download URL): config key ``resources.clue_news2016zh``."""
    how = (
        "CLUE news2016zh has no direct download URL: get 'news2016zh' from the CLUE corpus page "
        "(https://github.com/brightmart/nlp_chinese_corpus, section 'news2016zh'), unpack it, and set config key "
        "resources.clue_news2016zh to the directory holding " + " and ".join(CLUE_FILES)
    )
    return collect_user_input(source, destination, CLUE_FILES, "resources.clue_news2016zh", how)


CHINESE_LEVYHOLT_FILES = ("dev/dev_s.txt", "test/test_s.txt", "dev_dir/dev_dir_s.txt", "test_dir/test_dir_s.txt")


def collect_chinese_levyholt(source: str | os.PathLike | None, destination: str | os.PathLike) -> dict[str, str]:
    """The user-supplied Chinese LevyHolt (Li et al. 2022, not public): config key ``resources.levyholt_zh``."""
    how = (
        "The Chinese LevyHolt (Li et al., Findings of ACL 2022, 'Cross-lingual inference with a Chinese entailment graph': "
        "LevyHolt translated into Chinese) is not published; ask its authors for it, convert it to the layout of the English "
        "LevyHoltDS '_s' files (one entry per line, 'hyp_subj,hyp_pred,hyp_obj<TAB>prem_subj,prem_pred,prem_obj<TAB>True|False'; "
        "the directional files hold the converse pairs on adjacent lines) and set config key resources.levyholt_zh to the "
        "directory holding " + ", ".join(CHINESE_LEVYHOLT_FILES)
    )
    return collect_user_input(source, destination, CHINESE_LEVYHOLT_FILES, "resources.levyholt_zh", how)
