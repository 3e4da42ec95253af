"""The number format is chosen by measurement: bf16 only where the device computes it natively and a step of the job's
model is measured faster in it (compute.resolve_precision); the figures are cached per machine and model."""

from __future__ import annotations

import pytest
import torch

from directional_inference.compute import BF16_MARGIN, PrecisionCache, cpu_flags, cpu_name, measure_step, native_bf16, resolve_precision


@pytest.fixture(scope="module")
def model():
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=120, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32, max_position_embeddings=64, num_labels=2
    )
    return BertForSequenceClassification(config)


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ({"avx2", "fma"}, False),  # AVX2-only: bf16 would be emulated
        ({"avx2", "avx512f", "avx512_bf16"}, True),  # AVX-512 BF16 (AMD Zen 4, Intel Cooper Lake and later Xeons)
        ({"avx2", "amx_bf16", "amx_tile"}, True),  # AMX (Intel Sapphire Rapids)
        (set(), False),  # no /proc/cpuinfo
    ],
)
def test_native_bf16_follows_the_cpu_flags(flags, expected):
    assert native_bf16("cpu", flags=flags)[0] is expected


def test_auto_without_native_bf16_is_fp32_with_no_measurement():
    def measure():
        raise AssertionError("measured where bf16 is emulated")

    precision, reason = resolve_precision("auto", "cpu", flags={"avx2"}, measure=measure)
    assert precision == "fp32" and reason.startswith("auto: ") and "emulated" in reason


@pytest.mark.parametrize(
    ("fp32", "bf16", "expected"),
    [
        (1.0, 0.5, "bf16"),  # AMD Zen 4 or 5: bf16 about 1.5-1.8 times faster
        (1.0, 1.4, "fp32"),  # an Intel Xeon with AVX-512 BF16 and no AMX: bf16 1.4 times slower
        (1.0, 0.95, "fp32"),  # within the margin: the authors' format
        (1.0, BF16_MARGIN, "bf16"),
    ],
)
def test_auto_on_native_bf16_takes_the_measured_faster_format(model, tmp_path, fp32, bf16, expected):
    precision, reason = resolve_precision(
        "auto", "cpu", model=model, flags={"avx512_bf16"}, cache=PrecisionCache(tmp_path), measure=lambda: {"fp32": fp32, "bf16": bf16}
    )
    assert precision == expected
    assert f"{fp32 * 1000:.1f} ms in fp32, {bf16 * 1000:.1f} ms in bf16" in reason and cpu_name() in reason


def test_the_figures_are_measured_once_per_machine_threads_and_model(model, tmp_path):
    cache, calls = PrecisionCache(tmp_path), []

    def measure():
        calls.append(1)
        return {"fp32": 1.0, "bf16": 0.5}

    first = resolve_precision("auto", "cpu", model=model, flags={"amx_bf16"}, cache=cache, measure=measure)
    again = resolve_precision("auto", "cpu", model=model, flags={"amx_bf16"}, cache=cache, measure=lambda: {"fp32": 0.1, "bf16": 9.0})
    assert len(calls) == 1 and again[0] == first[0] == "bf16" and "measured earlier" in again[1]
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(threads + 1)  # another thread count is another measurement
        assert resolve_precision("auto", "cpu", model=model, flags={"amx_bf16"}, cache=cache, measure=measure)[0] == "bf16"
    finally:
        torch.set_num_threads(threads)
    assert len(calls) == 2 and len(list(tmp_path.glob("*.json"))) == 2


def test_a_configured_precision_is_kept_whatever_the_cpu():
    assert resolve_precision("bf16", "cpu", flags={"avx2"}) == ("bf16", "bf16 as configured")
    assert resolve_precision("fp32", "cpu", flags={"amx_bf16"})[0] == "fp32"


def test_a_measured_step_leaves_the_model_and_the_random_state_as_they_were(model):
    before = {name: value.clone() for name, value in model.state_dict().items()}
    model.train()
    state = torch.random.get_rng_state()
    seconds = measure_step(model, torch.device("cpu"), rounds=2)
    assert set(seconds) == {"fp32", "bf16"} and all(value > 0 for value in seconds.values())
    assert torch.equal(torch.random.get_rng_state(), state) and model.training
    assert all(torch.equal(value, before[name]) for name, value in model.state_dict().items())
    assert all(parameter.grad is None for parameter in model.parameters())


