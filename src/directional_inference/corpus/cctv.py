"""CCTV Xinwen Lianbo stories (the default Chinese corpus): one JSON file per day, one article per story."""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import InputFormatError
from .reading import Article, ReadingReport, clean_text, not_utf8_error, read_files


# --- CCTV Xinwen Lianbo ------------------------------------------------------------------------------

_HTML_TAG = re.compile(r"<[^>]+>")


def html_to_text(content: str) -> str:
    """Paragraphs of an HTML fragment as lines of plain text."""
    content = re.sub(r"(?i)</p>|<br\s*/?>", "\n", content)
    return clean_text(_HTML_TAG.sub("", content))


def _cctv_file(path: Path, report: ReadingReport) -> Iterator[Article]:
    data = path.read_bytes()
    try:
        day = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise not_utf8_error(path, data, error) from None
    except json.JSONDecodeError as error:
        raise InputFormatError(str(path), error.lineno, None, f"not JSON: {error.msg}") from None
    if not isinstance(day, dict):
        raise InputFormatError(str(path), None, None, f"a JSON {type(day).__name__}, not an object with a videoList")
    try:
        file_date = dt.datetime.strptime(path.stem, "%Y%m%d").date()
    except ValueError:
        raise InputFormatError(str(path), None, "file name", "not YYYYMMDD.json (the date of the stories)") from None
    videos = day.get("videoList")
    if videos is None:
        report.skip(path, "file without videoList")
        return
    if not isinstance(videos, list):
        raise InputFormatError(str(path), None, "videoList", f"a {type(videos).__name__}, not a list")
    for index, video in enumerate(videos):
        where = f"videoList[{index}]"
        if isinstance(video, str):
            if video.lstrip().startswith(("{", "[")):
                raise InputFormatError(str(path), None, where, "a string holding an encoded object: cannot tell whether it is a story")
            report.skip(path, "videoList entry that is a string, not an object")
            continue
        if not isinstance(video, dict):
            raise InputFormatError(str(path), None, where, f"a {type(video).__name__}, not an object")
        detail = video.get("video_detail")
        if isinstance(detail, str):
            try:
                detail = ast.literal_eval(detail)
            except (ValueError, SyntaxError):
                raise InputFormatError(str(path), None, f"{where}.video_detail", "not a Python literal") from None
        if detail is None:
            report.skip(path, "no video_detail")
            continue
        if not isinstance(detail, dict):
            raise InputFormatError(str(path), None, f"{where}.video_detail", f"a {type(detail).__name__}, not an object")
        if not detail.get("content"):
            report.skip(path, "video_detail without content")
            continue
        text = html_to_text(str(detail["content"]))
        text = re.sub(r"^央视网消息[（(]新闻联播[）)][：:]", "", text)
        if not text:
            report.skip(path, "content without text")
            continue
        title = re.sub(r"^\[视频\]", "", video.get("video_title") or detail.get("title") or "").strip()
        report.read(path)
        yield Article(f"cctv-{video.get('video_id') or detail.get('id')}", file_date, title, text)


def read_cctv(paths: Iterable[str | Path], report: ReadingReport | None = None) -> Iterator[Article]:
    """Stories of the CCTV Xinwen Lianbo daily files ``YYYY/YYYYMMDD.json`` (``videoList[].video_detail``).

    ``video_detail`` is a dict or a Python-literal string of one; its ``content`` is HTML. Skipped (counted): files
    without videoList, entries that are plain strings (no story can be in one), entries without video_detail or
    content, content without text. Errors: bytes that are not UTF-8, a file that is not a JSON object, a file name
    that is not a date, a videoList that is not a list, an entry or video_detail of another shape (a string holding
    an encoded object included).
    """
    return read_files(paths, _cctv_file, report, "CCTV Xinwen Lianbo")
