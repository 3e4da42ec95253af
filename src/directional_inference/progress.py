"""Progress of a long job in its log: items done, rate and expected end, at a steady interval (not per item)."""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


class ProgressLog:
    """Logs ``<what>: <done>/<total> <unit> (<pct>), <rate>/s, expected end <time>`` at most every ``interval``
    seconds while ``advance`` is called, and a last line from ``finish``. ``total`` may be None (no ETA)."""

    def __init__(
        self,
        what: str,
        total: int | None,
        unit: str = "items",
        *,
        interval: float = 30.0,
        logger: logging.Logger | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.what, self.total, self.unit, self.interval = what, total, unit, interval
        self.log = logger or logging.getLogger("progress")
        self.clock = clock
        self.start = self.last = clock()
        self.done = 0

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = self.clock()
        if now - self.last >= self.interval:
            self.last = now
            self.log.info("%s", self.line(now))

    def line(self, now: float | None = None) -> str:
        now = self.clock() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        text = f"{self.what}: {self.done}"
        if self.total:
            text += f"/{self.total} {self.unit} ({100 * self.done / self.total:.1f}%)"
        else:
            text += f" {self.unit}"
        text += f", {rate:.1f}/s"
        if self.total and rate > 0 and self.done < self.total:
            end = dt.datetime.now() + dt.timedelta(seconds=(self.total - self.done) / rate)
            text += f", expected end {end:%H:%M:%S}"
        return text

    def finish(self) -> None:
        self.log.info("%s (done in %.0f s)", self.line(), self.clock() - self.start)


def logged(items: Iterable[T], what: str, total: int | None = None, unit: str = "items", *, interval: float = 30.0) -> Iterator[T]:
    """Yield ``items`` unchanged, logging progress every ``interval`` seconds and once at the end."""
    progress = ProgressLog(what, total, unit, interval=interval)
    for item in items:
        yield item
        progress.advance()
    progress.finish()
