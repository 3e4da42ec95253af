"""Atomic placement of files and directories: a killed job never leaves a half-written artefact.

A file or directory is written under a temporary name beside its target (``.<name>.<8 random chars>.part``) and
renamed onto the target when complete. The final file or directory gets the permissions the umask gives a new
one (``mkstemp``/``mkdtemp`` create 0600/0700), unless the writer set a mode itself (the WordNet root must
not be group-writable whatever the umask, or NLTK refuses it). Temporaries of the same target left by a killed job (SIGKILL
leaves no chance to clean up) are removed before the target is written again: Snakemake never runs two jobs
with the same output at once.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger(__name__)


def current_umask() -> int:
    """The process umask, read without changing it where /proc tells it (os.umask can only set it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Remove the ``.<name>.*.part`` files and directories an interrupted writer of ``target`` left beside it."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.part")
    removed = []
    if target.parent.is_dir():
        for path in sorted(target.parent.iterdir()):
            if pattern.fullmatch(path.name):
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)
                else:
                    path.unlink(missing_ok=True)
                log.warning("removed %s, left by an interrupted writer of %s", path, target)
                removed.append(path)
    return removed


def _temporary_name(target: Path) -> dict:
    return {"prefix": f".{target.name}.", "suffix": ".part", "dir": target.parent}


def _honour_umask(path: Path, created: int, wanted: int) -> None:
    """Give ``path`` the mode ``wanted & ~umask`` if it still has the private mode ``created`` it was made with."""
    if stat.S_IMODE(path.stat().st_mode) == created:
        path.chmod(wanted & ~current_umask())


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(**_temporary_name(target))
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        _honour_umask(tmp_path, 0o600, 0o666)
        os.replace(tmp_path, target)
    finally:
        tmp_path.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_directory(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary directory beside ``path``; it replaces ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target)
    tmp_path = Path(tempfile.mkdtemp(**_temporary_name(target)))
    try:
        yield tmp_path
        _honour_umask(tmp_path, 0o700, 0o777)
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            shutil.rmtree(tmp_path)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8, LF line endings) to ``path`` atomically."""
    with atomic_file(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")


def save_figure(figure, png: str | os.PathLike, svg: str | os.PathLike, *, dpi: int = 120) -> None:
    """A matplotlib figure as PNG and SVG, atomically and byte-stable (no dates or tool versions inside)."""
    with atomic_file(png) as tmp:
        figure.savefig(tmp, format="png", dpi=dpi, metadata={"Software": None})
    with atomic_file(svg) as tmp:
        figure.savefig(tmp, format="svg", metadata={"Date": None, "Creator": None})
