"""The LLM scorer: the 2023 prompts, the score at the answer from the next-token distribution, the shared prefix computed
once, and a tiny random causal LM built offline standing in for any causal LM."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from directional_inference.errors import ModelUnavailableError
from directional_inference.levyholt.entries import Entry, write_entries
from directional_inference.llm.models import build_tiny_llm, load_llm, model_source, prompt_texts
from directional_inference.llm.predictions import read_predictions
from directional_inference.llm.prompts import PromptSetting
from directional_inference.llm.scorer import CausalLMScorer, option_ids, score_test_with_llm

ENTRIES = [
    Entry(("Google", "bought", "YouTube"), ("Google", "owns", "YouTube"), True),
    Entry(("Google", "owns", "YouTube"), ("Google", "bought", "YouTube"), False),
    Entry(("the hornet", "lives in", "America"), ("the hornet", "captured in", "America"), False),
    Entry(("Jerusalem", "is located near", "Mountains"), ("Jerusalem", "is surrounded by", "Mountains"), False),
    Entry(("aspirin", "reduces", "fever"), ("aspirin", "affects", "fever"), True),
]


# the GPU path is checked where a GPU is (CI has none)
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.fixture(scope="module")
def tiny_llm(tmp_path_factory):
    texts = [" ".join(e.premise) for e in ENTRIES] + [" ".join(e.hypothesis) for e in ENTRIES]
    return build_tiny_llm({"hidden_size": 32, "layers": 2, "heads": 2}, texts + prompt_texts(), tmp_path_factory.mktemp("llm") / "tiny", seed=3)


def test_the_prompt_is_the_2023_protocol_written_out():
    zero = PromptSetting()
    assert zero.prefix() == "Please check the entailments between the following statements.\n\n"
    assert zero.pair(ENTRIES[0]) == "If google bought youtube, then google owns youtube.\nA) Entailment\nB) Neutral\nC) Contradiction\nAnswer:"
    few = PromptSetting(shots="few-shot", instruction=False).prefix()
    assert few.startswith(
        "If Google bought YouTube, then Google owns YouTube.\nA) Entailment\nB) Neutral\nC) Contradiction\nAnswer: A) Entailment.\n\n"
    )
    assert few.count("Answer: ") == 4 and few.count("A) Entailment.\n\n") == 2 and few.count("B) Neutral.\n\n") == 2
    cot = PromptSetting(shots="few-shot CoT").prefix()
    assert "Answer: A) Entailment. Owning is a consequence of buying.\n\n" in cot
    assert PromptSetting(template=4).pair(ENTRIES[0]).startswith("Google bought youtube entails google owns youtube.\n")
    assert PromptSetting(shots="few-shot").name == "original, few-shot" and PromptSetting(template=0).name == "original, zero-shot, template 0"
    with pytest.raises(ValueError, match="template must be one of"):
        PromptSetting(template=2)


@pytest.mark.parametrize("device", DEVICES)
def test_a_prefix_computed_once_gives_the_scores_of_whole_prompts(tiny_llm, device):
    model, tokenizer = load_llm(tiny_llm, device)
    scorer = CausalLMScorer(model, tokenizer, batch_size=2)
    for setting in (PromptSetting(), PromptSetting(shots="few-shot"), PromptSetting(shots="few-shot CoT", instruction=False)):
        batched = scorer.scores(ENTRIES, setting)
        alone = []
        for entry in ENTRIES:  # the whole prompt, one pair at a time, no cache
            ids = tokenizer.encode(setting.prefix(), add_special_tokens=True) + tokenizer.encode(
                setting.pair(entry), add_special_tokens=not setting.prefix()
            )
            with torch.inference_mode():
                logits = model(input_ids=torch.tensor([ids], device=device)).logits[0, -1].double()
            p = torch.softmax(logits, -1)[scorer.options]
            alone.append(float(p[0] / p.sum()))
        if device == "cuda":  # and the GPU gives the CPU's scores
            cpu = CausalLMScorer(load_llm(tiny_llm)[0], tokenizer, batch_size=2).scores(ENTRIES, setting)
            assert batched == pytest.approx(cpu, abs=1e-4), setting.name
        assert batched == pytest.approx(alone, abs=1e-5), setting.name
        assert ((batched > 0) & (batched < 1)).all()
        assert scorer.scores(ENTRIES[::-1], setting)[::-1] == pytest.approx(batched, abs=1e-5)  # the batch does not matter


@pytest.mark.parametrize("device", DEVICES)
def test_an_llm_number_format_is_measured_on_forward_passes_alone(tiny_llm, tmp_path, device):
    """An LLM only scores: ``auto`` times forward passes (no gradients kept, none computed) in both formats."""
    from directional_inference.compute import PrecisionCache, resolve_precision

    model, _ = load_llm(tiny_llm, device)
    choice, why = resolve_precision(
        "auto",
        device,
        model=model,
        device=torch.device(device),
        flags={"avx512_bf16"},
        cuda_bf16=True,
        cache=PrecisionCache(tmp_path),
        forward_only=True,
    )
    assert choice in ("fp32", "bf16") and "a forward step of 32 x 32 tokens" in why, why
    assert all(p.grad is None for p in model.parameters())
    (entry,) = [json.loads(path.read_text()) for path in tmp_path.glob("*.json")]
    assert entry["step"] == "forward" and set(entry["seconds"]) == {"fp32", "bf16"}


@pytest.mark.parametrize("device", DEVICES)
def test_bf16_casts_the_body_on_a_gpu_alone_and_keeps_the_answer_logits_fp32(tiny_llm, device, monkeypatch, caplog):
    """On a GPU the body's weights go to bf16 (measured faster than autocast), the answer logits stay fp32; a CPU keeps
    fp32 weights under autocast (the default's bytes). A model whose fp32 weights would not fit is loaded in bf16."""
    import logging

    from directional_inference.llm import scorer as scorer_module

    model, tokenizer = load_llm(tiny_llm, device)
    reference = CausalLMScorer(load_llm(tiny_llm)[0], tokenizer, batch_size=2).scores(ENTRIES, PromptSetting())
    scorer = CausalLMScorer(model, tokenizer, precision="bf16", batch_size=2)
    body = {p.dtype for p in model.get_decoder().parameters()}
    assert body == ({torch.bfloat16} if device == "cuda" else {torch.float32})
    scores = scorer.scores(ENTRIES, PromptSetting())
    assert scores.dtype == np.float64 and scores == pytest.approx(reference, abs=0.02)
    if device == "cuda":
        monkeypatch.setattr(scorer_module, "FP32_SHARE", 0.0)
        with caplog.at_level(logging.INFO):
            big = scorer_module.llm_scorer(tiny_llm, precision="auto", batch_size=2)
        assert big.precision == "bf16" and {p.dtype for p in big.model.get_decoder().parameters()} == {torch.bfloat16}
        assert "would take more than 0% of" in caplog.text


def test_the_2023_answer_rules_turn_the_option_probabilities_into_scores():
    """Over the whole vocabulary P(A), P(B), P(C) = 0.6, 0.3, 0.05: probability 0.6 / 0.95; the greedy answer is A
    with p = 0.6, so davinci 0.5 + 0.3 = 0.8 and greedy 1. With 0.2, 0.5, 0.1 the greedy answer is B (p = 0.5):
    davinci 0.5 - 0.25 = 0.25, greedy 0."""
    from directional_inference.llm.scorer import answer_scores

    log_p = torch.tensor([[0.6, 0.3, 0.05], [0.2, 0.5, 0.1]], dtype=torch.float64).log()
    assert answer_scores(log_p, "probability").tolist() == pytest.approx([0.6 / 0.95, 0.2 / 0.8])
    assert answer_scores(log_p, "davinci").tolist() == pytest.approx([0.8, 0.25])
    assert answer_scores(log_p, "greedy").tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="answer rule is one of"):
        answer_scores(log_p, "sampled")


