"""Corpus readers (Reuters-21578, News Crawl, CCTV, CLUE), windows and deduplication."""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import json

import itertools

import pandas as pd
import pytest

from directional_inference.corpus.articles import window_of, write_articles
from directional_inference.corpus.cctv import read_cctv
from directional_inference.corpus.clue import read_clue
from directional_inference.corpus.newscrawl import read_newscrawl
from directional_inference.corpus.reading import Article, ReadingReport
from directional_inference.corpus.reuters import read_reuters
from directional_inference.corpus.sources import corpus_files
from directional_inference.errors import InputFormatError
from directional_inference.resources.fetch import fetch_dataset


def test_windows_are_disjoint_per_calendar_year():
    assert window_of(dt.date(2016, 1, 1), 3) == "2016_01-01_01-03"
    assert window_of(dt.date(2016, 1, 3), 3) == "2016_01-01_01-03"
    assert window_of(dt.date(2016, 1, 4), 3) == "2016_01-04_01-06"
    # 2016 has 366 days: 122 full windows; 2015 has 365, so its last window is two days long
    assert window_of(dt.date(2016, 12, 31), 3) == "2016_12-29_12-31"
    assert window_of(dt.date(2015, 12, 31), 3) == "2015_12-30_12-31"
    assert window_of(dt.date(2015, 12, 31), 15) == "2015_12-27_12-31"
    with pytest.raises(ValueError):
        window_of(dt.date(2015, 1, 1), 0)


@pytest.fixture(scope="module")
def reuters(tmp_path_factory, mirrors):
    root = tmp_path_factory.mktemp("reuters") / "reuters21578"
    fetch_dataset("reuters21578", root, mirrors, only=["reut2-000.sgm", "reut2-017.sgm"])
    return root


def test_reuters_articles_with_date_title_and_clean_body(reuters):
    articles = list(read_reuters([reuters / "reut2-000.sgm"]))
    first = articles[0]
    assert (first.article_id, first.date, first.title) == ("reuters-00001", dt.date(1987, 2, 26), "BAHIA COCOA REVIEW")
    assert first.text.startswith("Showers continued throughout the week in the Bahia cocoa zone")
    assert "Reuter" not in first.text[-20:] and "&#" not in first.text and "\n" in first.text
    assert 900 < len(articles) < 1000  # entries without a body are skipped


def test_reuters_file_with_a_non_utf8_byte_is_read(reuters, caplog):
    articles = list(read_reuters([reuters / "reut2-017.sgm"]))
    assert len(articles) > 800 and "not UTF-8" in caplog.text


def test_reuters_bad_date_names_file_line_and_field(tmp_path):
    bad = tmp_path / "reut2-999.sgm"
    bad.write_text('<REUTERS NEWID="7">\n<DATE>yesterday</DATE>\n<TEXT><BODY>Text.</BODY></TEXT></REUTERS>\n')
    with pytest.raises(InputFormatError, match=r"reut2-999.sgm, line 1, field 'DATE'"):
        list(read_reuters([bad]))


def test_cctv_stories(tmp_path_factory, mirrors):
    root = tmp_path_factory.mktemp("cctv") / "zh-news"
    fetch_dataset("zh-news", root, mirrors, only=["cctv_xwlb/2016/20160105.json", "cctv_xwlb/2016/20160106.json"])
    articles = list(read_cctv(corpus_files("cctv", root)))
    assert len(articles) > 15 and {a.date for a in articles} == {dt.date(2016, 1, 5), dt.date(2016, 1, 6)}
    decision = next(a for a in articles if "两孩" in a.title)
    assert not decision.title.startswith("[视频]") and "<p>" not in decision.text
    assert decision.text.startswith("实行计划生育是我国的一项基本国策")  # the "央视网消息(新闻联播)：" lead is removed


def test_cctv_detail_as_python_literal_string(tmp_path):
    day = tmp_path / "20160107.json"
    detail = repr({"id": "V1", "content": "<p>　　国务院召开常务会议。</p>"})
    day.write_text(
        json.dumps(
            {"videoList": [{"video_id": "V1", "video_title": "[视频]会议", "video_detail": detail}, {"video_id": "V2", "video_detail": None}]}
        ),
        encoding="utf-8",
    )
    articles = list(read_cctv([day]))
    assert articles == [Article("cctv-V1", dt.date(2016, 1, 7), "会议", "国务院召开常务会议。")]


