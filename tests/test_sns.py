"""S&S prompts, loss, score, hyper-parameter draws, training resume and model selection (tiny offline model)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch

from directional_inference import sns
from directional_inference.levyholt import Entry
from directional_inference.levyholt_tables import write_scores
from directional_inference.models import build_tiny_model
from directional_inference.sns import (
    Hyperparameters,
    PromptScorer,
    TrainingSettings,
    draw_trials,
    prompt_sentences,
    read_trials,
    select_best_trial,
    train_prompt_model,
    write_trials,
)

PAIRS = [
    (("John", "shopped in", "IKEA"), ("John", "went to", "IKEA"), True),
    (("John", "went to", "IKEA"), ("John", "shopped in", "IKEA"), False),
    (("Mary", "bought", "shares"), ("Mary", "owns", "shares"), True),
    (("Mary", "owns", "shares"), ("Mary", "bought", "shares"), False),
] * 6
ENTRIES = [Entry(p, h, label, "g", i) for i, (p, h, label) in enumerate(PAIRS)]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    texts = [" ".join(p) + " " + " ".join(h) for p, h, _ in PAIRS] + [s for e in ENTRIES for g in prompt_sentences(e.premise, e.hypothesis, symmetric=True) for s in g]
    return build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 300}, texts, tmp_path_factory.mktemp("m") / "tiny", seed=3)


def test_prompts_are_the_authors_bug_fixed_set():
    prompts, antiprompts = prompt_sentences(("John", "shopped in", "IKEA"), ("John", "went to", "IKEA"), symmetric=False)
    assert prompts == [
        "John shopped in IKEA, which means that John went to IKEA.",
        "It is not the case that John went to IKEA, let alone that John shopped in IKEA.",
        "John went to IKEA because John shopped in IKEA.",
    ]
    assert len(antiprompts) == 5 and antiprompts[3] == "Even if John shopped in IKEA, John maybe went to IKEA."
    both, anti_both = prompt_sentences(("John", "shopped in", "IKEA"), ("John", "went to", "IKEA"), symmetric=True)
    assert len(both) == 6 and len(anti_both) == 10 and both[3] == "John went to IKEA, which means that John shopped in IKEA."
    masked, _ = prompt_sentences(("true", "", ""), ("John", "went to", "IKEA"), symmetric=False)
    assert masked[0] == "true  , which means that John went to IKEA."  # the authors' unnormalised form


def test_trials_are_seeded_log_uniform_and_prefix_stable(tmp_path):
    trials = draw_trials(200, 47110815, [1e-8, 5e-2], [1e-5, 1e-1], [1, 17])
    assert trials[:3] == draw_trials(3, 47110815, [1e-8, 5e-2], [1e-5, 1e-1], [1, 17])
    lrs = np.log10([t.learning_rate for t in trials])
    assert lrs.min() >= -8 and lrs.max() <= math.log10(5e-2) and abs(np.median(lrs) - (-8 + math.log10(5e-2)) / 2) < 0.7
    assert {t.grad_accumulation for t in trials} == set(range(1, 18))
    write_trials(tmp_path / "t.csv", trials[:5])
    assert read_trials(tmp_path / "t.csv") == trials[:5]


def test_loss_uses_flipped_labels_for_antiprompts(tiny_model):
    scorer = PromptScorer(tiny_model, max_length=48, symmetric=False)
    with torch.no_grad():
        scorer.model.classifier.weight.zero_()
        scorer.model.classifier.bias.copy_(torch.tensor([0.0, 5.0]))  # every sentence: P(1) ~ 1
    # label 1: prompts right (small loss), antiprompts wrong (large loss); both terms present
    loss_true = scorer.loss([ENTRIES[0]]).item()
    expected = -math.log(torch.softmax(torch.tensor([0.0, 5.0]), 0)[1].item()) - math.log(torch.softmax(torch.tensor([0.0, 5.0]), 0)[0].item())
    assert loss_true == pytest.approx(expected, rel=1e-4)
    scores = scorer.scores(ENTRIES[:4])
    assert np.allclose(scores, 0.0, atol=1e-6)  # same P(1) for prompts and antiprompts


def test_training_learns_and_scores_in_range(tiny_model, tmp_path):
    settings = TrainingSettings(epochs=8, batch_size=4, max_length=48, seed=5, symmetric=False)
    scorer = train_prompt_model(tiny_model, ENTRIES, Hyperparameters(0, 3e-3, 0.01, 1), settings, tmp_path / "out", tmp_path / "ckpt")
    scores = scorer.scores(ENTRIES)
    assert np.all(scores > -1) and np.all(scores < 1)
    labels = np.array([e.label for e in ENTRIES])
    assert scores[labels].mean() > scores[~labels].mean()
    assert (tmp_path / "out" / "hyperparameters.json").is_file() and not (tmp_path / "ckpt" / "state.pt").exists()


def test_symmetric_variant_cannot_tell_directions_apart(tiny_model, tmp_path):
    settings = TrainingSettings(epochs=2, batch_size=4, max_length=48, seed=5, symmetric=True)
    scorer = train_prompt_model(tiny_model, ENTRIES, Hyperparameters(0, 3e-3, 0.0, 1), settings, tmp_path / "out", tmp_path / "ckpt")
    scores = scorer.scores(ENTRIES[:2])  # a pair and its converse: identical sentence sets
    assert scores[0] == pytest.approx(scores[1], abs=1e-6)


def test_killed_training_resumes_to_the_same_weights(tiny_model, tmp_path, monkeypatch):
    settings = TrainingSettings(epochs=2, batch_size=4, max_length=48, seed=9, symmetric=False, checkpoint_every=2)
    hp = Hyperparameters(0, 1e-3, 0.01, 1)
    reference = train_prompt_model(tiny_model, ENTRIES, hp, settings, tmp_path / "ref", tmp_path / "ckpt-ref")
    original = sns._save_checkpoint
    calls = {"n": 0}

    def save_then_die(*args, **kwargs):
        original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt("killed")

    monkeypatch.setattr(sns, "_save_checkpoint", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        train_prompt_model(tiny_model, ENTRIES, hp, settings, tmp_path / "run", tmp_path / "ckpt")
    assert not (tmp_path / "run").exists() and (tmp_path / "ckpt" / "state.pt").is_file()
    monkeypatch.setattr(sns, "_save_checkpoint", original)
    resumed = train_prompt_model(tiny_model, ENTRIES, hp, settings, tmp_path / "run", tmp_path / "ckpt")
    for (name, a), (_, b) in zip(reference.model.state_dict().items(), resumed.model.state_dict().items()):
        assert torch.equal(a, b), name


def test_selection_takes_the_best_dev_auc_and_records_every_trial(tmp_path):
    trials = [Hyperparameters(k, 1e-5 * (k + 1), 0.01, 1) for k in range(3)]
    dev = ENTRIES[:8]
    labels = np.array([e.label for e in dev], dtype=float)
    score_sets = [np.linspace(0, 1, 8), labels - 0.5, 0.5 - labels]  # trial 1 is perfect
    files, weights = [], []
    for k, scores in enumerate(score_sets):
        write_scores(tmp_path / f"dev{k}.parquet", dev, scores)
        (tmp_path / f"w{k}").mkdir()
        (tmp_path / f"w{k}" / "config.json").write_text(f'{{"trial": {k}}}')
        files.append(str(tmp_path / f"dev{k}.parquet"))
        weights.append(str(tmp_path / f"w{k}"))
    chosen = select_best_trial(trials, files, weights, 0.51, tmp_path / "selection.csv", tmp_path / "best")
    assert chosen == 1 and (tmp_path / "best" / "config.json").read_text() == '{"trial": 1}'
    table = pd.read_csv(tmp_path / "selection.csv")
    assert list(table["selected"]) == [0, 1, 0] and table.loc[1, "dev_auc_selection"] == pytest.approx(1.0)
