"""Atomic placement of files and directories: a killed job never leaves a half-written artefact."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    finally:
        tmp_path.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_directory(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary directory beside ``path``; it replaces ``path`` only if the block succeeds."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp_path = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    try:
        yield tmp_path
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
