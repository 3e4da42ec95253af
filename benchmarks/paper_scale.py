"""Scale benchmark: the real rules, from relations to BoOQA, graphs, evidence and graph scoring, on synthetic English
relations ``--multiple`` times the default's (the English relations the generator was fitted on, ``model.base_relations``
of ``benchmarks/synthetic_relations.json``; the paper's English side is about 200M, 2,350 times more), with the paper's
thresholds.

    .venv/bin/python benchmarks/paper_scale.py --multiple K [--seed S] [--workdir DIR] [--cores 2] [--keep]

Synthetic relation files (``relations.synthetic``, parameters fitted on the default: ``benchmarks/synthetic_relations.json``)
are imported by the workflow as relations made elsewhere (``relations.imported``), and Snakemake runs this repository's
rules on them in ``--workdir`` (default ``.cache/paper-scale/x<K>-s<S>``; removed afterwards unless ``--keep``). Each
job's peak memory is read from its log (``getrusage``, exact) and Snakemake's benchmark file (sampled), its time from the
benchmark file; its peak spill is the largest size its scratch folder reached (``scratch_root`` is set to
``<workdir>/scratch``, and every job's folder is sampled every half second: DuckDB's spill and the job's staging files),
and the bytes it wrote are the sizes of its outputs. The machine's free disk is sampled too. One record per run is
added to ``benchmarks/results/paper_scale.json``: multiple, seed, relations, the CPU, the free disk at the start and its
lowest point, and per job its rule, wildcards, input MB, peak memory MB, peak spill MB, output MB and seconds.
``benchmarks/plot_paper_scale.py`` draws them.

What is configured (``OVERLAY``): English only; the paper's BoOQA thresholds (15 articles, 15 predicates, 30 argument
pairs) and graph cut-offs (3, 3); the first WordNet sense for negatives (the gloss-similarity choice runs an encoder per
positive: a GPU job at paper scale, not what this benchmark measures); the graph methods only (the LM and S&S methods
score in chunked GPU jobs, measured by ``benchmarks/scoring_memory.py``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from directional_inference.workflow.job_resources import input_mb  # noqa: E402
from directional_inference.relations.synthetic import SyntheticModel, generate_relations  # noqa: E402
from directional_inference.workflow.rulelog import PEAK_MEMORY_LINE  # noqa: E402

PARAMETERS = REPO / "benchmarks" / "synthetic_relations.json"
RESULTS = REPO / "benchmarks" / "results" / "paper_scale.json"
OVERLAY = {
    "booqa": {
        "languages": ["en"],
        "starring_min_articles": 15,
        "starring_min_predicates": 15,
        "felicity_min_pairs": 30,
        "positive_budget": 40000,
        "wsd": "first_sense",
        "overrides": None,
    },
    "graphs": {"min_arg_pairs_per_predicate": 3, "min_predicates_per_arg_pair": 3, "measures": ["binc"]},
    "corpus": {"en": {"window_days": 3}},
    "resources": {"datasets": ["wordnet-3.0", "omw-cmn"]},
    "llm": {"released_predictions": False, "scorers": []},  # the chain from relations to graph scoring only
}
TARGETS = [
    "results/en/booqa/validation.json",
    "results/en/booqa/README.md",
    "results/booqa_scores/en/dev/graph_binc.parquet",
    "results/booqa_scores/en/test/graph_binc.parquet",
]
PEAK = re.compile(PEAK_MEMORY_LINE.replace("{:.0f}", r"(\d+)"))


def cpu() -> str:
    """The CPU's model name and the flags that matter for these jobs (``lscpu``)."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown"
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    name = fields.get("Model name", "").strip()
    family, model = fields.get("CPU family", "").strip(), fields.get("Model", "").strip()
    flags = [f for f in ("avx2", "avx512f", "avx512_bf16", "amx_bf16") if f in fields.get("Flags", "").split()]
    return f"{name}, family {family} model {model}, {fields.get('CPU(s)', '?').strip()} CPUs, flags {' '.join(flags)}"


