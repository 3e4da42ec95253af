"""A job whose resources ask for a GPU and that sees no CUDA device stops within its first minute, naming the node, the
torch build and CUDA_VISIBLE_DEVICES: every rule that asks for a GPU at paper scale, run here (one job of each, in a copy
of the finished smoke run) with ``gpu=1`` and CUDA hidden."""

from __future__ import annotations

import json
import os
import re
import socket
from datetime import datetime
from pathlib import Path

import pytest
import torch

from conftest import REPO, SMOKE, copy_run, run_snakemake, tool_environment
from directional_inference.tools.rulegraph import parse_rulegraph

pytestmark = pytest.mark.workflow


def gpu_rules() -> set[str]:
    """The rules whose resources ask for GPUs (``gpu=``; training.gpus, 1 at paper scale): every rule with a GPU job in
    the paper's whole plan (docs/paper-plan.json, which tests/test_plan.py checks against a fresh plan) among them."""
    from test_conventions import rule_blocks

    declared = {rule for rule, text in rule_blocks().items() if re.search(r"^\s+gpu=", text, flags=re.M)}
    plan = json.loads((REPO / "docs" / "paper-plan.json").read_text(encoding="utf-8"))["plans"]["all_every_setting"]["rules"]
    planned = {rule for rule, request in plan.items() if request["gpus"] > 0}
    assert planned and planned <= declared, planned - declared
    return declared


def rule_scripts() -> dict[str, str]:
    """Rule name -> the script it runs."""
    from test_conventions import rule_blocks

    return {rule: match.group(1) for rule, text in rule_blocks().items() if (match := re.search(r'script:\s*"\.\./scripts/(\w+)\.py"', text))}


def _ancestors(rule: str, edges: list[tuple[str, str]]) -> set[str]:
    """The rules whose outputs ``rule`` reads, directly or through others."""
    found, pending = set(), [rule]
    while pending:
        current = pending.pop()
        for source, target in edges:
            if target == current and source not in found:
                found.add(source)
                pending.append(source)
    return found


def one_output_per_rule(dry_run: str, rules: set[str]) -> dict[str, str]:
    """The first output of the first job of each of ``rules`` in a dry run's job blocks."""
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=(?:local)?rule \w+:\n)", dry_run):
        header = re.match(r"(?:local)?rule (\w+):\n", block)
        output = re.search(r"^\s+output: ([^,\n]+)", block, flags=re.M)
        if header and output and header.group(1) in rules:
            found.setdefault(header.group(1), output.group(1).strip())
    return found


def _job_seconds(log: Path) -> float:
    """Seconds from a job log's first timestamped line to its last."""
    stamps = [
        datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f")
        for line in log.read_text(encoding="utf-8").splitlines()
        if re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", line)
    ]
    return (stamps[-1] - stamps[0]).total_seconds()


def test_every_gpu_rule_stops_at_once_without_a_gpu(smoke_repo, tmp_path):
    rules = gpu_rules()
    assert {"train_sns_trial", "score_booqa", "score_booqa_part", "score_llm_levyholt"} <= rules  # read as expected
    work = copy_run(smoke_repo, tmp_path / "run")
    scripts = rule_scripts()
    planned = run_snakemake(work, "--dry-run", "--cores", "2", *SMOKE, "--forcerun", *sorted(rules)).stdout
    targets = one_output_per_rule(planned, rules)
    present = set(targets)
    # a GPU rule the smoke run lacks runs the script of one it has (so the same start is tried)
    assert {scripts[rule] for rule in rules - present} <= {scripts[rule] for rule in present}, rules - present
    # one job of each (their inputs exist), each asking for a GPU, with CUDA hidden: first those no other one reads from
    # (a failed job's outputs are removed, and a job waits for a forced one upstream), then the rest
    _, edges = parse_rulegraph(run_snakemake(work, "--rulegraph", "--quiet", *SMOKE).stdout)
    upstream = set().union(*(_ancestors(rule, edges) for rule in present)) & present
    for rules_now in (present - upstream, upstream):
        result = run_snakemake(
            work,
            "--cores",
            "2",
            *SMOKE,
            "--force",
            "--keep-going",
            *(targets[rule] for rule in sorted(rules_now)),
            "--set-resources",
            *(f"{rule}:gpu=1" for rule in sorted(rules_now)),
            check=False,
            env=tool_environment() | {"CUDA_VISIBLE_DEVICES": ""},
        )
        assert result.returncode != 0, f"ran without a GPU:\n{result.stderr[-3000:]}"
        for rule in sorted(rules_now):
            assert len(re.findall(rf"Error in rule {rule}:", result.stderr)) == 1, f"{rule}:\n{result.stderr[-3000:]}"
            logs = sorted((work / "logs").glob(f"*/{rule}/**/*.log"), key=lambda p: p.stat().st_mtime)
            message = logs[-1].read_text(encoding="utf-8")
            assert "asks for 1 GPU(s)" in message and socket.gethostname() in message and "CUDA_VISIBLE_DEVICES=''" in message, message[-2000:]
            assert f"torch {torch.__version__}" in message and "Traceback" not in message, message[-2000:]
            assert _job_seconds(logs[-1]) < 60, message
    assert os.environ.get("CUDA_VISIBLE_DEVICES") != ""  # the suite's own environment was left alone
