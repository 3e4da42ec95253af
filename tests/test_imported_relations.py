"""Relations from elsewhere: relation files in the documented schema become shards, checked row by row; synthetic
relation files of the scale benchmark follow the same schema."""

from __future__ import annotations

import pandas as pd
import pytest

from directional_inference.errors import InputFormatError, WorkflowError
from directional_inference.relations.imported import import_relations, relation_files, write_imported_corpus
from directional_inference.relations.shards import COLUMNS, merge_relations

ROWS = [
    {
        "article_id": "doc1",
        "date": "2014-01-02",
        "sentence_id": 0,
        "sentence": "Apple bought Beats.",
        "subj": "apple",
        "pred": "buy",
        "obj": "beats",
        "subj_type": "organization",
        "obj_type": "organization",
    },
    {
        "article_id": "doc2",
        "date": "2014-01-05",
        "sentence_id": 3,
        "sentence": "Beats was sold.",
        "subj": "beats",
        "pred": "be sold to",
        "obj": "apple",
        "subj_type": "organization",
        "obj_type": "organization",
    },
]


def _write(path, rows, kind=None):
    frame = pd.DataFrame(rows)
    if (kind or path.suffix) == ".parquet":
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, sep="\t", index=False)
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
def test_a_relation_file_becomes_a_shard_with_its_windows(tmp_path, suffix):
    source = _write(tmp_path / f"mine{suffix}", ROWS)
    assert import_relations(source, tmp_path / "0.parquet", window_days=3) == 2
    shard = pd.read_parquet(tmp_path / "0.parquet")
    assert list(shard.columns) == list(COLUMNS)
    # 2 January is day 2 of 2014: window 1-3 January; 5 January: 4-6 January
    assert list(shard["window"]) == ["2014_01-01_01-03", "2014_01-04_01-06"] and shard["sentence_id"].tolist() == [0, 3]
    assert str(shard["sentence_id"].dtype) == "int32"


def test_windows_without_dates_and_no_sentence_text(tmp_path, engine):
    rows = [{k: v for k, v in row.items() if k not in ("date", "sentence")} | {"window": "2014_01-04_01-06"} for row in ROWS]
    rows.append(rows[0] | {"sentence_id": 1})  # the same triple in another sentence: no text to merge it away
    import_relations(_write(tmp_path / "w.parquet", rows), tmp_path / "0.parquet", window_days=3)
    shard = pd.read_parquet(tmp_path / "0.parquet")
    assert shard["date"].tolist() == ["2014-01-04"] * 3 and shard["sentence"].isna().all()  # the window's first day
    assert merge_relations(engine, [tmp_path / "0.parquet"], tmp_path / "merged.parquet") == 3  # each sentence its own
    reading = write_imported_corpus(engine, [tmp_path / "0.parquet"], tmp_path / "merged.parquet", ["w.parquet"], tmp_path / "articles.parquet")
    articles = pd.read_parquet(tmp_path / "articles.parquet")
    assert articles["article_id"].tolist() == ["doc1", "doc2"] and articles["text"].isna().all()
    assert reading["records_read"] == 3 and reading["articles_kept"] == 2 and reading["files"] == 1


@pytest.mark.parametrize(
    "change, where",
    [
        ({"drop": "pred"}, "field 'pred': missing column"),
        ({"drop": "date"}, "field 'date (or window)': missing column"),
        ({"set": ("sentence_id", "three")}, "field 'sentence_id': not a whole number"),
        ({"set": ("sentence_id", -1)}, "field 'sentence_id': not a whole number"),
        ({"set": ("date", "2014-02-30")}, "field 'date': not a date YYYY-MM-DD: '2014-02-30'"),
        ({"set": ("date", "02/01/2014")}, "field 'date': not a date"),
        ({"set": ("subj", "")}, "field 'subj': empty"),
        ({"set": ("window", "2014-01")}, "field 'window': not a window"),
    ],
)
@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
def test_a_bad_file_names_the_file_row_and_field_and_leaves_nothing(tmp_path, change, where, suffix):
    rows = [dict(row) for row in ROWS] + [dict(ROWS[0], article_id="doc3")]
    if "drop" in change:
        rows = [{k: v for k, v in row.items() if k != change["drop"]} for row in rows]
        place = ""
    else:
        field, value = change["set"]
        if field == "window":  # a file with windows: every row has one
            rows = [dict(row, window="2014_01-01_01-03") for row in rows]
        if suffix == ".parquet" and isinstance(value, int) is not isinstance(rows[0].get(field, ""), int):
            pytest.skip("a Parquet column has one type")
        rows[2][field] = value
        place = ", line 4" if suffix == ".tsv" else ", row 3"  # TSV counts the header line
    source = _write(tmp_path / f"bad{suffix}", rows)
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "out" / "0.parquet", window_days=3)
    assert str(error.value).startswith(f"{source}{place}, {where}")
    assert not any((tmp_path / "out").iterdir())  # no shard, no temporary left