def test_newscrawl_documents(tmp_path):
    path = tmp_path / "news-docs.2014.en.filtered.gz"
    sentences = "Apple acquired Beats.\nThe deal closed in May."
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(f"20140529\t{base64.b64encode(sentences.encode()).decode()}\t{base64.b64encode(b'raw').decode()}\n")
        handle.write("2014-05-30\tx\ty\n")
    reader = read_newscrawl([path])
    article = next(reader)
    assert (article.date, article.title, article.text) == (dt.date(2014, 5, 29), "Apple acquired Beats.", sentences)
    with pytest.raises(InputFormatError, match=r"line 2, field 'date'"):
        next(reader)


def test_clue_takes_2016_for_yearless_times(tmp_path):
    path = tmp_path / "news2016zh_valid.json"
    path.write_text(
        json.dumps({"news_id": "n1", "time": "03-05 10:21", "title": "标题", "content": "阿里巴巴收购了网易。"}, ensure_ascii=False)
        + "\n"
        + json.dumps({"news_id": "n2", "time": "someday", "content": "x"})
        + "\n",
        encoding="utf-8",
    )
    reader = read_clue([path])
    assert next(reader) == Article("clue-n1", dt.date(2016, 3, 5), "标题", "阿里巴巴收购了网易。")
    with pytest.raises(InputFormatError, match=r"line 2, field 'time'"):
        next(reader)


@pytest.fixture
def build_articles(engine, tmp_path):
    """The corpus table ``write_articles`` writes for some articles, read back."""
    counter = itertools.count()

    def build(articles, window_days, max_articles=None, years=None, report=None):
        path = tmp_path / f"articles-{next(counter)}.parquet"
        write_articles(articles, path, engine, window_days, max_articles, years, report)
        return pd.read_parquet(path)

    return build


def test_build_articles_dedups_sorts_and_windows(build_articles):
    articles = [
        Article("b", dt.date(1987, 3, 2), "T", "Same  text."),
        Article("a", dt.date(1987, 3, 1), "T", "Same text."),
        Article("c", dt.date(1987, 3, 1), "U", "Other text."),
    ]
    table = build_articles(articles, 3)
    assert list(table.columns) == ["article_id", "date", "window", "title", "text"]
    assert list(table["article_id"]) == ["a", "c"]  # b repeats a's text (whitespace aside) and is later
    assert list(table["window"]) == ["1987_02-27_03-01", "1987_02-27_03-01"]
    assert len(build_articles(articles, 3, max_articles=1)) == 1


def test_years_select_articles_and_dated_files(build_articles, tmp_path):
    articles = [
        Article("a", dt.date(2013, 12, 31), "T", "One."),
        Article("b", dt.date(2014, 1, 1), "T", "Two."),
        Article("c", dt.date(2016, 12, 31), "T", "Three."),
        Article("d", dt.date(2017, 1, 1), "T", "Four."),
    ]
    assert list(build_articles(articles, 3, years=[2014, 2016])["article_id"]) == ["b", "c"]
    for day in ("2013/20131231.json", "2014/20140101.json", "2016/20161231.json", "2017/20170101.json"):
        (tmp_path / "cctv_xwlb" / day).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "cctv_xwlb" / day).write_text("{}")
    assert [p.name for p in corpus_files("cctv", tmp_path, [2014, 2016])] == ["20140101.json", "20161231.json"]
    assert len(corpus_files("cctv", tmp_path)) == 4
    with pytest.raises(InputFormatError, match="in the years 2020-2021"):
        corpus_files("cctv", tmp_path, [2020, 2021])


def _reuters(*elements: str) -> str:
    return '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n' + "".join(elements)


def _element(new_id: int, body: str | None = "Text.", close: bool = True) -> str:
    body_part = "" if body is None else f"<BODY>{body}</BODY>"
    return f'<REUTERS TOPICS="NO" NEWID="{new_id}">\n<DATE>26-FEB-1987 15:01:01.79</DATE>\n<TEXT><TITLE>T{new_id}</TITLE>{body_part}</TEXT>\n' + (
        "</REUTERS>\n" if close else ""
    )


