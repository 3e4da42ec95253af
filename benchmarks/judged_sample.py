"""Judged sample of BoOQA positives: draw a seeded random sample per language, then merge hand judgements.

    # 1. draw (after a default-scale run): writes the TSV with empty judgement/reason columns
    .venv/bin/python benchmarks/judged_sample.py draw [--per-language 100] [--seed 12] \\
        [--output benchmarks/results/judged_positives.tsv]
    # 2. judge by reading each row (sentence, subj, pred, obj): fill `judgement` (yes/no) and, for every no, `reason`
    # 3. check: prints the rate of well-formed propositions per language
    .venv/bin/python benchmarks/judged_sample.py rates [--output ...]

A row is judged "yes" when (subj, pred, obj) is a well-formed proposition whose arguments are the real arguments
of the predicate in the sentence (the subject does what the predicate says to the object), "no" otherwise.
The file starts with '#' comment lines saying how it was drawn; tests/test_judged_sample.py reads it.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pandas as pd

COLUMNS = ["lang", "id", "subj", "pred", "obj", "sentence", "judgement", "reason"]


def draw(per_language: int, seed: int, results: Path) -> pd.DataFrame:
    frames = []
    for lang in ("zh", "en"):
        positives = pd.read_parquet(results / lang / "booqa" / "positives.parquet")
        sample = positives.sample(n=min(per_language, len(positives)), random_state=seed).sort_values("id")
        frames.append(sample.assign(lang=lang, judgement="", reason="")[COLUMNS])
    frame = pd.concat(frames, ignore_index=True)
    frame["sentence"] = frame["sentence"].str.replace(r"\s+", " ", regex=True)
    return frame


def read_judged(path: Path) -> pd.DataFrame:
    lines = [line for line in Path(path).read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("#")]
    return pd.read_csv(io.StringIO("".join(lines)), sep="\t", dtype=str, keep_default_na=False)


def rates(frame: pd.DataFrame) -> dict[str, float]:
    return {lang: float((group["judgement"] == "yes").mean()) for lang, group in frame.groupby("lang")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["draw", "rates"])
    parser.add_argument("--per-language", type=int, default=100)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--output", type=Path, default=Path("benchmarks/results/judged_positives.tsv"))
    parser.add_argument("--header", default="", help="comment lines to put first (without '# ')")
    args = parser.parse_args()
    if args.command == "draw":
        frame = draw(args.per_language, args.seed, args.results)
        args.output.parent.mkdir(parents=True, exist_ok=True)
        header = "".join(f"# {line}\n" for line in args.header.splitlines())
        args.output.write_text(header + frame.to_csv(sep="\t", index=False), encoding="utf-8")
        print(f"{len(frame)} rows -> {args.output}")
    else:
        print(rates(read_judged(args.output)))


if __name__ == "__main__":
    main()