def test_a_scorer_with_an_answer_rule_agrees_with_its_probabilities(tiny_llm, tmp_path):
    """The greedy rule is 1 exactly where A is the most probable of the three answers; the rule names the setting."""
    model, tokenizer = load_llm(tiny_llm)
    setting = PromptSetting()
    probability = CausalLMScorer(model, tokenizer, batch_size=2).scores(ENTRIES, setting)
    greedy = CausalLMScorer(model, tokenizer, batch_size=2, rule="greedy").scores(ENTRIES, setting)
    davinci = CausalLMScorer(model, tokenizer, batch_size=2, rule="davinci").scores(ENTRIES, setting)
    assert set(greedy) <= {0.0, 1.0} and ((davinci > 0.5) == (greedy == 1.0)).all()
    # A is the greedy answer exactly where its share of the three is the largest: above 1/3 is necessary, not enough
    assert (greedy[probability < 1 / 3] == 0).all()
    write_entries(tmp_path / "test.tsv", ENTRIES)
    score_test_with_llm(
        tiny_llm, tmp_path / "test.tsv", tmp_path / "p.tsv", name="tiny", prompts=["zero-shot"], batch_size=2, precision="fp32", rule="davinci"
    )
    rows = read_predictions(tmp_path / "p.tsv")
    assert set(rows["setting"]) == {"original, zero-shot, davinci rule"} and rows["score"].to_numpy() == pytest.approx(davinci, abs=1e-6)


def test_the_answer_tokens_must_be_single_and_distinct():
    class Letters:
        def __init__(self, table):
            self.table = table

        def encode(self, text, add_special_tokens=False):
            return self.table.get(text, [0, 0])

    assert option_ids(Letters({" A": [5], " B": [6], " C": [7]})) == [5, 6, 7]
    assert option_ids(Letters({"A": [5], " B": [6], "C": [7]})) == [5, 6, 7]
    with pytest.raises(ValueError, match="no single token for the answer 'C'"):
        option_ids(Letters({" A": [5], " B": [6]}))
    with pytest.raises(ValueError, match="share a token"):
        option_ids(Letters({" A": [5], " B": [5], " C": [7]}))


