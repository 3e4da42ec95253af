"""The number format follows the hardware: bf16 only where it is computed natively (compute.resolve_precision)."""

from __future__ import annotations

import pytest

from directional_inference.compute import cpu_flags, resolve_precision


@pytest.mark.parametrize(("flags", "expected"), [
    ({"avx2", "fma"}, "fp32"),  # AVX2-only: bf16 would be emulated
    ({"avx2", "avx512f", "avx512_bf16"}, "bf16"),  # AVX-512 BF16 (e.g. AMD Zen 4)
    ({"avx2", "amx_bf16", "amx_tile"}, "bf16"),  # AMX (Intel Sapphire Rapids)
    (set(), "fp32"),  # no /proc/cpuinfo
])
def test_auto_takes_bf16_only_on_cpus_that_compute_it_natively(flags, expected):
    precision, reason = resolve_precision("auto", "cpu", flags=flags)
    assert precision == expected and reason.startswith("auto: ")
    assert ("natively" in reason) == (expected == "bf16")


def test_a_configured_precision_is_kept_whatever_the_cpu():
    assert resolve_precision("bf16", "cpu", flags={"avx2"}) == ("bf16", "bf16 as configured")
    assert resolve_precision("fp32", "cpu", flags={"amx_bf16"})[0] == "fp32"


def test_auto_on_cuda_follows_the_device():
    assert resolve_precision("auto", "cuda", cuda_bf16=True)[0] == "bf16"
    assert resolve_precision("auto", "cuda", cuda_bf16=False)[0] == "fp32"


@pytest.mark.parametrize(("major", "expected"), [(7, "fp32"), (8, "bf16"), (9, "bf16")])
def test_auto_on_cuda_takes_bf16_only_where_native(monkeypatch, major, expected):
    """A Turing card (7.x) runs bf16 tensors by emulation, which torch's default check counts as support; auto must
    take fp32 there (the authors' format) and bf16 from Ampere (8.0) on. torch's own check runs, its device faked."""
    import types

    import torch

    monkeypatch.setattr(torch.version, "hip", None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda device: types.SimpleNamespace(major=major))
    monkeypatch.setattr(torch.cuda, "_check_bf16_tensor_supported", lambda device: True)  # emulation works
    assert torch.cuda.is_bf16_supported()  # what the default check says on every one of these devices
    assert resolve_precision("auto", "cuda")[0] == expected


def test_an_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="fp16"):
        resolve_precision("fp16")


def test_cpu_flags_are_read_from_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu avx2 avx512_bf16\n\nprocessor\t: 1\nflags\t: fpu\n")
    assert cpu_flags(cpuinfo) == {"fpu", "avx2", "avx512_bf16"}
    assert cpu_flags(tmp_path / "missing") == set()
