"""Corpus readers (Reuters-21578, News Crawl, CCTV, CLUE), windows and deduplication."""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import json

import pytest

from directional_inference.corpus import (
    Article,
    build_articles,
    corpus_files,
    read_cctv,
    read_clue,
    read_newscrawl,
    read_reuters,
    window_of,
)
from directional_inference.errors import InputFormatError
from directional_inference.fetch import fetch_dataset


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
    day.write_text(json.dumps({"videoList": [{"video_id": "V1", "video_title": "[视频]会议", "video_detail": detail},
                                             {"video_id": "V2", "video_detail": None}]}), encoding="utf-8")
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
    path.write_text(json.dumps({"news_id": "n1", "time": "03-05 10:21", "title": "标题", "content": "阿里巴巴收购了网易。"}, ensure_ascii=False)
                    + "\n" + json.dumps({"news_id": "n2", "time": "someday", "content": "x"}) + "\n", encoding="utf-8")
    reader = read_clue([path])
    assert next(reader) == Article("clue-n1", dt.date(2016, 3, 5), "标题", "阿里巴巴收购了网易。")
    with pytest.raises(InputFormatError, match=r"line 2, field 'time'"):
        next(reader)


def test_build_articles_dedups_sorts_and_windows():
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


def test_years_select_articles_and_dated_files(tmp_path):
    articles = [Article("a", dt.date(2013, 12, 31), "T", "One."), Article("b", dt.date(2014, 1, 1), "T", "Two."),
                Article("c", dt.date(2016, 12, 31), "T", "Three."), Article("d", dt.date(2017, 1, 1), "T", "Four.")]
    assert list(build_articles(articles, 3, years=[2014, 2016])["article_id"]) == ["b", "c"]
    for day in ("2013/20131231.json", "2014/20140101.json", "2016/20161231.json", "2017/20170101.json"):
        (tmp_path / "cctv_xwlb" / day).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "cctv_xwlb" / day).write_text("{}")
    assert [p.name for p in corpus_files("cctv", tmp_path, [2014, 2016])] == ["20140101.json", "20161231.json"]
    assert len(corpus_files("cctv", tmp_path)) == 4
    with pytest.raises(InputFormatError, match="in the years 2020-2021"):
        corpus_files("cctv", tmp_path, [2020, 2021])