def test_a_test_file_is_scored_into_a_predictions_file_per_prompt(tiny_llm, tmp_path):
    write_entries(tmp_path / "test.tsv", ENTRIES + ENTRIES[:1])  # a pair twice is scored once
    score_test_with_llm(
        tiny_llm, tmp_path / "test.tsv", tmp_path / "predictions.tsv", name="tiny", prompts=["zero-shot", "few-shot"], batch_size=4, precision="fp32"
    )
    rows = read_predictions(tmp_path / "predictions.tsv")
    assert sorted(set(rows["setting"])) == ["original, few-shot", "original, zero-shot"] and set(rows["model"]) == {"tiny"}
    assert len(rows) == 2 * len(ENTRIES) and rows["score"].between(0, 1).all()
    model, tokenizer = load_llm(tiny_llm)
    expected = CausalLMScorer(model, tokenizer).scores(ENTRIES, PromptSetting())
    assert rows[rows["setting"] == "original, zero-shot"]["score"].to_numpy() == pytest.approx(expected, abs=1e-6)


def test_a_tiny_llm_is_the_same_bytes_from_the_same_seed(tmp_path):
    texts = ["x bought y", "x owns y"] + prompt_texts()
    first = build_tiny_llm({}, texts, tmp_path / "a", seed=1)
    second = build_tiny_llm({}, texts, tmp_path / "b", seed=1)
    for name in ("model.safetensors", "tokenizer.json"):
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_a_model_directory_is_prepared_as_it_is_and_counted_from_its_headers(tiny_llm, tmp_path):
    from directional_inference.llm.models import prepare_llm, weight_count

    prepared = prepare_llm(str(tiny_llm), tmp_path / "prepared")
    assert (prepared / "model.safetensors").read_bytes() == (tiny_llm / "model.safetensors").read_bytes()
    assert json.loads((prepared / "SOURCE.json").read_text())["source"] == "local directory"
    model, _ = load_llm(prepared)
    # untied embeddings and output layer: each stored once, as the model holds them
    assert weight_count(prepared) == sum(p.numel() for p in model.parameters()) > 0


def test_a_hub_llm_is_never_prepared_in_a_job(tmp_path):
    """A hub id is fetch_llm's (a local rule, resources/llms/<alias>): prepare_llm, a cluster job, refuses it without
    reading the hub, and imports none of the package's hub code."""
    import subprocess
    import sys

    from directional_inference.llm.models import prepare_llm

    with pytest.raises(ModelUnavailableError, match="'org/llm@v1' is a Hugging Face hub name.*fetch_model and fetch_llm"):
        prepare_llm("org/llm@v1", tmp_path / "prepared")
    assert not (tmp_path / "prepared").exists()
    code = (
        "import sys, directional_inference.llm.models, directional_inference.llm.scorer; print('directional_inference.resources.hub' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_model_names_say_where_weights_come_from():
    assert model_source("HuggingFaceTB/SmolLM2-360M-Instruct@abc") == {"kind": "transformers", "name": "HuggingFaceTB/SmolLM2-360M-Instruct@abc"}
    assert model_source("/models/x.Q4_K_M.gguf") == {"kind": "gguf", "path": "/models/x.Q4_K_M.gguf"}
    assert model_source({"tiny": None}) == {"kind": "tiny", "spec": {}}
    with pytest.raises(ModelUnavailableError, match="the Python package no-such-llm-package is not installed"):
        model_source({"package": "no-such-llm-package", "file": "x.gguf"})


def test_a_stopped_scoring_resumes_after_its_saved_batches(tiny_llm, tmp_path):
    """A saved state's scores are kept and not computed again (here marked by a value no model gives), the rest is
    scored, and the checkpoint is removed once the predictions are written."""
    from directional_inference.resume import ScoringProgress, ScoringState, input_signature

    write_entries(tmp_path / "test.tsv", ENTRIES)
    model, tokenizer = load_llm(tiny_llm)
    expected = CausalLMScorer(model, tokenizer, batch_size=2).scores(ENTRIES, PromptSetting())
    signature = input_signature(
        {"setting": "original, zero-shot", "batch_size": 2, "precision": "fp32", "rule": "probability"}, [tiny_llm, tmp_path / "test.tsv"]
    )
    stopped = np.array([0.123, 0.456, np.nan, np.nan, np.nan])  # one batch of two done before the stop
    ScoringProgress(tmp_path / "checkpoints" / "zero-shot.npz", signature).save(ScoringState(1, stopped, ~np.isnan(stopped), 0.0, 0.0), force=True)
    score_test_with_llm(
        tiny_llm,
        tmp_path / "test.tsv",
        tmp_path / "predictions.tsv",
        name="tiny",
        prompts=["zero-shot"],
        batch_size=2,
        precision="fp32",
        checkpoints=tmp_path / "checkpoints",
    )
    scores = read_predictions(tmp_path / "predictions.tsv")["score"].to_numpy()
    assert scores[:2] == pytest.approx([0.123, 0.456]) and scores[2:] == pytest.approx(expected[2:], abs=1e-6)
    assert not list((tmp_path / "checkpoints").glob("*.npz"))