def job_files(workdir: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Log path -> (input files, output files) of every job, from Snakemake's metadata of its outputs (a record per
    output, named by the output path's urlsafe base64)."""
    import base64

    files: dict[str, tuple[list[str], list[str]]] = {}
    for path in (workdir / ".snakemake" / "metadata").rglob("*"):
        if not path.is_file():
            continue
        record = json.loads(path.read_text())
        output = base64.urlsafe_b64decode("".join(p.lstrip("@") for p in path.relative_to(workdir / ".snakemake" / "metadata").parts)).decode()
        for log in record.get("log", []):
            files.setdefault(log, (record.get("input", []), []))[1].append(output)
    return files


class DiskSampler:
    """Samples, every ``interval`` seconds in a thread, the size of every job scratch folder under ``root``
    (``<root>/directional-inference-<id>/<rule>/<wildcards>``: the bytes its files take on disk) and the free disk of
    ``root``'s file system, keeping each folder's largest size and the lowest free disk."""

    def __init__(self, root: Path, interval: float = 0.5):
        import threading

        self.root, self.interval = root, interval
        self.peaks: dict[str, int] = {}
        self.free_at_start = self.lowest_free = shutil.disk_usage(root).free
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        for job in self.root.glob("directional-inference-*/*/*"):
            size = 0
            for folder, _, names in os.walk(job):
                for name in names:
                    try:
                        size += os.stat(os.path.join(folder, name)).st_blocks * 512
                    except OSError:
                        pass  # removed while we looked
            key = str(job.relative_to(job.parents[2]))
            self.peaks[key] = max(self.peaks.get(key, 0), size)
        self.lowest_free = min(self.lowest_free, shutil.disk_usage(self.root).free)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def __enter__(self) -> "DiskSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


SCRATCH_LINE = re.compile(r"scratch folder (\S+)$", re.M)


def jobs_of(workdir: Path, spill: dict[str, int]) -> list[dict]:
    """Every job of the run: rule, wildcards (the log's path), input MB, peak memory (the log's exact line, or Snakemake's
    sampled max RSS where higher), peak spill MB (``spill``: the sampled peaks of the scratch folders, the job's named by
    its log), output MB and seconds."""
    rows, files = [], job_files(workdir)
    for bench in sorted((workdir / "logs").rglob("*.benchmark.tsv")):
        phase, rule = bench.relative_to(workdir / "logs").parts[:2]
        job = str(bench.relative_to(workdir / "logs" / phase / rule)).removesuffix(".benchmark.tsv")
        frame = pd.read_csv(bench, sep="\t")
        log = bench.with_name(bench.name.replace(".benchmark.tsv", ".log"))
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        found = PEAK.findall(text)
        scratch = SCRATCH_LINE.findall(text)
        inputs, outputs = files.get(str(log.relative_to(workdir)), ([], []))
        sampled = pd.to_numeric(frame["max_rss"], errors="coerce").iloc[-1]
        exact = float(found[-1]) if found else None
        sampled = None if pd.isna(sampled) else round(float(sampled), 1)
        measured = [v for v in (exact, sampled) if v is not None]
        rows.append(
            {
                "phase": phase,
                "rule": rule,
                "job": job,
                "seconds": round(float(frame["s"].iloc[-1]), 1),
                "peak_mb": max(measured) if measured else None,
                "peak_mb_getrusage": exact,
                "max_rss_mb_sampled": sampled,
                "input_mb": round(input_mb([workdir / f for f in inputs], lambda: float("nan")), 1),
                "spill_mb": round(spill.get("/".join(Path(scratch[-1]).parts[-3:]), 0) / 1e6, 1) if scratch else None,
                "output_mb": round(input_mb([workdir / f for f in outputs], lambda: float("nan")), 1),
            }
        )
    return rows


def run(multiple: float, seed: int, workdir: Path, cores: int, keep: bool) -> dict:
    model = SyntheticModel.load(PARAMETERS)
    relations = int(round(multiple * model.base_relations))
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    marker = workdir / "synthetic" / "made.json"  # a run resumed in the same directory reuses the files
    made = {"relations": relations, "seed": seed, "parameters": hashlib.sha256(PARAMETERS.read_bytes()).hexdigest()}
    if marker.exists() and json.loads(marker.read_text()) == made:
        files = sorted((workdir / "synthetic").glob("relations-*.parquet"))
    else:
        files = generate_relations(model, relations, workdir / "synthetic", seed=seed)
        marker.write_text(json.dumps(made))
    generated = time.monotonic() - started
    scratch = workdir / "scratch"
    scratch.mkdir(exist_ok=True)
    overlay = OVERLAY | {"relations": {"imported": {"en": str((workdir / "synthetic").resolve())}}, "scratch_root": str(scratch.resolve())}
    (workdir / "paper_scale.yaml").write_text(yaml.safe_dump(overlay, sort_keys=True))
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(REPO / "config" / "config.yaml"),
        str(workdir / "paper_scale.yaml"),
        "--cores",
        str(cores),
        "--rerun-incomplete",
        *TARGETS,
    ]
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", DVC_NO_ANALYTICS="1")
    code = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"], capture_output=True, text=True).stdout.strip()
    started = time.monotonic()
    with DiskSampler(scratch) as disk:
        result = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    (workdir / "snakemake.log").write_text(result.stdout + result.stderr)
    if result.returncode:
        raise SystemExit(f"the workflow failed ({result.returncode}); see {workdir / 'snakemake.log'}\n{result.stderr[-3000:]}")
    merged = workdir / "results" / "en" / "relations" / "merged.parquet"
    import pyarrow.parquet as pq

    record = {
        "multiple": multiple,
        "seed": seed,
        "relations": sum(pq.ParquetFile(f).metadata.num_rows for f in files),
        "merged_relations": pq.ParquetFile(merged).metadata.num_rows,
        "cpu": cpu(),
        "cores": cores,
        "code": code or "unknown",
        "date": dt.date.today().isoformat(),
        "generation_seconds": round(generated, 1),
        "workflow_seconds": round(wall, 1),
        "disk_mb": round(sum(f.stat().st_size for f in workdir.rglob("*") if f.is_file()) / 1e6, 1),
        "free_disk_gb_at_start": round(disk.free_at_start / 1e9, 1),
        "free_disk_gb_lowest": round(disk.lowest_free / 1e9, 1),
        "booqa": json.loads((workdir / "results" / "en" / "booqa" / "validation.json").read_text())["checked"],
        "jobs": jobs_of(workdir, disk.peaks),
    }
    if not keep:
        shutil.rmtree(workdir)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--multiple", type=float, required=True, help="size as a multiple of the default's English relations")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (relations, results, logs)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    workdir = args.workdir or REPO / ".cache" / "paper-scale" / f"x{args.multiple:g}-s{args.seed}"
    record = run(args.multiple, args.seed, workdir.resolve(), args.cores, args.keep)
    records = json.loads(args.output.read_text()) if args.output.exists() else []
    records.append(record)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    peak = max(job["peak_mb"] for job in record["jobs"])
    spill = max((job["spill_mb"] or 0) for job in record["jobs"])
    print(
        f"{record['relations']} relations: {len(record['jobs'])} jobs, peak {peak:.0f} MB, spill {spill:.0f} MB, "
        f"workflow {record['workflow_seconds']:.0f} s, free disk {record['free_disk_gb_at_start']} -> {record['free_disk_gb_lowest']} GB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
