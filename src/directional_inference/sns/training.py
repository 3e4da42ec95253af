"""Fine-tuning S&S as the authors did, resumable after a kill.

AdamW (eps 1e-8, no decay on biases and LayerNorm weights), linear schedule without warm-up over
``(n // batch) // accumulation * epochs`` steps (the authors' count; later steps run at learning rate 0), gradient
clipping at 1.0, gradient accumulation. The batch order of epoch e comes from ``seed + e``, so a resumed run sees
the same batches as an uninterrupted one.

Dev is scored ``evaluations_per_epoch`` times per epoch (every ``batches // k`` batches, as PyTorch-Lightning's
``val_check_interval = 1 / k`` in the authors' code) and the weights with the best dev AUC over precision >=
``selection_floor`` (their ``AUCHALF``) are the result, not the last ones. With ``patience`` set, training stops once
that many evaluations in a row have not improved on the best by more than ``min_delta`` (early stopping; ``epochs`` is
then the maximum). The training record says where it stopped and why; a run that ran out of epochs while its last
evaluation still improved on the best by more than ``min_delta`` is logged as possibly undertrained.

A checkpoint holds the one resumable state of a trial: the weights, the optimiser, the schedule, the random state and
the best point so far. It is written at an evaluation, every ``checkpoint_every`` optimiser steps or at an epoch's end,
but at most once per ``CHECKPOINT_INTERVAL_S`` of training (a large model's state is about four times its weights:
writing it at every evaluation of a paper run is terabytes), and removed when the trial ends. It is resumed only when
its signature matches: the hyper-parameters, the settings, a hash of the training and dev data and of the base model's
files. The settings hold the job's CPU threads (``threads``): CPU sums depend on them, so a trial resumed under another
thread count (``training.threads: auto`` under another ``--cores``) trains afresh rather than mixing two counts' sums,
and the record names the count its results hold for.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from ..atomic import atomic_directory, atomic_file, write_text_atomic
from ..levyholt.entries import Entry
from ..progress import ProgressLog
from .epochs import shown_epoch
from .model import PromptScorer

log = logging.getLogger(__name__)
CHECKPOINT_INTERVAL_S = 300  # at most one checkpoint per this many seconds of training


@dataclass(frozen=True)
class Hyperparameters:
    """One trial of the search (paper, §3: 100 log-uniform draws, the same for every subset)."""

    trial: int
    learning_rate: float
    weight_decay: float
    grad_accumulation: int


# what a training record older than training.dropout_masks did: its masks were drawn a pass
DROPOUT_MASKS_BEFORE_THE_KEY = "pass"


@dataclass(frozen=True)
class TrainingSettings:
    epochs: int
    batch_size: int
    max_length: int
    seed: int
    symmetric: bool
    lang: str = "en"
    evaluations_per_epoch: int = 1
    accumulation_factor: float = 1.0  # the trial's accumulation is floor(factor x steps) (the authors' large models)
    precision: str = "fp32"  # fp32, bf16 or auto (compute.resolve_precision); the record keeps the resolved one
    patience: int | None = None  # evaluations without a better dev AUC before training stops (None: run every epoch)
    min_delta: float = 0.0  # a dev AUC gain that counts as an improvement for patience and "still improving"
    checkpoint_every: int = 50  # optimiser steps between resumable checkpoints
    threads: int = 1  # the job's torch intra-op threads (compute.set_threads): CPU results are those of this count
    dropout_masks: str = "reference"  # a CPU batch's dropout masks: drawn a pass, or those of its reference passes (sns.dropout_masks)

    def accumulation(self, hp: Hyperparameters) -> int:
        return max(1, math.floor(self.accumulation_factor * hp.grad_accumulation))


def model_batching(batching: Mapping, alias: str, symmetric: bool, batch_size: int) -> tuple[int, float]:
    """Batch size and accumulation factor of the model ``alias`` (``training.model_batching``; 'S&S: its ``symmetric_``
    values): the authors' large models take smaller batches and floor(factor x steps) accumulation, the others
    ``batch_size`` and factor 1."""
    entry = batching.get(alias, {})
    prefix = "symmetric_" if symmetric else ""
    return entry.get(f"{prefix}batch_size", batch_size), entry.get(f"{prefix}accumulation_factor", 1.0)


@dataclass
class TrainingResult:
    """The best dev point of a run: its dev scores, where it was, and every evaluation."""

    scorer: PromptScorer
    dev_scores: np.ndarray
    best: dict
    evaluations: list[dict] = field(default_factory=list)
    record: dict = field(default_factory=dict)  # training.json: settings, data, where it stopped and why

    @property
    def best_is_last(self) -> bool:
        return self.record.get("best_is_last", False)

    @property
    def still_improving(self) -> bool:
        return self.record.get("still_improving", False)


def last_improvement(evaluations: Sequence[dict], min_delta: float) -> int:
    """Index of the last evaluation whose dev AUC beat every earlier one by more than ``min_delta`` (the first counts)."""
    found, best = 0, float("-inf")
    for index, point in enumerate(evaluations):
        if point["dev_auc_selection"] > best + min_delta:
            found = index
        best = max(best, point["dev_auc_selection"])
    return found


def fingerprint(entries: Sequence[Entry]) -> str:
    """sha256 of the pairs and labels, in order."""
    digest = hashlib.sha256()
    for entry in entries:
        digest.update(json.dumps([entry.premise, entry.hypothesis, entry.label], ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()


def model_fingerprint(model_dir: str | os.PathLike) -> str:
    """sha256 over the names and contents of the base model's files."""
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(model_dir).iterdir() if p.is_file()):
        digest.update(path.name.encode("utf-8"))
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _optimizer(model, hp: Hyperparameters):
    import torch

    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)], "weight_decay": hp.weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)], "weight_decay": 0.0},
    ]
    # fused: one kernel for the whole update (the foreach step was 15% of a MiniLM batch in bf16 on a CPU, fused 3%:
    # benchmarks/sns_throughput.py); the same AdamW, the sums in another order
    fused = next(model.parameters()).device.type in ("cpu", "cuda")
    return torch.optim.AdamW(groups, lr=hp.learning_rate, eps=1e-8, **({"fused": True} if fused else {"foreach": True}))