def test_auto_measures_for_real_where_bf16_is_taken_as_native(model, tmp_path):
    """The measured path with the real timing code on any host (bf16 declared native through the flags, so a CPU
    without it is timed too): both figures and the choice are in the reason the job logs, the choice follows from the
    figures by the margin, and the cache holds the same figures."""
    import json
    import re

    precision, reason = resolve_precision("auto", "cpu", model=model, device=torch.device("cpu"), flags={"amx_bf16"}, cache=PrecisionCache(tmp_path))
    figures = re.search(r"took ([0-9.]+) ms in fp32, ([0-9.]+) ms in bf16 ?: (bf16|fp32)", reason)
    assert figures, reason
    fp32, bf16 = float(figures[1]), float(figures[2])
    assert fp32 > 0 and bf16 > 0 and figures[3] == precision
    # the reason rounds to 0.1 ms: the choice must agree with the rounded figures unless they sit on the margin
    if abs(bf16 - BF16_MARGIN * fp32) > 0.2:
        assert precision == ("bf16" if bf16 <= BF16_MARGIN * fp32 else "fp32")
    (record,) = [json.loads(path.read_text()) for path in tmp_path.glob("*.json")]
    assert round(record["seconds"]["fp32"] * 1000, 1) == fp32 and round(record["seconds"]["bf16"] * 1000, 1) == bf16


def test_auto_on_cuda_follows_the_device():
    assert native_bf16("cuda", cuda_bf16=True)[0] and not native_bf16("cuda", cuda_bf16=False)[0]
    assert resolve_precision("auto", "cuda", cuda_bf16=False)[0] == "fp32"


@pytest.mark.parametrize(("major", "expected"), [(7, False), (8, True), (9, True)])
def test_auto_on_cuda_takes_bf16_only_where_native(monkeypatch, major, expected):
    """A Turing card (7.x) runs bf16 tensors by emulation, which torch's default check counts as support; auto must
    take fp32 there (the authors' format) and measure from Ampere (8.0) on. torch's own check runs, its device faked."""
    import types

    monkeypatch.setattr(torch.version, "hip", None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "get_device_properties", lambda device: types.SimpleNamespace(major=major))
    monkeypatch.setattr(torch.cuda, "_check_bf16_tensor_supported", lambda device: True)  # emulation works
    assert torch.cuda.is_bf16_supported()  # what the default check says on every one of these devices
    assert native_bf16("cuda")[0] is expected


def test_an_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="fp16"):
        resolve_precision("fp16")


def test_cpu_flags_and_name_are_read_from_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC 9654\nflags\t\t: fpu avx2 avx512_bf16\n\n"
        "processor\t: 1\nflags\t: fpu\n"
    )
    assert cpu_flags(cpuinfo) == {"fpu", "avx2", "avx512_bf16"}
    assert cpu_name(cpuinfo) == "AMD EPYC 9654, family 25 model 17"
    assert cpu_flags(tmp_path / "missing") == set() and cpu_name(tmp_path / "missing") == "unknown CPU"


def _device_choice(gpus: int, **environment: str):
    """Run ``require_gpus(gpus)`` then ``torch_device()`` in a fresh interpreter with ``environment`` added: (exit code,
    stdout, stderr, seconds)."""
    import os
    import subprocess
    import sys
    import time

    code = (
        "import logging, sys\nlogging.basicConfig(stream=sys.stdout, level=logging.INFO, format='%(message)s')\n"
        "from directional_inference.compute import require_gpus, torch_device\n"
        f"require_gpus({gpus})\nprint('chosen', torch_device())\n"
    )
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **environment})
    return result.returncode, result.stdout, result.stderr, time.monotonic() - started


def test_a_job_that_asks_for_a_gpu_and_sees_none_stops_at_once_naming_node_build_and_visible_devices():
    import socket

    code, out, err, seconds = _device_choice(1, CUDA_VISIBLE_DEVICES="")  # CUDA hidden, also where there is a GPU
    assert code != 0 and "NoGPUError" in err and "chosen" not in out
    message = err.strip().splitlines()[-1]
    assert "asks for 1 GPU(s)" in message and socket.gethostname() in message and f"torch {torch.__version__}" in message
    assert "CUDA_VISIBLE_DEVICES=''" in message and "training.gpus: 0" in message and "bin/doctor" in message
    assert ("built without CUDA" in message) == (torch.version.cuda is None)
    assert seconds < 60


def test_a_job_that_asks_for_no_gpu_runs_on_the_cpu_where_none_is_seen_and_logs_it():
    code, out, err, _ = _device_choice(0, CUDA_VISIBLE_DEVICES="")
    assert code == 0, err
    assert "chosen cpu" in out and "device: cpu" in out


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")
def test_a_job_sees_the_gpu_where_there_is_one():
    for gpus in (0, 1):
        code, out, err, _ = _device_choice(gpus)
        assert code == 0, err
        assert "chosen cuda:0" in out and f"device: cuda:0 ({torch.cuda.get_device_name(0)})" in out
