"""Progress lines of long jobs: at a steady interval, with rate and expected end, and a final line."""

from __future__ import annotations

import logging

from directional_inference.progress import ProgressLog, logged


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_progress_logs_at_the_interval_with_rate_and_expected_end(caplog):
    clock = Clock()
    progress = ProgressLog("extraction", 100, "articles", interval=10, logger=logging.getLogger("t"), clock=clock)
    with caplog.at_level(logging.INFO, logger="t"):
        for _ in range(40):
            clock.now += 1
            progress.advance()
        progress.finish()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 5  # at 10, 20, 30, 40 s and the final line
    assert lines[0].startswith("extraction: 10/100 articles (10.0%), 1.0/s, expected end ")
    assert lines[-1].startswith("extraction: 40/100 articles (40.0%), 1.0/s") and lines[-1].endswith("(done in 40 s)")


def test_logged_passes_items_through(caplog):
    with caplog.at_level(logging.INFO, logger="progress"):
        assert list(logged(iter("abc"), "letters")) == ["a", "b", "c"]
    assert caplog.records[-1].getMessage().startswith("letters: 3 items")
