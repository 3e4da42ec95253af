"""Compute settings shared by every job that runs a transformer (training and scoring): the torch thread count and
the number format of forward passes.

``precision: auto`` is chosen by measurement. Where the hardware has no native bf16 (a CUDA device below compute
capability 8.0, whose bf16 torch's ``is_bf16_supported()`` counts although it is emulated; a CPU with neither
AMX-BF16 nor AVX-512 BF16, where a training batch took about 25 s against 1 s in fp32) it is fp32 without a test.
Elsewhere the flag says only that the instructions exist: on an Intel Xeon with AVX-512 BF16 and no AMX, bf16
trained 1.4 times slower than fp32, on AMD Zen 4 and 5 1.5-1.8 times faster. So ``measure_step`` times a forward and
backward pass of the job's own model in each format on the job's device and threads (a few seconds; random token ids,
dropout off, the random state and the weights untouched), and bf16 is taken only where its step is at least
``BF16_MARGIN`` faster (fp32 is the authors' format; the precision benchmark, benchmarks/precision_auc.py, found
bf16's dev AUC within noise of fp32's). The figures are cached per machine, threads, torch and architecture
(``PrecisionCache``; ``DI_PRECISION_CACHE``, default ``~/.cache/directional-inference/precision``), so every job of
a run, and every later run on the machine, makes the same choice; the resolved format, with the figures it was made
from, is logged and kept in the training record.

The device is chosen here too, for every model of a job (``torch_device``): a visible CUDA device, else the CPU. A job
whose resources ask for a GPU (``gpu``, from ``training.gpus``) declares it at its start (``require_gpus``, called by
every rule script's ``workflow.rulelog.start_job``) and stops there, within seconds, where torch sees no CUDA device
(a CPU build of torch, a driver too old for the build, a job placed without a GPU): on a cluster a GPU job that ran
on the CPU would run to its time limit and be retried with twice the time.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path

from .errors import WorkflowError

log = logging.getLogger(__name__)

PRECISIONS = ("fp32", "bf16")
REQUESTABLE_PRECISIONS = PRECISIONS + ("auto",)
NATIVE_BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")
BF16_MARGIN = 0.9  # bf16 is taken where its step takes at most this share of fp32's
STEP_SHAPE = (32, 32)  # the measured step: sentences x tokens (a scorer chunk of 32 S&S prompt sentences, 15-30 tokens each)


class NoGPUError(WorkflowError):
    """A job asked for a GPU and torch sees no CUDA device."""


_requested_gpus = 0  # what this process's job asked for (require_gpus)


def cuda_setup() -> str:
    """What decides whether torch sees a GPU here: the node, the torch build, the CUDA devices it sees and
    ``CUDA_VISIBLE_DEVICES``."""
    import torch

    build = f"torch {torch.__version__} " + (
        f"built with CUDA {torch.version.cuda}" if torch.version.cuda else "built without CUDA (a CPU-only build)"
    )
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    count = torch.cuda.device_count() if torch.version.cuda else 0
    devices = ", ".join(torch.cuda.get_device_name(k) for k in range(count)) if count else "none"
    return (
        f"node {socket.gethostname()}, {build}, CUDA devices seen: {devices}, CUDA_VISIBLE_DEVICES={'(unset)' if visible is None else repr(visible)}"
    )


def require_gpus(count: int) -> None:
    """Declare the GPUs this job asked for; a job that asks for one and sees no CUDA device stops here (NoGPUError)."""
    global _requested_gpus
    _requested_gpus = int(count or 0)
    if _requested_gpus > 0:
        torch_device()


def torch_device():
    """The device every model of this job runs on: the first visible CUDA device, else the CPU, logged with why. Where
    the job asked for a GPU (``require_gpus``) and torch sees none, NoGPUError names the node, the torch build and
    ``CUDA_VISIBLE_DEVICES``, and the fixes."""
    import torch

    if torch.cuda.is_available():
        device = torch.device("cuda", torch.cuda.current_device())
        log.info("device: %s (%s)", device, torch.cuda.get_device_name(device))
        return device
    if _requested_gpus > 0:
        raise NoGPUError(
            f"this job asks for {_requested_gpus} GPU(s) (resources: gpu, from training.gpus) but torch sees no CUDA device: "
            f"{cuda_setup()}. Run it where torch sees a GPU (a CUDA build of torch, a driver recent enough for it, a job "
            f"placed with --gpus; bin/doctor checks the machine), or set training.gpus: 0 to run on the CPU."
        )
    log.info("device: cpu (%s)", cuda_setup() if torch.version.cuda else f"torch {torch.__version__}, a CPU-only build")
    return torch.device("cpu")


# training.threads: auto shares a run's cores among this many training and scoring jobs at once: Tables 1, 2 and 5 each
# train four models side by side, and a job's second thread adds about half to its speed where a second job adds up to
# as much again (benchmarks/sns_throughput.py), so cores go to jobs side by side first and to each job's threads after.
JOBS_SHARING_CORES = 4
AUTO_THREADS_ON_A_CLUSTER = 4  # a cluster job's own node: no --cores to share


def model_job_threads(setting: int | str, cores: int | None) -> int:
    """Threads of a training or scoring job for ``training.threads``: the number it gives, or for ``auto`` an equal share
    of the run's ``cores`` among ``JOBS_SHARING_CORES`` jobs (at least one; ``AUTO_THREADS_ON_A_CLUSTER`` where the run
    has no core count, each job on a node of its own)."""
    if setting != "auto":
        return int(setting)
    if cores is None:
        return AUTO_THREADS_ON_A_CLUSTER
    return max(1, int(cores) // JOBS_SHARING_CORES)


def model_job_gpus(setting: int, offered: int | None) -> int:
    """GPUs of a training or scoring job: ``training.gpus``, or one where that is 0 and the run offers its jobs GPUs
    (``--resources gpu=N``: a local machine's GPUs, profiles/gpu)."""
    return int(setting) if int(setting) > 0 else int(bool(offered and int(offered) > 0))


def local_gpu_problems(gpus: int) -> list[str]:
    """Why a local run whose training and scoring jobs ask for ``gpus`` GPUs each cannot run here (empty where torch
    sees a CUDA device): said before any job starts, naming the settings to change."""
    import torch

    if torch.cuda.is_available():
        return []
    return [
        f"the training and scoring jobs ask for {gpus} GPU(s) each (training.gpus, or --resources gpu=N as profiles/gpu "
        f"gives) but torch sees no CUDA device here: {cuda_setup()}. Install a CUDA build of torch (bin/doctor says "
        "which), or run on the CPU: without profiles/gpu and --resources gpu, and training.gpus: 0"
    ]


def set_threads(threads: int) -> None:
    """A fixed intra-op thread count: CPU results depend on it (the order of floating-point sums); it is part of a
    trial's settings, so results depend on --cores only where ``training.threads: auto`` derives it from them."""
    import torch

    torch.set_num_threads(max(int(threads), 1))


def cpu_flags(cpuinfo: str | Path = "/proc/cpuinfo") -> set[str]:
    """The feature flags of the first CPU in ``cpuinfo`` (empty where there is no such file, e.g. not Linux)."""
    try:
        text = Path(cpuinfo).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in ("flags", "Features"):
            return set(value.split())
    return set()


def cpu_name(cpuinfo: str | Path = "/proc/cpuinfo") -> str:
    """The first CPU's model name, family and model (``unknown CPU`` where there is no such file)."""
    try:
        text = Path(cpuinfo).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "unknown CPU"
    fields: dict[str, str] = {}
    for line in text.split("\n\n")[0].splitlines():
        name, _, value = line.partition(":")
        fields.setdefault(name.strip(), value.strip())
    return f"{fields.get('model name', 'unknown CPU')}, family {fields.get('cpu family', '?')} model {fields.get('model', '?')}"


def device_label(device, threads: int) -> tuple[str, str]:
    """(kind, name) of a torch device for the throughput tables: ``cuda-nvidia-h200`` / "NVIDIA H200", or
    ``cpu-intel-xeon-processor-family-6-model-167-2-threads`` / "Intel(R) Xeon(R) Processor, family 6 model 167, 2 threads"
    (``bin/plan --device KIND`` reads rows by kind)."""
    import re

    import torch

    name = torch.cuda.get_device_name(device) if device.type == "cuda" else f"{cpu_name()}, {threads} threads"
    slug = re.sub(r"[^a-z0-9]+", "-", re.sub(r"\((r|tm)\)", "", name.lower())).strip("-")
    return ("cuda-" if device.type == "cuda" else "cpu-") + slug, name


def native_bf16(device_type: str, *, flags: set[str] | None = None, cuda_bf16: bool | None = None) -> tuple[bool, str]:
    """Whether the device computes bf16 natively, and why (a CUDA device of compute capability 8.0 or more; a CPU with
    ``NATIVE_BF16_CPU_FLAGS``)."""
    if device_type == "cuda":
        if cuda_bf16 is None:
            import torch

            cuda_bf16 = bool(torch.cuda.is_bf16_supported(including_emulation=False))
        return (
            (True, "the CUDA device computes bf16 natively")
            if cuda_bf16
            else (False, "the CUDA device has no native bf16 (emulated bf16 is slower than fp32, the authors' format)")
        )
    flags = cpu_flags() if flags is None else flags
    native = [flag for flag in NATIVE_BF16_CPU_FLAGS if flag in flags]
    if native:
        return True, f"the CPU computes bf16 natively ({', '.join(native)})"
    return False, ("the CPU has neither " + " nor ".join(NATIVE_BF16_CPU_FLAGS) + ", so bf16 would be emulated (many times slower than fp32)")


def measure_step(model, device, *, rounds: int = 3, forward_only: bool = False, precisions: tuple[str, ...] = PRECISIONS) -> dict[str, float]:
    """Seconds of one forward and backward pass of ``model`` (a sequence classifier on ``device``) over ``STEP_SHAPE``
    random token ids, per format: the least of ``rounds`` after a warm-up, the formats taken in turn. Dropout is off,
    the random state is not drawn from (the ids come from a generator of their own), and the gradients are cleared,
    so the job trains and scores as if nothing had run. ``forward_only``: the forward pass alone, without gradients
    (a scorer that never trains, e.g. an LLM: no gradient memory); ``precisions``: the formats timed (fp32 alone where
    bf16 would be emulated: many times slower, and never taken)."""
    import torch

    sentences, tokens = STEP_SHAPE
    ids = torch.randint(5, int(model.config.vocab_size), (sentences, tokens), generator=torch.Generator().manual_seed(0)).to(device)
    mask = torch.ones_like(ids)
    training = model.training
    model.eval()

    def step(precision: str) -> float:
        start = time.perf_counter()
        with torch.inference_mode(forward_only), torch.autocast(device.type, dtype=torch.bfloat16, enabled=precision == "bf16"):
            logits = model(input_ids=ids, attention_mask=mask).logits
        if not forward_only:
            logits.float().sum().backward()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        return time.perf_counter() - start

    try:
        seconds = {precision: [] for precision in precisions}
        for round_ in range(rounds + 1):
            for precision in precisions:
                taken = step(precision)
                if round_:  # the first round warms up
                    seconds[precision].append(taken)
        return {precision: min(times) for precision, times in seconds.items()}
    finally:
        model.zero_grad(set_to_none=True)
        model.train(training)


class PrecisionCache:
    """Measured step times per machine, threads, torch version and model architecture: one JSON file per key in
    ``folder``, written under a lock, so the jobs of a run that start together measure once and agree."""

    def __init__(self, folder: str | os.PathLike | None = None):
        default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "directional-inference" / "precision"
        self.folder = Path(folder or os.environ.get("DI_PRECISION_CACHE") or default)

    @staticmethod
    def key(machine: str, model) -> dict:
        import torch

        config = {
            k: v
            for k, v in sorted(model.config.to_dict().items())
            if not k.startswith("_") and k not in ("transformers_version", "id2label", "label2id", "architectures", "dtype", "torch_dtype")
        }
        architecture = hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]
        return {"machine": machine, "threads": torch.get_num_threads(), "torch": torch.__version__, "model": f"{type(model).__name__} {architecture}"}

    def seconds(self, key: dict, measure: Callable[[], dict[str, float]]) -> tuple[dict[str, float], bool]:
        """(the step times of ``key``, whether they came from the cache), measured with ``measure`` the first time."""
        name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:20]
        path = self.folder / f"{name}.json"
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / f"{name}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # a job that starts beside the measuring one waits for its figures
            with contextlib.suppress(OSError, ValueError, KeyError):
                return json.loads(path.read_text())["seconds"], True
            seconds = measure()
            staging = path.with_suffix(f".{os.getpid()}.tmp")
            staging.write_text(json.dumps({**key, "seconds": seconds, "measured": time.strftime("%Y-%m-%d %H:%M:%S")}, indent=1) + "\n")
            staging.replace(path)
            return seconds, False