def test_reuters_counts_what_it_reads_and_skips_per_file(reuters, caplog):
    caplog.set_level("INFO")
    report = ReadingReport("reuters21578", reuters)
    articles = list(read_reuters([reuters / "reut2-000.sgm"], report))
    # reut2-000.sgm: 1000 <REUTERS> elements, 925 with a <BODY> (grep -c), the other 75 are briefs / unprocessed
    summary = report.summary()
    assert len(articles) == 925 and summary["records_read"] == 925
    assert summary["records_skipped"] == {"no <BODY> (brief or unprocessed story)": 75}
    assert summary["files_with_skipped_records"] == {"reut2-000.sgm": {"read": 925, "skipped": {"no <BODY> (brief or unprocessed story)": 75}}}
    assert "reut2-000.sgm: 925 articles read, 75 records skipped (no <BODY> (brief or unprocessed story): 75)" in caplog.text


def test_reuters_element_without_closing_tag_fails_naming_file_line_and_field(tmp_path):
    bad = tmp_path / "reut2-998.sgm"
    bad.write_text(_reuters(_element(1), _element(2, close=False), _element(3)))
    # the second element starts on line 6: the old reader merged it into the third and lost one article silently
    with pytest.raises(InputFormatError, match=r"reut2-998.sgm, line 6, field 'REUTERS': .*before the next <REUTERS>"):
        list(read_reuters([bad]))


def test_reuters_body_without_closing_tag_fails(tmp_path):
    bad = tmp_path / "reut2-997.sgm"
    bad.write_text(_reuters(_element(1), _element(2, body="Text without its end tag.</TEXT>\n<BODY", close=True).replace("</BODY>", "")))
    with pytest.raises(InputFormatError, match=r"reut2-997.sgm, line 8, field 'BODY': <BODY> is not closed"):
        list(read_reuters([bad]))


