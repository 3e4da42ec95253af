"""Downloading inputs: mirror first, then the URL (a local HTTP server), verified and atomic."""

from __future__ import annotations

import base64
import gzip
import hashlib
import http.server
import threading

import pytest

from directional_inference.errors import InputUnavailableError
from directional_inference.resources.fetch import BasicAuth, collect_clue_news, fetch_dataset, fetch_input
from directional_inference.resources.inputs import ExternalInput, Mirror

PAYLOAD = b"premise\thypothesis\tTrue\n" * 100
NEWS = gzip.compress(b"".join(b"sentence %d of the news\n" % k for k in range(20000)), mtime=0)


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves ``files``; a path in ``drops`` is cut after half its bytes (the full length announced) the first
    ``drops[path]`` times, and a Range request is answered with 206 unless the path is in ``no_range``."""

    files: dict[str, bytes] = {}
    auth: str | None = None
    drops: dict[str, int] = {}
    no_range: set[str] = set()
    requests: list[tuple[str, str | None]] = []

    def do_GET(self):  # noqa: N802 - http.server API
        self.requests.append((self.path, self.headers.get("Range")))
        if self.auth and self.headers.get("Authorization") != self.auth:
            self.send_response(401)
            self.end_headers()
            return
        body = self.files.get(self.path)
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        start = int(self.headers["Range"].removeprefix("bytes=").rstrip("-")) if self.headers.get("Range") else 0
        if start and self.path not in self.no_range:
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            part = body[start:]
        else:
            self.send_response(200)
            part = body
        self.send_header("Content-Length", str(len(part)))
        self.end_headers()
        if self.drops.get(self.path, 0) > 0:
            self.drops[self.path] -= 1
            self.wfile.write(part[: len(part) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(part)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    handler = type("Handler", (_Handler,), {"files": {}, "auth": None, "drops": {}, "no_range": set(), "requests": []})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield handler, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _item(url: str, data: bytes = PAYLOAD, sha: str | None = "auto", path: str = "dev/dev_s.txt") -> ExternalInput:
    digest = hashlib.sha256(data).hexdigest() if sha == "auto" else sha
    return ExternalInput("levyholt", path, len(data) if digest else None, digest, url, "research")


def test_download_from_url_is_verified(server, tmp_path):
    handler, base = server
    handler.files["/dev_s.txt"] = PAYLOAD
    target = tmp_path / "out" / "dev_s.txt"
    sha = fetch_input(_item(f"{base}/dev_s.txt"), target, [])
    assert target.read_bytes() == PAYLOAD and sha == hashlib.sha256(PAYLOAD).hexdigest()


def test_checksum_mismatch_leaves_no_file(server, tmp_path):
    handler, base = server
    handler.files["/dev_s.txt"] = PAYLOAD + b"x"
    target = tmp_path / "dev_s.txt"
    with pytest.raises(InputUnavailableError, match="checksum mismatch") as error:
        fetch_input(_item(f"{base}/dev_s.txt"), target, [])
    assert "levyholt/dev/dev_s.txt" in str(error.value) and f"{base}/dev_s.txt" in str(error.value)
    assert list(tmp_path.iterdir()) == []


def test_missing_file_and_no_mirror_names_file_url_and_variable(server, tmp_path):
    _, base = server
    with pytest.raises(InputUnavailableError) as error:
        fetch_input(_item(f"{base}/gone.txt"), tmp_path / "gone.txt", [])
    message = str(error.value)
    assert "HTTP 404" in message and f"{base}/gone.txt" in message and "BOOQA_MIRROR" in message
    assert list(tmp_path.iterdir()) == []


def test_unreachable_host_is_one_clear_error(tmp_path):
    with pytest.raises(InputUnavailableError, match="download failed"):
        fetch_input(_item("http://127.0.0.1:9/none.txt"), tmp_path / "none.txt", [])


def test_mirror_is_preferred_to_the_url(tmp_path):
    mirror_dir = tmp_path / "mirror"
    (mirror_dir / "levyholt").mkdir(parents=True)
    (mirror_dir / "levyholt" / "dev_s.txt").write_bytes(PAYLOAD)
    (mirror_dir / "MANIFEST.tsv").write_text(f"path\tsha256\nlevyholt/dev_s.txt\t{hashlib.sha256(PAYLOAD).hexdigest()}\n")
    target = tmp_path / "dev_s.txt"
    # the URL is unreachable: success proves the mirror was used
    fetch_input(_item("http://127.0.0.1:9/dev_s.txt"), target, [Mirror(mirror_dir)])
    assert target.read_bytes() == PAYLOAD


def test_basic_auth_is_sent_and_required(server, tmp_path):
    handler, base = server
    handler.files["/news-docs.2007.en.filtered.gz"] = NEWS
    handler.auth = "Basic " + base64.b64encode(b"user:secret").decode()
    item = _item(f"{base}/news-docs.2007.en.filtered.gz", sha=None, path="news-docs.2007.en.filtered.gz")
    with pytest.raises(InputUnavailableError, match="HTTP 401.*user and password"):
        fetch_input(item, tmp_path / "a.gz", [])
    sha = fetch_input(item, tmp_path / "b.gz", [], BasicAuth("user", "secret"))
    assert sha == hashlib.sha256(NEWS).hexdigest()


def test_fetch_dataset_from_the_real_mirror_is_complete_and_verified(mirrors, tmp_path):
    checksums = fetch_dataset("levyholt", tmp_path / "levyholt", mirrors)
    assert len(checksums) == 12
    sums = (tmp_path / "levyholt" / "SHA256SUMS").read_text().splitlines()
    assert len(sums) == 12
    for line in sums:
        sha, path = line.split("  ")
        assert hashlib.sha256((tmp_path / "levyholt" / path).read_bytes()).hexdigest() == sha
    first = (tmp_path / "levyholt" / "LevyHoltDS/dev/dev_s.txt").read_text().splitlines()[0]
    assert first.count("\t") >= 2 and first.split("\t")[2] in {"True", "False"}


def test_failed_dataset_leaves_no_directory(server, tmp_path, monkeypatch):
    """One file of a dataset failing leaves neither the directory nor a partial copy behind."""
    from directional_inference.resources import fetch as fetch_module

    handler, base = server
    handler.files["/a.txt"] = PAYLOAD
    items = (_item(f"{base}/a.txt", path="a.txt"), _item(f"{base}/b.txt", path="b.txt"))
    monkeypatch.setattr(fetch_module, "inputs_of", lambda dataset: items)
    with pytest.raises(InputUnavailableError, match="b.txt"):
        fetch_dataset("levyholt", tmp_path / "levyholt", [])
    assert list(tmp_path.iterdir()) == []


def test_clue_without_path_says_where_to_get_it_and_which_key(tmp_path):
    with pytest.raises(InputUnavailableError) as error:
        collect_clue_news(None, tmp_path / "clue")
    assert "resources.clue_news2016zh" in str(error.value) and "nlp_chinese_corpus" in str(error.value)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "news2016zh_train.json").write_text('{"news_id": "1"}\n')
    with pytest.raises(InputUnavailableError, match="news2016zh_valid.json"):
        collect_clue_news(tmp_path / "src", tmp_path / "clue")
    (tmp_path / "src" / "news2016zh_valid.json").write_text('{"news_id": "2"}\n')
    sums = collect_clue_news(tmp_path / "src", tmp_path / "clue")
    assert set(sums) == {"news2016zh_train.json", "news2016zh_valid.json"}
    assert (tmp_path / "clue" / "SHA256SUMS").is_file()


def _corrupt_mirror(tmp_path):
    mirror_dir = tmp_path / "mirror"
    (mirror_dir / "levyholt").mkdir(parents=True)
    (mirror_dir / "levyholt" / "dev_s.txt").write_bytes(PAYLOAD[:-1] + b"X")  # one byte changed on disk
    (mirror_dir / "MANIFEST.tsv").write_text(f"path\tsha256\nlevyholt/dev_s.txt\t{hashlib.sha256(PAYLOAD).hexdigest()}\n")
    return mirror_dir


def test_corrupt_mirror_copy_and_failed_download_are_both_named(tmp_path):
    mirror_dir = _corrupt_mirror(tmp_path)
    with pytest.raises(InputUnavailableError) as error:
        fetch_input(_item("http://127.0.0.1:9/dev_s.txt"), tmp_path / "dev_s.txt", [Mirror(mirror_dir)])
    message = str(error.value)
    expected, actual = hashlib.sha256(PAYLOAD).hexdigest(), hashlib.sha256(PAYLOAD[:-1] + b"X").hexdigest()
    assert f"the mirror copy {mirror_dir / 'levyholt' / 'dev_s.txt'} failed its checksum (expected sha256 {expected}, actual {actual})" in message
    assert "and the download from its URL failed: download failed" in message and "http://127.0.0.1:9/dev_s.txt" in message
    assert not (tmp_path / "dev_s.txt").exists()


def test_corrupt_mirror_copy_is_reported_when_the_url_serves_the_file(server, tmp_path, caplog):
    handler, base = server
    handler.files["/dev_s.txt"] = PAYLOAD
    mirror_dir = _corrupt_mirror(tmp_path)
    fetch_input(_item(f"{base}/dev_s.txt"), tmp_path / "dev_s.txt", [Mirror(mirror_dir)])
    assert (tmp_path / "dev_s.txt").read_bytes() == PAYLOAD
    assert f"the mirror copy {mirror_dir / 'levyholt' / 'dev_s.txt'} failed its checksum" in caplog.text


def test_download_progress_is_logged(server, tmp_path, caplog, monkeypatch):
    import functools

    from directional_inference.resources import fetch as fetch_module
    from directional_inference.progress import ProgressLog

    monkeypatch.setattr(fetch_module, "ProgressLog", functools.partial(ProgressLog, interval=0))  # a line per 1 MiB block
    handler, base = server
    payload = b"x" * (3 << 20)
    handler.files["/big.txt"] = payload
    caplog.set_level("INFO")
    fetch_input(_item(f"{base}/big.txt", data=payload), tmp_path / "big.txt", [])
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("downloading levyholt/dev/dev_s.txt")]
    assert len(lines) == 4 and lines[0].startswith("downloading levyholt/dev/dev_s.txt: 1048576/3145728 bytes (33.3%)")
    assert "(done in" in lines[-1]


# --- downloads that drop, come short or arrive corrupt -----------------------------------------------------------------


def _news_item(url: str) -> ExternalInput:
    """A News Crawl-like file: gzip, no published checksum or size."""
    return ExternalInput("newscrawl", "news.2007.en.shuffled.deduped.gz", None, None, url, "research")


def test_a_dropped_download_resumes_where_it_stopped(server, tmp_path):
    handler, base = server
    handler.files["/news.gz"] = NEWS
    handler.drops["/news.gz"] = 2  # cut twice: the first request and the first resumption
    target = tmp_path / "news.gz"
    sha = fetch_input(_news_item(f"{base}/news.gz"), target, [])
    assert target.read_bytes() == NEWS and sha == hashlib.sha256(NEWS).hexdigest()
    ranges = [r for _, r in handler.requests]
    assert ranges == [None, f"bytes={len(NEWS) // 2}-", f"bytes={len(NEWS) // 2 + (len(NEWS) - len(NEWS) // 2) // 2}-"]


def test_a_server_that_ignores_range_is_read_again_from_the_start(server, tmp_path):
    handler, base = server
    handler.files["/news.gz"] = NEWS
    handler.drops["/news.gz"] = 1
    handler.no_range.add("/news.gz")
    target = tmp_path / "news.gz"
    fetch_input(_news_item(f"{base}/news.gz"), target, [])
    assert target.read_bytes() == NEWS and len(handler.requests) == 2


def test_a_download_that_stays_short_is_never_accepted(server, tmp_path):
    handler, base = server
    handler.files["/news.gz"] = NEWS
    handler.drops["/news.gz"] = 100  # every attempt cut
    target = tmp_path / "news.gz"
    with pytest.raises(InputUnavailableError, match="download failed|short download"):
        fetch_input(_news_item(f"{base}/news.gz"), target, [])
    assert list(tmp_path.iterdir()) == []  # nothing half-written left
    from directional_inference.resources.fetch import DOWNLOAD_ATTEMPTS

    assert len(handler.requests) == DOWNLOAD_ATTEMPTS


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_a_gzip_that_does_not_decompress_whole_is_refused(server, tmp_path, damage):
    """The server announces the damaged file's own length, so only decompressing it whole can tell."""
    handler, base = server
    body = NEWS[: len(NEWS) * 2 // 3] if damage == "truncated" else NEWS[:1000] + bytes(b ^ 0xFF for b in NEWS[1000:1100]) + NEWS[1100:]
    handler.files["/news.gz"] = body
    target = tmp_path / "news.gz"
    with pytest.raises(InputUnavailableError, match="not a whole gzip file") as error:
        fetch_input(_news_item(f"{base}/news.gz"), target, [])
    assert "newscrawl/news.2007.en.shuffled.deduped.gz" in str(error.value)
    assert list(tmp_path.iterdir()) == []


def test_a_file_without_a_published_checksum_is_recorded_once_and_verified_after(server, tmp_path):
    """News Crawl publishes no checksum: its first download records the sha256 in the lock file; a later download that
    differs (the file changed at its source, or arrived damaged, though whole) is refused, and nothing is left."""
    from directional_inference.resources.fetch import ChecksumLock

    handler, base = server
    handler.files["/news.gz"] = NEWS
    lock = ChecksumLock(tmp_path / "inputs.lock")
    item = _news_item(f"{base}/news.gz")
    fetch_input(item, tmp_path / "first" / "news.gz", [], lock=lock)
    assert (tmp_path / "inputs.lock").read_text() == f"{hashlib.sha256(NEWS).hexdigest()}  newscrawl/{item.path}\n"
    fetch_input(item, tmp_path / "again" / "news.gz", [], lock=lock)  # the same bytes: accepted, recorded once
    assert len((tmp_path / "inputs.lock").read_text().splitlines()) == 1
    handler.files["/news.gz"] = gzip.compress(b"another shuffle of the news\n" * 1000, mtime=0)  # a valid gzip, other bytes
    with pytest.raises(InputUnavailableError, match="recorded .* at its first download") as error:
        fetch_input(item, tmp_path / "changed" / "news.gz", [], lock=lock)
    assert str(tmp_path / "inputs.lock") in str(error.value)
    assert not (tmp_path / "changed" / "news.gz").exists()
    assert len((tmp_path / "inputs.lock").read_text().splitlines()) == 1


def test_news_crawl_is_fetched_a_year_per_local_job_and_gathered_whole(tmp_path, monkeypatch):
    """Snakemake for real on resources/newscrawl with two years in a mirror: one fetch job per year, each a local rule,
    gathered into one directory with one SHA256SUMS (sha256s computed here from the bytes); the per-year directories are
    temporary and each file's sha256 is recorded in inputs.lock at its first download."""
    import yaml

    from conftest import copy_workflow, run_snakemake

    years = {2016: gzip.compress(b"2016 news\n" * 500, mtime=0), 2017: gzip.compress(b"2017 news\n" * 700, mtime=0)}
    mirror = tmp_path / "mirror"
    (mirror / "newscrawl").mkdir(parents=True)
    manifest = ["path\tsha256"]
    for year, data in years.items():
        (mirror / "newscrawl" / f"news-docs.{year}.en.filtered.gz").write_bytes(data)
        manifest.append(f"newscrawl/news-docs.{year}.en.filtered.gz\t{hashlib.sha256(data).hexdigest()}")
    (mirror / "MANIFEST.tsv").write_text("\n".join(manifest) + "\n")
    monkeypatch.setenv("BOOQA_MIRROR", str(mirror))
    work = copy_workflow(tmp_path / "repo")
    (work / "years.yaml").write_text(yaml.safe_dump({"resources": {"newscrawl": {"years": sorted(years)}}}))
    result = run_snakemake(work, "resources/newscrawl", "--cores", "1", "--configfile", "config/smoke.yaml", "years.yaml")
    log = result.stdout + result.stderr
    assert log.count("localrule fetch_newscrawl_year:") == 2 and log.count("localrule gather_newscrawl:") == 1
    assert "localrule fetch_dataset:" not in log and "rule fetch_dataset:" not in log
    expected = "".join(f"{hashlib.sha256(data).hexdigest()}  news-docs.{year}.en.filtered.gz\n" for year, data in sorted(years.items()))
    assert (work / "resources/newscrawl/SHA256SUMS").read_text() == expected
    for year, data in years.items():
        assert (work / f"resources/newscrawl/news-docs.{year}.en.filtered.gz").read_bytes() == data
        assert (work / f"logs/resources/fetch_newscrawl_year/{year}.log").is_file()
    assert not (work / "resources/newscrawl-years").exists() or not any((work / "resources/newscrawl-years").iterdir())
    assert sorted((work / "inputs.lock").read_text().splitlines()) == sorted(
        f"{hashlib.sha256(data).hexdigest()}  newscrawl/news-docs.{year}.en.filtered.gz" for year, data in years.items()
    )
