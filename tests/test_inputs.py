"""The input table and the mirror lookup."""

from __future__ import annotations

import hashlib

import pytest

from directional_inference.errors import InputFormatError
from directional_inference.resources.inputs import (
    ExternalInput,
    Mirror,
    datasets,
    input_table,
    inputs_of,
    mirror_roots,
    parse_input_table,
    read_tsv_with_header,
)

HEADER = "dataset\tpath\tbytes\tsha256\turl\tlicence\n"
SHA = "a" * 64


def test_table_lists_every_dataset_with_checksums_where_published():
    assert set(datasets()) == {
        "levyholt",
        "levyholt-authors",
        "reuters21578",
        "zh-news",
        "omw-cmn",
        "wordnet-3.0",
        "newscrawl",
        "llm-nli-analysis",
        "booqa-authors",
    }
    for item in input_table():
        assert item.url.startswith("https://"), item
        assert item.licence, item
        if item.dataset == "newscrawl":
            assert item.sha256 is None and "{" not in item.url
        else:
            assert item.sha256 is not None and item.size and item.size > 0, item
    assert len(inputs_of("levyholt")) == 12
    assert len(inputs_of("reuters21578")) == 31
    assert [i.path for i in inputs_of("newscrawl")][0] == "news-docs.2007.en.filtered.gz"


def test_table_agrees_with_the_mirror_manifest(mirrors):
    shared = next((m for m in mirrors if (m.root / "levyholt").is_dir()), None)
    if shared is None:
        pytest.skip("the shared input mirror is not among BOOQA_MIRROR")
    rows = {row["path"]: row for _, row in read_tsv_with_header(shared.root / "MANIFEST.tsv", ("path", "sha256", "url"))}
    table = {f"{i.dataset}/{i.path}": i for i in input_table()}
    assert rows, "empty manifest"
    for path, row in rows.items():
        assert path in table, f"{path} of the mirror is missing from the input table"
        assert table[path].sha256 == row["sha256"] and table[path].url == row["url"]


def test_unknown_dataset_names_the_known_ones():
    with pytest.raises(KeyError, match="levyholt"):
        inputs_of("sherliic-full")


def test_bad_table_line_names_file_line_and_field(tmp_path):
    table = tmp_path / "inputs.tsv"
    table.write_text(HEADER + f"x\ta.txt\t12\t{SHA}\thttps://e/a\tL\n" + f"x\tb.txt\ttwelve\t{SHA}\thttps://e/b\tL\n")
    with pytest.raises(InputFormatError) as error:
        parse_input_table(table)
    assert error.value.line == 3 and error.value.field == "bytes"
    assert str(table) in str(error.value) and "line 3" in str(error.value)


def test_bad_checksum_and_short_line_and_missing_column(tmp_path):
    table = tmp_path / "inputs.tsv"
    table.write_text(HEADER + "x\ta.txt\t12\tABC\thttps://e/a\tL\n")
    with pytest.raises(InputFormatError, match="field 'sha256'"):
        parse_input_table(table)
    table.write_text(HEADER + "x\ta.txt\t12\n")
    with pytest.raises(InputFormatError, match="line 2: expected 6"):
        parse_input_table(table)
    table.write_text("dataset\tpath\n")
    with pytest.raises(InputFormatError, match="field 'bytes'"):
        parse_input_table(table)


def _mirror_with(tmp_path, files: dict[str, bytes], manifest_sha: dict[str, str] | None = None) -> Mirror:
    lines = ["path\tsha256"]
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
        sha = (manifest_sha or {}).get(rel, hashlib.sha256(data).hexdigest())
        lines.append(f"{rel}\t{sha}")
    (tmp_path / "MANIFEST.tsv").write_text("\n".join(lines) + "\n")
    return Mirror(tmp_path)


def test_mirror_matches_name_and_verified_checksum(tmp_path):
    data = b"hello\n"
    sha = hashlib.sha256(data).hexdigest()
    mirror = _mirror_with(tmp_path, {"anywhere/deep/a.txt": data, "b.txt": b"tampered"}, {"b.txt": sha})
    wanted = ExternalInput("x", "dir/a.txt", len(data), sha, "https://e/a.txt", "L")
    assert mirror.find(wanted) == tmp_path / "anywhere/deep/a.txt"
    # b.txt's manifest claims the right checksum but the bytes on disk differ: never taken.
    assert mirror.find(ExternalInput("x", "b.txt", len(data), sha, "https://e/b.txt", "L")) is None
    # same name, other checksum: not taken
    assert mirror.find(ExternalInput("x", "a.txt", 6, "0" * 64, "https://e/a.txt", "L")) is None


def test_mirror_without_manifest_is_a_clear_error(tmp_path):
    with pytest.raises(InputFormatError, match="MANIFEST.tsv"):
        Mirror(tmp_path)


def test_a_mirror_that_does_not_exist_is_passed_over_and_one_without_a_manifest_refused(monkeypatch, tmp_path, caplog):
    """The README's command names ../shared/mirror: on a machine without it the inputs come from their URLs."""
    from directional_inference.resources.inputs import open_mirrors

    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "MANIFEST.tsv").write_text("path\tsha256\n")
    monkeypatch.setenv("BOOQA_MIRROR", f"{tmp_path}/absent:{tmp_path}/real")
    assert [m.root for m in open_mirrors(None)] == [tmp_path / "real"]
    assert f"the mirror {tmp_path / 'absent'} does not exist" in caplog.text
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("BOOQA_MIRROR", f"{tmp_path}/empty")
    with pytest.raises(InputFormatError, match="MANIFEST.tsv"):
        open_mirrors(None)


def test_environment_overrides_config_mirror(monkeypatch, tmp_path):
    monkeypatch.setenv("BOOQA_MIRROR", f"{tmp_path}/a:{tmp_path}/b")
    assert mirror_roots("/elsewhere") == [tmp_path / "a", tmp_path / "b"]
    monkeypatch.delenv("BOOQA_MIRROR")
    assert mirror_roots(str(tmp_path)) == [tmp_path]
    assert mirror_roots(None) == []