def test_reuters_file_cut_in_half_fails_instead_of_dropping_its_tail(reuters, tmp_path):
    data = (reuters / "reut2-000.sgm").read_bytes()
    cut = tmp_path / "reut2-000.sgm"
    cut.write_bytes(data[: len(data) // 2])
    last_start = cut.read_bytes().rfind(b"<REUTERS")
    line = cut.read_bytes().count(b"\n", 0, last_start) + 1
    with pytest.raises(InputFormatError, match=rf"reut2-000.sgm, line {line}, field 'REUTERS': .*end of the file \(is the file cut short\?\)"):
        list(read_reuters([cut]))
    cut.write_bytes(data[: last_start + 20])  # cut inside the next element's opening tag
    with pytest.raises(InputFormatError, match=rf"reut2-000.sgm, line {line}, field 'REUTERS': a <REUTERS> tag cut off at the end"):
        list(read_reuters([cut]))


def test_cctv_non_utf8_bytes_name_the_file_line_and_offset(tmp_path):
    day = tmp_path / "20160108.json"
    day.write_bytes(b'{"videoList": [\n{"video_id": "V1", "video_title": "\xff\xfe"}]}')
    # line 1 is 16 bytes with its newline; line 2 has 35 bytes before the bad byte: offset 51
    with pytest.raises(InputFormatError, match=r"20160108.json, line 2: byte 0xff at offset 51 of the file is not UTF-8"):
        list(read_cctv([day]))


def test_cctv_string_entries_are_skipped_and_counted_or_refused_when_they_may_hold_a_story(tmp_path):
    detail = {"id": "V1", "content": "<p>国务院召开常务会议。</p>"}
    day = tmp_path / "20160109.json"
    day.write_text(
        json.dumps(
            {
                "videoList": [
                    {"video_id": "V1", "video_detail": detail},
                    "http://tv.cctv.com/2016/01/09/V2.shtml",
                    {"video_id": "V3", "video_detail": None},
                ]
            }
        ),
        encoding="utf-8",
    )
    report = ReadingReport("cctv")
    assert [a.article_id for a in read_cctv([day], report)] == ["cctv-V1"]
    assert report.summary()["records_skipped"] == {"no video_detail": 1, "videoList entry that is a string, not an object": 1}
    day.write_text(json.dumps({"videoList": [{"video_id": "V1", "video_detail": detail}, json.dumps({"video_id": "V2"})]}), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"20160109.json, field 'videoList\[1\]': a string holding an encoded object"):
        list(read_cctv([day]))
    day.write_text(json.dumps({"videoList": [["V1"]]}), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"field 'videoList\[0\]': a list, not an object"):
        list(read_cctv([day]))


def test_clue_non_utf8_line_and_skipped_records(tmp_path):
    path = tmp_path / "news2016zh_valid.json"
    good = json.dumps({"news_id": "n1", "time": "03-05", "title": "标题", "content": "内容。"}, ensure_ascii=False).encode()
    empty = json.dumps({"news_id": "n2", "time": "03-05", "content": " "}).encode()
    path.write_bytes(good + b"\n" + empty + b"\n\n" + good.replace("内容".encode(), b"\xe5\x86") + b"\n")
    report = ReadingReport("clue")
    with pytest.raises(InputFormatError, match=r"news2016zh_valid.json, line 4: byte 0xe5 at column \d+ is not UTF-8"):
        list(read_clue([path], report))
    assert report.summary()["records_skipped"] == {"blank line": 1, "empty content": 1} and report.summary()["records_read"] == 1
    path.write_bytes(good + b"\n" + good[: len(good) // 2])  # a file cut in the middle of a line
    with pytest.raises(InputFormatError, match=r"line 2: not JSON \(a line cut short\?\)"):
        list(read_clue([path]))


def test_newscrawl_gzip_cut_short_names_the_file(tmp_path):
    path = tmp_path / "news-docs.2014.en.filtered.gz"
    document = f"20140529\t{base64.b64encode(b'Apple acquired Beats.').decode()}\t{base64.b64encode(b'raw').decode()}\n"
    data = gzip.compress((document * 2000).encode())
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputFormatError, match=r"news-docs.2014.en.filtered.gz, line \d+: the gzip stream is damaged or cut short"):
        list(read_newscrawl([path]))


def test_build_articles_reports_what_it_drops(build_articles):
    articles = [
        Article("a", dt.date(2013, 12, 31), "T", "One."),
        Article("b", dt.date(2014, 1, 1), "T", "Two."),
        Article("c", dt.date(2014, 1, 2), "T", "Two."),
        Article("d", dt.date(2014, 1, 3), "T", "Three."),
        Article("e", dt.date(2014, 1, 4), "T", "Four."),
    ]
    report = ReadingReport()
    table = build_articles(articles, 3, max_articles=2, years=[2014, 2016], report=report)
    assert list(table["article_id"]) == ["b", "d"]
    summary = report.summary()
    assert summary["articles_dropped"] == {"beyond max_articles (2)": 1, "duplicate text": 1, "outside the years 2014-2016": 1}
    assert summary["articles_kept"] == 2


def test_the_corpus_is_written_in_row_groups_as_it_is_read(engine, tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    import directional_inference.corpus.articles as module

    monkeypatch.setattr(module, "STAGING_BATCH", 3)
    monkeypatch.setattr(module, "ARTICLE_ROW_GROUP", 4)
    read = []

    def articles():  # a reader: the articles arrive one by one, in no particular order
        for k in (9, 3, 7, 1, 5, 8, 2, 6, 4, 0):
            read.append(k)
            yield Article(f"a{k}", dt.date(2014, 1, 1 + k), "T", f"Text {k % 9}.")  # a9 repeats a0's text

    write_articles(articles(), tmp_path / "articles.parquet", engine, 3, max_articles=None)
    table = pq.ParquetFile(tmp_path / "articles.parquet")
    assert [table.metadata.row_group(g).num_rows for g in range(table.metadata.num_row_groups)] == [4, 4, 1]
    assert table.read().column("article_id").to_pylist() == [f"a{k}" for k in range(9)]  # a9 is later than a0
    assert not list(engine.spill.iterdir())  # the staging file is gone