def test_a_parquet_column_of_the_wrong_type_is_named(tmp_path):
    rows = [dict(row, sentence_id=float(row["sentence_id"])) for row in ROWS]
    with pytest.raises(InputFormatError, match="field 'sentence_id': expected a whole number, found double"):
        import_relations(_write(tmp_path / "f.parquet", rows), tmp_path / "0.parquet", window_days=3)


def test_an_article_with_two_dates_is_an_error(tmp_path, engine):
    rows = [ROWS[0], dict(ROWS[0], date="2014-03-01", sentence_id=5, sentence="Apple bought Beats again.")]
    import_relations(_write(tmp_path / "x.parquet", rows), tmp_path / "0.parquet", window_days=3)
    merge_relations(engine, [tmp_path / "0.parquet"], tmp_path / "merged.parquet")
    with pytest.raises(WorkflowError, match="article 'doc1' has more than one date"):
        write_imported_corpus(engine, [tmp_path / "0.parquet"], tmp_path / "merged.parquet", ["x"], tmp_path / "articles.parquet")


def test_a_directory_without_relation_files_is_refused(tmp_path):
    with pytest.raises(InputFormatError, match="no relation files"):
        relation_files(tmp_path)
    _write(tmp_path / "b.tsv", ROWS)
    _write(tmp_path / "a.parquet", ROWS)
    (tmp_path / "notes.txt").write_text("-")
    assert [p.name for p in relation_files(tmp_path)] == ["a.parquet", "b.tsv"]


def test_synthetic_relations_follow_the_schema_and_the_seed(tmp_path, engine):
    from directional_inference.relations.synthetic import SyntheticModel, Vocabulary, generate_relations, hashed_uniform

    model = SyntheticModel(
        base_relations=1000,
        relations_per_article=4.0,
        relations_per_sentence=1.5,
        repeated_sentence_share=0.1,
        sentence_characters=20,
        window_zipf=1.2,
        pair_zipf=1.5,
        predicates=Vocabulary(1.1, 500, 0.6),
        arguments=Vocabulary(1.1, 800, 0.6),
        type_shares={"thing": 0.8, "person": 0.2},
        head_predicates=["acquire", "buy"],
    )
    first = generate_relations(model, 5000, tmp_path / "a", seed=3, file_relations=2000)
    again = generate_relations(model, 5000, tmp_path / "b", seed=3, file_relations=2000)
    assert len(first) == 3 and all(p.read_bytes() == q.read_bytes() for p, q in zip(first, again))
    shards = [tmp_path / f"{k}.parquet" for k in range(len(first))]
    for path, shard in zip(first, shards):
        import_relations(path, shard, window_days=3)  # the imported-relations check passes
    relations = pd.concat([pd.read_parquet(p) for p in shards])
    assert 4500 < len(relations) < 5500 and relations["window"].str[:4].astype(int).between(2007, 2016).all()
    assert set(relations["subj_type"]) == {"thing", "person"} and (relations["subj"] != relations["obj"]).all()
    assert relations["pred"].value_counts().index[0] == "acquire"  # the head predicates are the most frequent
    assert merge_relations(engine, shards, tmp_path / "merged.parquet") < len(relations)  # boilerplate sentences repeat
    uniform = hashed_uniform(pd.Series(range(100000)).to_numpy(), salt=1)
    assert 0.49 < uniform.mean() < 0.51 and uniform.min() >= 0 and uniform.max() < 1


@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
def test_a_window_that_is_not_its_dates_is_named(tmp_path, suffix):
    """With both date and window, each row's window must be its date's (3-day windows: Jan 1-3, Jan 4-6)."""
    good = [dict(ROWS[0], window="2014_01-01_01-03"), dict(ROWS[1], window="2014_01-04_01-06")]
    import_relations(_write(tmp_path / f"good{suffix}", good), tmp_path / "good" / "0.parquet", window_days=3)
    assert list(pd.read_parquet(tmp_path / "good" / "0.parquet")["window"]) == ["2014_01-01_01-03", "2014_01-04_01-06"]
    bad = [good[0], dict(good[1], window="2014_01-01_01-03")]  # 2014-01-05 is in Jan 4-6
    source = _write(tmp_path / f"bad{suffix}", bad)
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "bad" / "0.parquet", window_days=3)
    place = "line 3" if suffix == ".tsv" else "row 2"
    assert str(error.value).startswith(f"{source}, {place}, field 'window': not the 3-day window of the row's date")


