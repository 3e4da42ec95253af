"""The S&S prompt classifier (Schmitt & Schütze 2021) with the authors' bug-fixed prompts.

Each premise/hypothesis pair becomes prompt sentences: the 3 directional prompts (the premise entails the
hypothesis) and the 5 antiprompts. A sequence classifier with 2 labels reads every sentence on its own.

* loss = mean cross-entropy of the prompts against the label + mean cross-entropy of the antiprompts
  against the flipped label;
* score = max over prompts of P(1) - max over antiprompts of P(1), in (-1, 1);
* the symmetric variant ('S&S, paper Table 2) adds every prompt and antiprompt with premise and hypothesis
  swapped, which makes the model symmetric by construction.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .atomic import atomic_directory, atomic_file, write_text_atomic
from .errors import InputFormatError
from .levyholt import Entry, Triple

log = logging.getLogger(__name__)

PROMPTS = (
    "{pal} {prem} {par}, which means that {hal} {hypo} {har}.",
    "It is not the case that {hal} {hypo} {har}, let alone that {pal} {prem} {par}.",
    "{hal} {hypo} {har} because {pal} {prem} {par}.",
)
ANTIPROMPTS = (
    "It is not sure that {hal} {hypo} {har} just because {pal} {prem} {par}.",
    "{pal} {prem} {par}. This does not mean that {hal} {hypo} {har}.",
    "The fact that {pal} {prem} {par} does not necessarily mean that {hal} {hypo} {har}.",
    "Even if {pal} {prem} {par}, {hal} maybe {hypo} {har}.",
    "Just because {pal} {prem} {par}, it might still not be true that {hal} {hypo} {har}.",
)
VARIANTS = ("sns", "sns_sym", "hyponly")  # S&S, 'S&S (symmetric prompts), hypothesis-only S&S


def _fill(template: str, premise: Triple, hypothesis: Triple) -> str:
    pal, prem, par = premise
    hal, hypo, har = hypothesis
    return template.format(pal=pal, prem=prem, par=par, hal=hal, hypo=hypo, har=har)


def prompt_sentences(premise: Triple, hypothesis: Triple, *, symmetric: bool) -> tuple[list[str], list[str]]:
    """(prompt sentences, antiprompt sentences) of one pair; the symmetric variant adds the swapped pair."""
    directions = [(premise, hypothesis), (hypothesis, premise)] if symmetric else [(premise, hypothesis)]
    prompts = [_fill(t, p, h) for p, h in directions for t in PROMPTS]
    antiprompts = [_fill(t, p, h) for p, h in directions for t in ANTIPROMPTS]
    return prompts, antiprompts


@dataclass(frozen=True)
class Hyperparameters:
    """One trial of the search (paper, §3: 100 log-uniform draws, the same for every subset)."""

    trial: int
    learning_rate: float
    weight_decay: float
    grad_accumulation: int


def draw_trials(count: int, seed: int, lr_range: Sequence[float], wd_range: Sequence[float], accumulation_range: Sequence[int]) -> list[Hyperparameters]:
    """``count`` trials from one seeded generator; trial k is the same whatever ``count`` is."""
    rng = random.Random(seed)
    trials = []
    for k in range(count):
        lr = math.exp(rng.uniform(math.log(lr_range[0]), math.log(lr_range[1])))
        wd = math.exp(rng.uniform(math.log(wd_range[0]), math.log(wd_range[1])))
        steps = rng.randint(accumulation_range[0], accumulation_range[1])
        trials.append(Hyperparameters(k, float(f"{lr:.6g}"), float(f"{wd:.6g}"), steps))
    return trials


@dataclass(frozen=True)
class TrainingSettings:
    epochs: int
    batch_size: int
    max_length: int
    seed: int
    symmetric: bool
    threads: int = 1
    checkpoint_every: int = 50  # optimiser steps between resumable checkpoints


class PromptScorer:
    """A sequence classifier over prompt sentences: loss and score of batches of pairs."""

    def __init__(self, model_dir: str | os.PathLike, *, max_length: int, symmetric: bool):
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=2).to(self.device)
        self.max_length, self.symmetric = max_length, symmetric

    def _logits(self, sentences: list[str]):
        batch = self.tokenizer(sentences, truncation=True, max_length=self.max_length, padding=True, return_tensors="pt")
        return self.model(**batch.to(self.device)).logits

    def _split(self, entries: Sequence[Entry]):
        prompts, antiprompts = [], []
        for entry in entries:
            p, a = prompt_sentences(entry.premise, entry.hypothesis, symmetric=self.symmetric)
            prompts.append(p)
            antiprompts.append(a)
        return prompts, antiprompts

    def loss(self, entries: Sequence[Entry]):
        """Mean CE of prompts against the labels + mean CE of antiprompts against the flipped labels."""
        torch = self.torch
        prompts, antiprompts = self._split(entries)
        n_p, n_a = len(prompts[0]), len(antiprompts[0])
        logits = self._logits([s for group in prompts for s in group] + [s for group in antiprompts for s in group])
        labels = torch.tensor([int(e.label) for e in entries], device=self.device)
        split = len(entries) * n_p
        loss_p = torch.nn.functional.cross_entropy(logits[:split], labels.repeat_interleave(n_p))
        loss_a = torch.nn.functional.cross_entropy(logits[split:], (1 - labels).repeat_interleave(n_a))
        return loss_p + loss_a

    def scores(self, entries: Sequence[Entry], batch_size: int = 32) -> np.ndarray:
        """max P(1 | prompts) - max P(1 | antiprompts) for every entry, in order."""
        torch = self.torch
        self.model.eval()
        out = np.empty(len(entries), dtype=np.float64)
        with torch.inference_mode():
            for start in range(0, len(entries), batch_size):
                chunk = entries[start : start + batch_size]
                prompts, antiprompts = self._split(chunk)
                n_p, n_a = len(prompts[0]), len(antiprompts[0])
                logits = self._logits([s for g in prompts for s in g] + [s for g in antiprompts for s in g])
                p1 = torch.softmax(logits.double(), dim=-1)[:, 1]
                split = len(chunk) * n_p
                best_p = p1[:split].view(len(chunk), n_p).max(dim=1).values
                best_a = p1[split:].view(len(chunk), n_a).max(dim=1).values
                out[start : start + len(chunk)] = (best_p - best_a).cpu().numpy()
        return out


def _optimizer(model, hp: Hyperparameters):
    import torch

    no_decay = ("bias", "LayerNorm.weight", "layer_norm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not any(k in n for k in no_decay)], "weight_decay": hp.weight_decay},
        {"params": [p for n, p in model.named_parameters() if any(k in n for k in no_decay)], "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=hp.learning_rate, eps=1e-8)


def train_prompt_model(
    model_dir: str | os.PathLike,
    train: Sequence[Entry],
    hp: Hyperparameters,
    settings: TrainingSettings,
    output_dir: str | os.PathLike,
    checkpoint_dir: str | os.PathLike,
) -> PromptScorer:
    """Fine-tune S&S on ``train``; resumable from ``checkpoint_dir`` (kept outside the declared outputs).

    AdamW (eps 1e-8, no decay on biases and LayerNorm weights), linear schedule without warm-up, gradient
    clipping at 1.0, gradient accumulation ``hp.grad_accumulation``; the batch order of epoch e comes from
    ``seed + e``, so a resumed run sees the same batches as an uninterrupted one.
    """
    import torch
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(settings.seed)
    torch.set_num_threads(max(settings.threads, 1))
    scorer = PromptScorer(model_dir, max_length=settings.max_length, symmetric=settings.symmetric)
    model = scorer.model
    optimizer = _optimizer(model, hp)
    batches_per_epoch = math.ceil(len(train) / settings.batch_size)
    total_steps = max(batches_per_epoch // hp.grad_accumulation, 1) * settings.epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=total_steps)
    checkpoint = Path(checkpoint_dir) / "state.pt"
    signature = {"hp": asdict(hp), "settings": asdict(settings), "n_train": len(train)}
    epoch, next_batch = 0, 0
    if checkpoint.is_file():
        state = torch.load(checkpoint, weights_only=False)
        if state["signature"] == signature:
            model.load_state_dict(state["model"])
            optimizer.load_state_dict(state["optimizer"])
            scheduler.load_state_dict(state["scheduler"])
            torch.set_rng_state(state["torch_rng"])
            epoch, next_batch = state["epoch"], state["next_batch"]
            log.info("resumed from %s at epoch %d, batch %d", checkpoint, epoch, next_batch)
    steps_done = 0
    while epoch < settings.epochs:
        order = list(range(len(train)))
        random.Random(settings.seed + epoch).shuffle(order)
        model.train()
        for batch_index in range(next_batch, batches_per_epoch):
            batch = [train[i] for i in order[batch_index * settings.batch_size : (batch_index + 1) * settings.batch_size]]
            loss = scorer.loss(batch) / hp.grad_accumulation
            loss.backward()
            if (batch_index + 1) % hp.grad_accumulation == 0 or batch_index + 1 == batches_per_epoch:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                steps_done += 1
                if steps_done % settings.checkpoint_every == 0:
                    _save_checkpoint(checkpoint, signature, model, optimizer, scheduler, epoch, batch_index + 1)
            if batch_index % 20 == 0:
                log.info("epoch %d batch %d/%d loss %.4f", epoch, batch_index, batches_per_epoch, loss.item() * hp.grad_accumulation)
        epoch, next_batch = epoch + 1, 0
        _save_checkpoint(checkpoint, signature, model, optimizer, scheduler, epoch, 0)
    with atomic_directory(output_dir) as tmp:
        model.save_pretrained(tmp)
        scorer.tokenizer.save_pretrained(tmp)
        (tmp / "hyperparameters.json").write_text(json.dumps(signature, indent=1, sort_keys=True) + "\n")
    checkpoint.unlink(missing_ok=True)
    return scorer


def _save_checkpoint(path: Path, signature, model, optimizer, scheduler, epoch: int, next_batch: int) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    state = {
        "signature": signature,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "torch_rng": torch.get_rng_state(),
        "epoch": epoch,
        "next_batch": next_batch,
    }
    with atomic_file(path) as tmp:
        torch.save(state, tmp)


TRIAL_COLUMNS = ("trial", "learning_rate", "weight_decay", "grad_accumulation")


def write_trials(path: str | os.PathLike, trials: Sequence[Hyperparameters]) -> None:
    lines = [",".join(TRIAL_COLUMNS)] + [f"{t.trial},{t.learning_rate!r},{t.weight_decay!r},{t.grad_accumulation}" for t in trials]
    write_text_atomic(path, "\n".join(lines) + "\n")


def read_trials(path: str | os.PathLike) -> list[Hyperparameters]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if tuple(lines[0].split(",")) != TRIAL_COLUMNS:
        raise InputFormatError(str(path), 1, None, f"expected header {','.join(TRIAL_COLUMNS)}")
    trials = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        try:
            trials.append(Hyperparameters(int(fields[0]), float(fields[1]), float(fields[2]), int(fields[3])))
        except (ValueError, IndexError):
            raise InputFormatError(str(path), number, None, f"not a trial line: {line!r}") from None
    return trials


def select_best_trial(
    trials: Sequence[Hyperparameters],
    dev_score_files: Sequence[str],
    weight_dirs: Sequence[str],
    floor: float,
    selection_csv: str | os.PathLike,
    best_dir: str | os.PathLike,
) -> int:
    """Pick the trial with the highest dev AUC over precision >= ``floor`` (ties: the lower trial number).

    Writes ``selection_csv`` (every trial's hyper-parameters and dev metrics, the chosen one marked) and copies
    the chosen weights to ``best_dir``; returns the chosen trial number.
    """
    import shutil

    import pandas as pd

    from .metrics import evaluate_scores

    rows = []
    for trial, scores_file in zip(trials, dev_score_files):
        frame = pd.read_parquet(scores_file)
        metrics = evaluate_scores(frame["score"].to_numpy(), frame["label"].to_numpy(), selection_floor=floor)
        rows.append((trial, metrics))
    best = max(range(len(rows)), key=lambda i: (rows[i][1]["auc_selection"], -rows[i][0].trial))
    lines = ["trial,learning_rate,weight_decay,grad_accumulation,dev_auc_selection,dev_auc50,dev_auc_norm,dev_best_f1,selected"]
    for index, (t, m) in enumerate(rows):
        lines.append(f"{t.trial},{t.learning_rate!r},{t.weight_decay!r},{t.grad_accumulation},{m['auc_selection']:.6f},"
                     f"{m['auc50']:.6f},{m['auc_norm']:.6f},{m['best_f1']:.6f},{int(index == best)}")
    with atomic_directory(best_dir) as tmp:
        for path in sorted(Path(weight_dirs[best]).iterdir()):
            shutil.copyfile(path, tmp / path.name)
    write_text_atomic(selection_csv, "\n".join(lines) + "\n")
    log.info("selected trial %d of %d", rows[best][0].trial, len(rows))
    return rows[best][0].trial