def resumable(saved_signature: str, signature: dict) -> bool:
    """Whether a checkpoint saved under ``saved_signature`` continues the run of ``signature``: the same
    hyper-parameters, settings (threads included), data and base model."""
    return saved_signature == json.dumps(signature, sort_keys=True)


def schedule_steps(n_train: int, batch_size: int, accumulation: int, epochs: int) -> int:
    """Length of the linear schedule as the authors' code computes it: (n // batch) // accumulation * epochs."""
    return max((n_train // batch_size) // accumulation * epochs, 1)


def train_prompt_model(
    model_dir: str | os.PathLike,
    train: Sequence[Entry],
    dev: Sequence[Entry],
    hp: Hyperparameters,
    settings: TrainingSettings,
    output_dir: str | os.PathLike,
    checkpoint_dir: str | os.PathLike,
    *,
    selection_floor: float = 0.51,
) -> TrainingResult:
    """Fine-tune S&S on ``train``, keep the best dev point, write its weights to ``output_dir`` (see module docstring)."""
    import torch
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(settings.seed)
    scorer = PromptScorer(
        model_dir,
        max_length=settings.max_length,
        symmetric=settings.symmetric,
        lang=settings.lang,
        precision=settings.precision,
        dropout_masks=settings.dropout_masks,
    )
    # the resolved format and dropout masks: a checkpoint resumes only in them
    settings = replace(settings, precision=scorer.precision, dropout_masks=scorer.dropout_masks)
    train_pairs, dev_pairs = scorer.encode(train), scorer.encode(dev)
    accumulation = settings.accumulation(hp)
    optimizer = _optimizer(scorer.model, hp)
    steps = schedule_steps(len(train), settings.batch_size, accumulation, settings.epochs)
    signature = {
        "hp": asdict(hp),
        "settings": asdict(settings),
        "selection_floor": selection_floor,
        "train": fingerprint(train),
        "dev": fingerprint(dev),
        "model": model_fingerprint(model_dir),
    }
    trial = _Trial(
        scorer,
        settings,
        optimizer,
        get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=steps),
        Path(checkpoint_dir) / "state.pt",
        signature,
        dev_pairs,
        np.array([e.label for e in dev], dtype=bool),
        selection_floor,
    )
    trial.resume()
    if not trial.usable_dev:
        log.warning("dev has %d entries, %d positive: no dev AUC can be computed, the last point is kept", len(dev), int(trial.dev_labels.sum()))
    batches_per_epoch = math.ceil(len(train) / settings.batch_size)
    trial.run_epochs(train_pairs, accumulation, batches_per_epoch)
    if trial.state["best"] is None:  # no evaluation point (fewer batches than evaluations): the last weights
        trial.evaluate(settings.epochs - 1, batches_per_epoch)
    return trial.save_best(output_dir, len(train), len(dev))


@dataclass
class _Trial:
    """One trial's training in progress: what its loop, its dev evaluations and its checkpoints share. ``state`` is what
    a checkpoint keeps beside the weights, the optimiser and the schedule: where the loop is, every dev evaluation, the
    best point (its dev scores and weights) and why training stopped."""

    scorer: PromptScorer
    settings: TrainingSettings
    optimizer: object
    scheduler: object
    checkpoint: Path
    signature: dict
    dev_pairs: list
    dev_labels: np.ndarray
    selection_floor: float
    state: dict = field(default_factory=lambda: {"epoch": 0, "next_batch": 0, "steps": 0, "best": None, "evaluations": [], "stop_reason": None})

    @property
    def usable_dev(self) -> bool:
        return bool(self.dev_labels.any() and not self.dev_labels.all())

    def resume(self) -> None:
        """Continue from the checkpoint where one of this very run (signature) was saved."""
        import torch

        if not self.checkpoint.is_file():
            return
        saved = torch.load(self.checkpoint, weights_only=True)
        if not resumable(saved["signature"], self.signature):
            log.info("checkpoint %s belongs to another run (data, model or settings differ): starting afresh", self.checkpoint)
            return
        self.scorer.model.load_state_dict(saved["model"])
        self.optimizer.load_state_dict(saved["optimizer"])
        self.scheduler.load_state_dict(saved["scheduler"])
        torch.set_rng_state(saved["torch_rng"])
        if "cuda_rng" in saved and torch.cuda.is_available():  # dropout on a GPU draws from the CUDA generators
            torch.cuda.set_rng_state_all(list(saved["cuda_rng"]))
        self.state = {key: saved[key] for key in ("epoch", "next_batch", "steps", "evaluations", "stop_reason")}
        self.state["best"] = saved["best"]
        log.info("resumed from %s at %s, batch %d", self.checkpoint, shown_epoch(self.state["epoch"], self.settings.epochs), self.state["next_batch"])

    def evaluate(self, epoch: int, batch: int) -> None:
        """Score dev, record the point, and keep it (its scores and weights) when its dev AUC is the best so far."""
        import torch

        from ..metrics import evaluate_scores

        state = self.state
        scores = self.scorer.scores(self.dev_pairs, what="dev evaluation")
        nan = float("nan")
        floor = self.selection_floor
        metrics = evaluate_scores(scores, self.dev_labels, selection_floor=floor) if self.usable_dev else {"auc_selection": nan, "auc_norm": nan}
        point = {
            "epoch": epoch,
            "batch": batch,
            "step": state["steps"],
            "dev_auc_selection": metrics["auc_selection"],
            "dev_auc_norm": metrics["auc_norm"],
        }
        state["evaluations"].append(point)
        if state["best"] is None or not self.usable_dev or metrics["auc_selection"] > state["best"]["point"]["dev_auc_selection"]:
            weights = {k: v.detach().clone().cpu() for k, v in self.scorer.model.state_dict().items()}
            state["best"] = {"point": point, "dev_scores": torch.tensor(scores), "model": weights}
        best = state["best"]["point"]
        log.info(
            "dev evaluation at %s, batch %d: AUC(p>=%.2f) %.4f, AUCnorm %.4f (best so far: %s, batch %d)",
            shown_epoch(epoch, self.settings.epochs),
            batch,
            floor,
            metrics["auc_selection"],
            metrics["auc_norm"],
            shown_epoch(best["epoch"]),
            best["batch"],
        )

    def patience_exhausted(self) -> bool:
        """Whether training stops early: no better dev AUC in ``patience`` evaluations (the reason kept in the state)."""
        settings, state = self.settings, self.state
        if not (settings.patience and self.usable_dev and state["best"] is not None):
            return False
        since = len(state["evaluations"]) - 1 - last_improvement(state["evaluations"], settings.min_delta)
        if since >= settings.patience:
            gain = f" by more than {settings.min_delta:g}" if settings.min_delta else ""
            state["stop_reason"] = f"patience: no better dev AUC{gain} in {since} evaluations"
        return state["stop_reason"] is not None

    def run_epochs(self, train_pairs: list, accumulation: int, batches_per_epoch: int) -> None:
        """Train from where the state is to the last epoch or an early stop: each epoch in its own seeded order,
        gradients accumulated over ``accumulation`` batches, dev evaluated ``evaluations_per_epoch`` times an epoch."""
        import torch

        settings, state, model = self.settings, self.state, self.scorer.model
        check_every = max(batches_per_epoch // max(settings.evaluations_per_epoch, 1), 1)
        last_saved = time.monotonic()  # a run shorter than the interval writes no checkpoint
        progress = ProgressLog("training", batches_per_epoch * settings.epochs, "batches")
        progress.done = state["epoch"] * batches_per_epoch + state["next_batch"]
        model.train()
        while state["epoch"] < settings.epochs and not self.patience_exhausted():
            epoch = state["epoch"]
            order = list(range(len(train_pairs)))
            random.Random(settings.seed + epoch).shuffle(order)
            for batch_index in range(state["next_batch"], batches_per_epoch):
                batch = [train_pairs[i] for i in order[batch_index * settings.batch_size : (batch_index + 1) * settings.batch_size]]
                loss = self.scorer.loss(batch) / accumulation
                loss.backward()
                if (batch_index + 1) % accumulation == 0 or batch_index + 1 == batches_per_epoch:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                    self.optimizer.step()
                    self.scheduler.step()
                    self.optimizer.zero_grad()
                    state["steps"] += 1
                if batch_index == 0:
                    log.info(
                        "%s batch %d/%d loss %.4f", shown_epoch(epoch, settings.epochs), batch_index, batches_per_epoch, loss.item() * accumulation
                    )
                progress.advance()
                state["next_batch"] = batch_index + 1
                evaluated = (batch_index + 1) % check_every == 0 and (batch_index + 1) // check_every <= settings.evaluations_per_epoch
                if evaluated:
                    self.evaluate(epoch, batch_index + 1)
                # a checkpoint only between optimiser steps (accumulated gradients are not saved), at most once an interval
                if (batch_index + 1) % accumulation == 0 and (evaluated or state["steps"] % settings.checkpoint_every == 0):
                    last_saved = self.save_when_due(last_saved)
                if evaluated and self.patience_exhausted():
                    log.info("early stop at %s, batch %d: %s", shown_epoch(epoch, settings.epochs), batch_index + 1, state["stop_reason"])
                    break
            else:
                state["epoch"], state["next_batch"] = epoch + 1, 0
                last_saved = self.save_when_due(last_saved)
        progress.finish()

    def save_when_due(self, last_saved: float) -> float:
        """Write the checkpoint if ``CHECKPOINT_INTERVAL_S`` has passed since ``last_saved``; return the time of the last write."""
        if time.monotonic() - last_saved < CHECKPOINT_INTERVAL_S:
            return last_saved
        _save_checkpoint(self.checkpoint, self.signature, self.scorer.model, self.optimizer, self.scheduler, self.state)
        return time.monotonic()

    def save_best(self, output_dir: str | os.PathLike, n_train: int, n_dev: int) -> TrainingResult:
        """Write the best point's weights, tokenizer and training record to ``output_dir``; the checkpoint goes."""
        settings, state, scorer = self.settings, self.state, self.scorer
        best = state["best"]
        record = training_record(self.signature, state, self.usable_dev, settings, scorer.precision_reason, n_train, n_dev)
        if record["still_improving"]:
            log.warning(
                "POSSIBLY UNDERTRAINED: the last dev evaluation (%s, batch %d) still improved on the best by more than %g "
                "(%s); more epochs may improve it",
                shown_epoch(best["point"]["epoch"], settings.epochs),
                best["point"]["batch"],
                settings.min_delta,
                record["stop_reason"],
            )
        scorer.model.load_state_dict(best["model"])
        with atomic_directory(output_dir) as tmp:
            scorer.model.save_pretrained(tmp)
            scorer.tokenizer.save_pretrained(tmp)
            write_training_record(tmp / "training.json", record)
        self.checkpoint.unlink(missing_ok=True)
        return TrainingResult(scorer, best["dev_scores"].numpy(), best["point"], list(state["evaluations"]), record)


def training_record(
    signature: dict, state: dict, usable_dev: bool, settings: TrainingSettings, precision_reason: str, n_train: int, n_dev: int
) -> dict:
    """What a trained model's ``training.json`` says: its signature (settings, hyper-parameters, data and model hashes),
    the data sizes, the number format and why, the best dev point, the point where training stopped and why."""
    evaluations = state["evaluations"]
    if state["stop_reason"]:
        reason = state["stop_reason"]
    elif not usable_dev:
        reason = "no dev AUC (one class only); the last point kept"
    else:
        reason = f"maximum of {settings.epochs} epochs"
    best_is_last = state["best"]["point"] == evaluations[-1]
    still_improving = (
        usable_dev and not state["stop_reason"] and best_is_last and last_improvement(evaluations, settings.min_delta) == len(evaluations) - 1
    )
    return {
        **signature,
        "best": state["best"]["point"],
        "stopped": evaluations[-1],
        "stop_reason": reason,
        "best_is_last": best_is_last,
        "still_improving": bool(still_improving),
        "evaluations": len(evaluations),
        "train_pairs": n_train,
        "dev_pairs": n_dev,
        "precision": settings.precision,
        "precision_reason": precision_reason,
    }


def write_training_record(path: str | os.PathLike, record: dict) -> None:
    """A trained model's ``training.json`` (in its weight directory, and beside them as the trial's own record)."""
    write_text_atomic(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def _save_checkpoint(path: Path, signature: dict, model, optimizer, scheduler, state: dict) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    saved = {
        "signature": json.dumps(signature, sort_keys=True),
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "torch_rng": torch.get_rng_state(),
        **state,
    }
    if torch.cuda.is_available():  # a GPU's dropout masks come from its own generators: resumed, they continue alike
        saved["cuda_rng"] = torch.cuda.get_rng_state_all()
    with atomic_file(path) as tmp:
        torch.save(saved, tmp)