def test_an_empty_line_in_a_tsv_is_named_by_its_line(tmp_path):
    """An empty line is not skipped silently: rows and lines stay one to one, so the error's line is the file's."""
    source = _write(tmp_path / "f.tsv", ROWS)
    lines = source.read_text().splitlines()
    source.write_text("\n".join([lines[0], lines[1], "", lines[2]]) + "\n")
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "out" / "0.parquet", window_days=3)
    assert str(error.value).startswith(f"{source}, line 3")


def _with_bytes(path, field, row, raw: bytes):
    """A relation file whose ``field`` in data row ``row`` (0-based) holds the bytes ``raw`` (invalid UTF-8 included)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [dict(r) for r in ROWS] + [dict(ROWS[0], article_id="doc3")]
    if path.suffix == ".tsv":
        header = list(rows[0])
        lines = ["\t".join(header).encode()]
        for k, r in enumerate(rows):
            lines.append(b"\t".join(raw if (k == row and name == field) else str(r[name]).encode() for name in header))
        path.write_bytes(b"\n".join(lines) + b"\n")
        return path
    columns = {}
    for name in rows[0]:
        values = [raw if (k == row and name == field) else (str(r[name]).encode() if name != "sentence_id" else r[name]) for k, r in enumerate(rows)]
        if name == "sentence_id":
            columns[name] = pa.array(values, pa.int64())
        else:  # string bytes as they are: Arrow does not check them when it writes or reads Parquet
            binary = pa.array(values, pa.binary())
            columns[name] = pa.Array.from_buffers(pa.string(), len(binary), binary.buffers())
    pq.write_table(pa.table(columns), path)
    return path


@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
@pytest.mark.parametrize(
    "field, raw, problem",
    [
        ("pred", b"be bought\xff by", "not UTF-8 text (byte 10 of the field: b'\\xff')"),
        ("sentence", b"Apple \xc3( bought Beats.", "not UTF-8 text (byte 7 of the field: b'\\xc3')"),
        ("obj", b"bea\x00ts", "a control character (U+0000) in the text"),
        ("subj", "app\u0085le".encode(), "a control character (U+0085) in the text"),
        ("sentence", b"Apple bought\x1bBeats.", "a control character (U+001B) in the text"),
    ],
)
def test_text_that_is_not_clean_utf8_is_named_with_file_row_and_field(tmp_path, suffix, field, raw, problem):
    source = _with_bytes(tmp_path / f"odd{suffix}", field, 1, raw)
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "out" / "0.parquet", window_days=3)
    place = "line 3" if suffix == ".tsv" else "row 2"  # the second data row; TSV counts the header line
    assert str(error.value) == f"{source}, {place}, field '{field}': {problem}"
    assert not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
def test_a_field_longer_than_the_cap_is_refused(tmp_path, suffix):
    rows = [dict(ROWS[0]), dict(ROWS[1], pred="be " + "x" * 37)]  # a 40-character predicate
    source = _write(tmp_path / f"long{suffix}", rows)
    assert import_relations(source, tmp_path / "ok" / "0.parquet", window_days=3, max_chars=40) == 2
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "out" / "0.parquet", window_days=3, max_chars=39)
    place = "line 3" if suffix == ".tsv" else "row 2"
    assert str(error.value) == f"{source}, {place}, field 'pred': longer than 39 characters (relations.imported_max_chars)"
    assert not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize("suffix", [".parquet", ".tsv"])
def test_an_empty_file_and_a_file_of_no_rows_are_refused_unless_allowed(tmp_path, suffix):
    empty = tmp_path / f"empty{suffix}"
    empty.write_bytes(b"")
    with pytest.raises(InputFormatError) as error:
        import_relations(empty, tmp_path / "out" / "0.parquet", window_days=3)
    assert str(error.value).startswith(f"{empty}: an empty file (0 bytes)")
    header_only = _write(tmp_path / f"header{suffix}", pd.DataFrame(columns=list(ROWS[0])).astype({"sentence_id": "int64"}))
    with pytest.raises(InputFormatError) as error:
        import_relations(header_only, tmp_path / "out" / "0.parquet", window_days=3)
    assert str(error.value).startswith(f"{header_only}: no relations in the file") and "relations.imported_empty_files" in str(error.value)
    assert not any((tmp_path / "out").iterdir())
    assert import_relations(header_only, tmp_path / "out" / "0.parquet", window_days=3, empty_files=True) == 0
    assert pd.read_parquet(tmp_path / "out" / "0.parquet").columns.tolist() == list(COLUMNS)


def test_a_file_that_is_not_parquet_is_named(tmp_path):
    source = tmp_path / "broken.parquet"
    source.write_bytes(b"PAR1 this is not a Parquet file")
    with pytest.raises(InputFormatError) as error:
        import_relations(source, tmp_path / "out" / "0.parquet", window_days=3)
    assert str(error.value).startswith(f"{source}: not a readable Parquet file")
    assert not any((tmp_path / "out").iterdir())
