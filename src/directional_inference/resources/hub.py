"""Models from the Hugging Face hub, downloaded where Snakemake runs (the local rules fetch_model and fetch_llm), straight
into their place under ``resources/``: no job of the workflow reads the hub or its cache, so a cluster's compute nodes
need no network.

A hub name is ``repo`` or ``repo@revision`` (a branch, a tag or a commit; ``resources/pins.py`` prints commits). Its
revision is resolved to a commit first, then the files of that commit that match the patterns (at the repository's top
level: a subfolder's ONNX or other exports are left out) are downloaded into a staging directory beside the destination,
which is renamed onto it once complete (``atomic_directory``): one copy of the weights, never a second one through the
hub cache. ``SOURCE.json`` records the name, the revision asked for, the commit and the sha256 of every file.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..atomic import atomic_directory
from ..errors import ModelUnavailableError
from .models import COMMIT, MINILM, MINILM_PACKAGE, MODEL_FILE_PATTERNS, is_hub_name, snapshot_model, split_revision, write_source_record

# A causal LM's files: the model files but PyTorch pickles, which a repository that has safetensors holds as a second
# copy of the same weights (tens of GB for a large LLM)
LLM_FILE_PATTERNS = tuple(pattern for pattern in MODEL_FILE_PATTERNS if not pattern.startswith("pytorch_model"))
WEIGHT_PATTERNS = ("*.safetensors", "pytorch_model*.bin")
HUB_METADATA = ".cache"  # what huggingface_hub keeps in a download folder (locks, partial files, file metadata)


def hub_unavailable(name: str, revision: str | None, exc: BaseException) -> ModelUnavailableError:
    """The one error for a hub model this machine cannot download (no network, offline mode, unknown name or revision)."""
    offline = os.environ.get("HF_HUB_OFFLINE") == "1"
    pinned = f"{name}@{revision}" if revision else name
    return ModelUnavailableError(
        f"model '{pinned}' is not a local directory and could not be loaded from the Hugging Face hub"
        f"{' (HF_HUB_OFFLINE=1)' if offline else ''}: {type(exc).__name__}. "
        f"Download it on a machine with network (hf download {name}{f' --revision {revision}' if revision else ''} "
        f"--local-dir <directory>) and set the model's config entry to that directory, "
        f"or use '{MINILM}', which ships with the package {MINILM_PACKAGE}."
    )


def resolve_commit(name: str, revision: str | None) -> str:
    """The commit a hub revision (default ``main``) points to now; a commit is its own."""
    if revision and COMMIT.fullmatch(revision):
        return revision
    from huggingface_hub import HfApi

    return HfApi().model_info(name, revision=revision).sha


def download_hub_model(name: str, destination: str | os.PathLike, patterns: tuple[str, ...] = MODEL_FILE_PATTERNS) -> Path:
    """The top-level files of hub model ``name`` (``repo[@revision]``) that match ``patterns``, downloaded straight into
    ``destination`` (atomically), with ``SOURCE.json``: name, source, revision, resolved commit and each file's sha256."""
    from huggingface_hub import snapshot_download

    repo, revision = split_revision(name)
    destination = Path(destination)
    with atomic_directory(destination) as tmp:
        try:
            commit = resolve_commit(repo, revision)
            snapshot_download(repo_id=repo, revision=commit, local_dir=tmp, allow_patterns=list(patterns), ignore_patterns=["*/*"])
        except Exception as exc:  # hub errors have many classes; all mean "not available here"
            raise hub_unavailable(repo, revision, exc) from None
        shutil.rmtree(tmp / HUB_METADATA, ignore_errors=True)
        if not (tmp / "config.json").is_file() or not any(any(tmp.glob(pattern)) for pattern in WEIGHT_PATTERNS if pattern in patterns):
            raise ModelUnavailableError(
                f"model '{name}' (commit {commit}) has no config.json or no weights among {', '.join(patterns)}: "
                "save it as safetensors (save_pretrained) on a machine with network and set the model's "
                "config entry to that directory"
            )
        write_source_record(tmp, {"name": repo, "source": "Hugging Face hub", "revision": revision or "main", "commit": commit})
    return destination


def save_model(name: str, destination: str | os.PathLike) -> Path:
    """A model of ``models`` into ``destination`` (rule fetch_model): a hub name downloaded, MiniLM's package or a local
    directory copied (``snapshot_model``)."""
    return download_hub_model(name, destination) if is_hub_name(name) else snapshot_model(name, destination)