def resolve_precision(
    requested: str,
    device_type: str = "cpu",
    *,
    model=None,
    device=None,
    flags: set[str] | None = None,
    cuda_bf16: bool | None = None,
    cache: PrecisionCache | None = None,
    measure: Callable[[], dict[str, float]] | None = None,
    forward_only: bool = False,
) -> tuple[str, str]:
    """(fp32 or bf16, why) for a configured ``training.precision`` on a device ("cpu" or "cuda"); ``auto`` on a device
    with native bf16 measures ``model`` on ``device`` (``measure_step``, or ``measure``; ``forward_only`` for a model
    that only scores) through ``cache``."""
    if requested not in REQUESTABLE_PRECISIONS:
        raise ValueError(f"precision must be one of {REQUESTABLE_PRECISIONS}, not {requested!r}")
    if requested != "auto":
        return requested, f"{requested} as configured"
    native, why = native_bf16(device_type, flags=flags, cuda_bf16=cuda_bf16)
    if not native:
        return "fp32", f"auto: {why}"
    if model is None:
        raise ValueError("precision auto on a device with native bf16 is measured on the job's model: give it")
    machine = cpu_name() if device_type == "cpu" else _cuda_name(device)
    key = PrecisionCache.key(machine, model) | ({"step": "forward"} if forward_only else {})
    seconds, cached = (cache or PrecisionCache()).seconds(key, measure or (lambda: measure_step(model, device, forward_only=forward_only)))
    choice = "bf16" if seconds["bf16"] <= BF16_MARGIN * seconds["fp32"] else "fp32"
    sentences, tokens = STEP_SHAPE
    return choice, (
        f"auto: {why}; a {'forward' if forward_only else 'forward and backward'} step of {sentences} x {tokens} tokens on {machine} took "
        f"{seconds['fp32'] * 1000:.1f} ms in fp32, {seconds['bf16'] * 1000:.1f} ms in bf16"
        f"{' (measured earlier on this machine)' if cached else ''}: {choice} "
        + ("is faster" if choice == "bf16" else f"(bf16 is taken only at {BF16_MARGIN:.0%} of fp32's time or less)")
    )


def _cuda_name(device) -> str:
    import torch

    return torch.cuda.get_device_name(device)
