"""Every test's duration, from the output of a run of the suite (``.ci/run`` passes pytest ``--durations=0``, so its own
output lists each test's setup, call and teardown seconds), into the committed ``tests/durations.tsv``:

    .venv/bin/python tests/durations.py CI-OUTPUT --where "..." [--commit C] [--wall-clock SECONDS]

The file's header says where and when the run was, its wall-clock and pytest's own total; its rows are the phases of
every test, longest first. ``tests/test_conventions.py`` holds its names to the tests that exist; the budget is
the target of ``.ci/run``'s wall-clock (over it, the record says by how much).
"""

from __future__ import annotations

import argparse
import datetime
import re
import subprocess
from pathlib import Path

DURATIONS = Path(__file__).with_name("durations.tsv")
BUDGET_S = 40 * 60  # .ci/run's budget: the whole of it, set-up included
ROW = re.compile(r"^(\d+(?:\.\d+)?)s (setup|call|teardown) +(\S.*)$")  # a test id may hold spaces ([training trial])
PYTEST_TOTAL = re.compile(r"=+ .*? in (\d+(?:\.\d+)?)s")
WORKERS = re.compile(r"^(\d+) workers \[")  # pytest-xdist's processes (bin/test: -n 2), whose rows overlap in time


def parse(output: str) -> tuple[list[tuple[float, str, str]], float | None, int]:
    """(seconds, phase, test id) of every row of pytest's durations report in ``output``, pytest's total seconds, and
    the number of processes the tests ran in."""
    lines = [line.strip() for line in output.splitlines()]
    rows = [(float(found.group(1)), found.group(2), found.group(3)) for line in lines if (found := ROW.match(line))]
    totals = [float(found.group(1)) for line in lines if (found := PYTEST_TOTAL.match(line))]
    workers = [int(found.group(1)) for line in lines if (found := WORKERS.match(line))]
    return sorted(rows, key=lambda row: (-row[0], row[2], row[1])), (totals[-1] if totals else None), (workers[-1] if workers else 1)


def render(
    rows: list[tuple[float, str, str]], pytest_s: float | None, processes: int, wall_clock_s: float | None, where: str, commit: str, date: str
) -> str:
    header = [
        f"# every test's seconds in one run of the suite: {where}, commit {commit}, {date}",
        f"# tests run in {processes} process(es) at once: the rows of one overlap those of the others in time",
        f"# wall-clock of .ci/run: {wall_clock_s:.0f} s; pytest's total: {pytest_s:.0f} s; the budget: {BUDGET_S} s"
        + (f" ({wall_clock_s - BUDGET_S:.0f} s over it)" if wall_clock_s > BUDGET_S else "")
        if wall_clock_s and pytest_s
        else f"# pytest's total: {pytest_s or 0:.0f} s; the budget: {BUDGET_S} s",
        "seconds\tphase\ttest",
    ]
    return "\n".join(header + [f"{seconds:.2f}\t{phase}\t{test}" for seconds, phase, test in rows]) + "\n"


def read(path: Path = DURATIONS) -> tuple[dict[str, float], list[tuple[float, str, str]]]:
    """The header's figures (``wall_clock_s``, ``pytest_s``, ``processes``) and the rows of the committed file."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"tests run in (\d+) process", text)
    figures = {"processes": float(found.group(1)) if found else 1.0}
    if found := re.search(r"wall-clock of \.ci/run: (\d+) s", text):
        figures["wall_clock_s"] = float(found.group(1))
    if found := re.search(r"pytest's total: (\d+) s", text):
        figures["pytest_s"] = float(found.group(1))
    rows = []
    for line in text.splitlines():
        if line and not line.startswith("#") and not line.startswith("seconds\t"):
            seconds, phase, test = line.split("\t")
            rows.append((float(seconds), phase, test))
    return figures, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path, help="the saved output of .ci/run (or of bin/test --durations=0)")
    parser.add_argument("--where", required=True, help="where it ran: CI, or this machine with its CPU")
    parser.add_argument("--commit", default=None)
    parser.add_argument("--wall-clock", type=float, default=None, help=".ci/run's wall-clock in seconds, as measured")
    args = parser.parse_args(argv)
    rows, pytest_s, processes = parse(args.output.read_text(encoding="utf-8", errors="replace"))
    if not rows:
        parser.error(f"{args.output}: no durations report (run pytest with --durations=0)")
    commit = args.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    DURATIONS.write_text(render(rows, pytest_s, processes, args.wall_clock, args.where, commit, datetime.date.today().isoformat()), encoding="utf-8")
    print(f"{DURATIONS}: {len(rows)} rows, pytest {pytest_s} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
