"""Atomic writes: umask-honouring permissions, and the temporaries a killed writer leaves are cleaned up."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run
from directional_inference.atomic import atomic_directory, atomic_file, current_umask, write_text_atomic


@pytest.fixture
def umask():
    """Set the process umask for one test and restore it afterwards."""
    previous = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask,file_mode,dir_mode", [(0o002, 0o664, 0o775), (0o022, 0o644, 0o755)])
def test_outputs_get_the_umask_permissions_not_the_private_temporary_ones(tmp_path, umask, mask, file_mode, dir_mode):
    umask(mask)
    assert current_umask() == mask
    write_text_atomic(tmp_path / "table.csv", "a,b\n")
    with atomic_directory(tmp_path / "model") as tmp:
        (tmp / "config.json").write_text("{}")
        (tmp / "sub").mkdir()
    assert _mode(tmp_path / "table.csv") == file_mode
    assert _mode(tmp_path / "model") == dir_mode
    assert _mode(tmp_path / "model" / "config.json") == file_mode and _mode(tmp_path / "model" / "sub") == dir_mode


def test_a_mode_the_writer_sets_is_kept(tmp_path, umask):
    umask(0o002)
    with atomic_directory(tmp_path / "nltk_data") as tmp:
        tmp.chmod(0o755)  # the WordNet root must not be group-writable, whatever the umask
    with atomic_file(tmp_path / "key") as tmp:
        tmp.write_text("secret")
        tmp.chmod(0o400)
    assert _mode(tmp_path / "nltk_data") == 0o755 and _mode(tmp_path / "key") == 0o400


def test_stale_temporaries_of_the_same_target_are_removed_before_writing(tmp_path, caplog):
    (tmp_path / ".out.parquet.abcd1234.part").write_bytes(b"half")
    (tmp_path / ".out.parquet.zz_y9876.part").mkdir()
    (tmp_path / ".out.parquet.zz_y9876.part" / "f").write_bytes(b"half")
    keep = [tmp_path / ".out.parquet.x.abcd1234.part", tmp_path / ".out.parquet.abc.part", tmp_path / ".other.abcd1234.part"]
    for path in keep:  # another target's temporary, or not a temporary name
        path.write_bytes(b"x")
    with atomic_file(tmp_path / "out.parquet") as tmp:
        tmp.write_bytes(b"whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p.name for p in keep] + ["out.parquet"])
    assert (tmp_path / "out.parquet").read_bytes() == b"whole"
    assert caplog.text.count("left by an interrupted writer") == 2


def test_a_failed_block_leaves_neither_target_nor_temporary(tmp_path):
    with pytest.raises(RuntimeError), atomic_directory(tmp_path / "d") as tmp:
        (tmp / "f").write_text("x")
        raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []


KILLED_WRITER = """
import os, signal, sys
from directional_inference.atomic import atomic_directory
with atomic_directory(sys.argv[1]) as tmp:
    for i in range(5):
        (tmp / f"file-{i}").write_text("x")
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_sigkilled_writer_leaves_a_temporary_that_the_next_write_removes(tmp_path):
    target = tmp_path / "resources" / "zh-news"
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target)], capture_output=True)
    assert killed.returncode == -9
    left = list(target.parent.glob(".zh-news.*.part"))
    assert len(left) == 1 and len(list(left[0].iterdir())) == 5 and not target.exists()
    with atomic_directory(target) as tmp:
        (tmp / "file-0").write_text("y")
    assert [p.name for p in target.parent.iterdir()] == ["zh-news"]


def test_dvc_and_git_ignore_temporaries(tmp_path):
    for name in (".dvcignore", ".gitignore"):
        shutil.copy(REPO / name, tmp_path / name)
    run(tmp_path, "git", "init", "-q")
    run(tmp_path, "dvc", "init", "-q")
    temporary = "resources/.zh-news.abcd1234.part/cctv_xwlb/2016/20160101.json"
    assert run(tmp_path, "dvc", "check-ignore", temporary, check=False).returncode == 0
    assert run(tmp_path, "dvc", "check-ignore", "resources/zh-news/cctv_xwlb/2016/20160101.json", check=False).returncode == 1
    assert run(tmp_path, "git", "check-ignore", "-q", "results/en/.test.parquet.abcd1234.part").returncode == 0
