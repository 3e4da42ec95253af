"""Compute settings shared by every job that runs a transformer (training and scoring): the torch thread count and
the number format of forward passes.

``precision: auto`` takes bf16 only where the hardware computes it natively: a CUDA device of compute capability 8.0 or
more (Ampere on; torch's ``is_bf16_supported()`` also counts older devices that only emulate it), or a CPU with
AMX-BF16 or AVX-512 BF16 (measured on this project's machines: bf16 autocast trains 1.4-2 times faster there; on an
AVX2-only CPU, where bf16 is emulated, a training batch took about 25 s against 1 s in fp32). Every other machine gets
fp32. The resolved format and the reason are logged, and the training record keeps them.
"""

from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)

PRECISIONS = ("fp32", "bf16")
REQUESTABLE_PRECISIONS = PRECISIONS + ("auto",)
NATIVE_BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")


def set_threads(threads: int) -> None:
    """A fixed intra-op thread count: CPU results depend on it (the order of floating-point sums), not on --cores."""
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


def resolve_precision(requested: str, device_type: str = "cpu", *, flags: set[str] | None = None,
                      cuda_bf16: bool | None = None) -> tuple[str, str]:
    """(fp32 or bf16, why) for a configured ``training.precision`` on a device ("cpu" or "cuda")."""
    if requested not in REQUESTABLE_PRECISIONS:
        raise ValueError(f"precision must be one of {REQUESTABLE_PRECISIONS}, not {requested!r}")
    if requested != "auto":
        return requested, f"{requested} as configured"
    if device_type == "cuda":
        if cuda_bf16 is None:
            import torch

            cuda_bf16 = bool(torch.cuda.is_bf16_supported(including_emulation=False))
        return (("bf16", "auto: the CUDA device computes bf16 natively") if cuda_bf16
                else ("fp32", "auto: the CUDA device has no native bf16 (emulated bf16 is slower than fp32, the authors' format)"))
    flags = cpu_flags() if flags is None else flags
    native = [flag for flag in NATIVE_BF16_CPU_FLAGS if flag in flags]
    if native:
        return "bf16", f"auto: the CPU computes bf16 natively ({', '.join(native)})"
    return "fp32", ("auto: the CPU has neither " + " nor ".join(NATIVE_BF16_CPU_FLAGS) + ", so bf16 would be emulated (many times "
                    "slower than fp32)")
