"""The device throughput records (``benchmarks/results/device_throughput.json``: the paper's S&S architectures;
``benchmarks/results/llm_scoring.json``: the LLM scorer) as the Markdown block of docs/run-times.md that
``bin/plan --device`` forecasts from: one row per device and architecture, the device, number format and batch named.

    .venv/bin/python benchmarks/throughput_table.py [--markdown docs/run-times.md]

Without ``--markdown`` it prints the block.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
BLOCK_START, BLOCK_END = "<!-- throughput:start -->", "<!-- throughput:end -->"
PACKAGES = ("torch", "transformers")  # the versions a row was measured with, beside the pins of pyproject.toml


def pinned_versions(path: Path = REPO / "pyproject.toml") -> dict[str, str]:
    """The versions pyproject.toml pins for ``PACKAGES``."""
    import re
    import tomllib

    pins = {}
    for requirement in tomllib.loads(path.read_text(encoding="utf-8"))["project"]["dependencies"]:
        if found := re.fullmatch(r"([A-Za-z0-9_.-]+)==([^;\s]+)", requirement.strip()):
            pins[found.group(1).lower()] = found.group(2)
    return {name: pins[name] for name in PACKAGES if name in pins}


def software(row: dict) -> str:
    """The versions a row's record names (``not recorded`` where it names none: rows measured before the benchmarks
    recorded them)."""
    return ", ".join(f"{name} {row.get(name) or 'not recorded'}" for name in PACKAGES)


def versions_note(rows: list[dict]) -> str:
    """Which rows were measured with other versions than the pinned ones, said beside the tables."""
    pins = pinned_versions()
    other = sorted({r["device_name"] for r in rows if any(r.get(name) and r[name].split("+")[0] != pins.get(name) for name in PACKAGES)})
    text = (
        "Software: each row's column is what its record names; the environment `bin/setup` installs pins "
        + ", ".join(f"{name} {version}" for name, version in pins.items())
        + " (`pyproject.toml`)."
    )
    if other:
        text += " Measured with other versions than the pins: " + ", ".join(other) + "."
    return text


def throughput_markdown(devices: list[dict], llms: list[dict]) -> str:
    """Two tables: the S&S architectures per device (prompt sentences a second), and each LLM per device at its
    fastest format per batch size (pairs a second, zero-shot and few-shot, and the GPU's peak memory)."""
    lines = [
        "S&S architectures (random weights; a training step is forward, backward and AdamW over one S&S batch; "
        "`precision: auto` as it measured on the device):",
        "",
        "| device | architecture | format | batch | trained sentences/s | scored sentences/s | software | date |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in devices:
        lines.append(
            f"| {r['device_name']} | {r['architecture']} | {r['precision']} | {r['batch_sentences']} x {r['tokens']} tokens | "
            f"{r['train_sentences_per_s']:,.1f} | {r['score_sentences_per_s']:,.1f} | {software(r)} | {r['date']} |"
        )
    lines += [
        "",
        "LLM scoring of the Directional test's pairs (the fastest format at each batch size; `bf16-weights`: the body's "
        "weights in bf16, what `precision: bf16` or a measured `auto` runs on a GPU; random weights unless named):",
        "",
        "| device | model | parameters | batch | format | pairs/s zero-shot | pairs/s few-shot | GPU peak | software | date |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple, list[dict]] = {}
    for r in llms:
        groups.setdefault((r["device_name"], r["model"], r["batch_size"]), []).append(r)
    for (device, model, batch), rows in groups.items():
        by_format: dict[str, dict[str, dict]] = {}
        for r in rows:
            by_format.setdefault(r["format"], {})[r["prompt"].split(", ")[-1]] = r
        fmt, best = max(by_format.items(), key=lambda kv: sum(r["pairs_per_s"] for r in kv[1].values()))
        zero, few = best.get("zero-shot"), best.get("few-shot")
        peak = max((r["gpu_peak_mb"] or 0) for r in best.values())
        name = model if rows[0].get("random_weights") else f"{model} (real weights)"
        lines.append(
            f"| {device} | {name} | {rows[0]['parameters'] / 1e9:.2f} B | {batch} | {fmt} | "
            f"{zero['pairs_per_s']:,.1f} | {few['pairs_per_s']:,.1f} | {f'{peak / 1024:.1f} GB' if peak else '-'} | {software(rows[0])} | "
            f"{rows[0]['date']} |"
        )
    return (
        "Generated from `benchmarks/results/device_throughput.json` and `benchmarks/results/llm_scoring.json` by "
        "`.venv/bin/python benchmarks/throughput_table.py --markdown docs/run-times.md`.\n\n"
        + "\n".join(lines)
        + "\n\n"
        + versions_note([*devices, *llms])
        + "\n"
    )


def current_block() -> str:
    def rows(name: str) -> list[dict]:
        path = RESULTS / name
        return json.loads(path.read_text(encoding="utf-8"))["rows"] if path.is_file() else []

    return throughput_markdown(rows("device_throughput.json"), rows("llm_scoring.json"))


def splice(document: str, block: str) -> str:
    sys.path.insert(0, str(REPO / "src"))
    from directional_inference.generated import splice_block

    return splice_block(document, BLOCK_START, BLOCK_END, block)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", type=Path, help="a document whose throughput block to rewrite (docs/run-times.md)")
    args = parser.parse_args(argv)
    block = current_block()
    if args.markdown:
        args.markdown.write_text(splice(args.markdown.read_text(encoding="utf-8"), block), encoding="utf-8")
    else:
        print(block, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
