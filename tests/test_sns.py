"""S&S prompts, loss, score, hyper-parameter draws, training resume and model selection (tiny offline model)."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pandas as pd
import pytest
import torch

from directional_inference.levyholt.entries import Entry
from directional_inference.levyholt.scores import write_scores
from directional_inference.resources.models import build_tiny_model
from directional_inference.sns import training
from directional_inference.sns import model as sns_model
from directional_inference.sns.dropout_masks import ReferenceMasks
from directional_inference.sns.model import PromptScorer, least_cost_chunks
from directional_inference.sns.prompts import prompt_sentences, template_texts
from directional_inference.sns.search import draw_trials, read_trials, select_best_trial, write_evaluations, write_trials
from directional_inference.sns.training import Hyperparameters, TrainingSettings, schedule_steps, train_prompt_model

PAIRS = [
    (("John", "shopped in", "IKEA"), ("John", "went to", "IKEA"), True),
    (("John", "went to", "IKEA"), ("John", "shopped in", "IKEA"), False),
    (("Mary", "bought", "shares"), ("Mary", "owns", "shares"), True),
    (("Mary", "owns", "shares"), ("Mary", "bought", "shares"), False),
] * 6
ENTRIES = [Entry(p, h, label, "g", i) for i, (p, h, label) in enumerate(PAIRS)]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    texts = [" ".join(p) + " " + " ".join(h) for p, h, _ in PAIRS] + [
        s for e in ENTRIES for g in prompt_sentences(e.premise, e.hypothesis, symmetric=True) for s in g
    ]
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


def test_chinese_prompts_take_whole_sentences():
    prompts, antiprompts = prompt_sentences(("阿里巴巴", "收购", "网易"), ("阿里巴巴", "拥有", "网易"), symmetric=False, lang="zh")
    assert prompts == [
        "阿里巴巴收购网易，这也就是说，阿里巴巴拥有网易。",
        "阿里巴巴拥有网易是不成立的，所以阿里巴巴收购网易就更不可能了。",
        "阿里巴巴收购网易，所以阿里巴巴拥有网易",
    ]
    assert antiprompts[0] == "只因为阿里巴巴收购网易，还不能确定阿里巴巴拥有网易。" and len(antiprompts) == 5
    masked, _ = prompt_sentences(("正确", "", ""), ("阿里巴巴", "拥有", "网易"), symmetric=False, lang="zh")
    assert masked[0] == "正确，这也就是说，阿里巴巴拥有网易。"
    with pytest.raises(ValueError, match="de"):
        prompt_sentences(("a", "b", "c"), ("a", "b", "c"), symmetric=False, lang="de")


def test_schedule_and_accumulation_follow_the_authors():
    assert schedule_steps(502, 8, 2, 4) == (502 // 8) // 2 * 4 == 124  # the authors' count (later steps run at lr 0)
    assert schedule_steps(5, 8, 1, 3) == 1
    large = TrainingSettings(epochs=1, batch_size=4, max_length=48, seed=1, symmetric=False, accumulation_factor=1.5)
    assert [large.accumulation(Hyperparameters(0, 1e-5, 0.0, s)) for s in (1, 2, 3, 17)] == [1, 3, 4, 25]  # floor(1.5 s)


def test_loss_uses_flipped_labels_for_antiprompts(tiny_model):
    scorer = PromptScorer(tiny_model, max_length=48, symmetric=False)
    with torch.no_grad():
        scorer.model.classifier.weight.zero_()
        scorer.model.classifier.bias.copy_(torch.tensor([0.0, 5.0]))  # every sentence: P(1) ~ 1
    # label 1: prompts right (small loss), antiprompts wrong (large loss); both terms present
    loss_true = scorer.loss(scorer.encode([ENTRIES[0]])).item()
    expected = -math.log(torch.softmax(torch.tensor([0.0, 5.0]), 0)[1].item()) - math.log(torch.softmax(torch.tensor([0.0, 5.0]), 0)[0].item())
    assert loss_true == pytest.approx(expected, rel=1e-4)
    scores = scorer.scores(ENTRIES[:4])
    assert np.allclose(scores, 0.0, atol=1e-6)  # same P(1) for prompts and antiprompts


def test_scores_do_not_depend_on_batching_or_order(tiny_model):
    scorer = PromptScorer(tiny_model, max_length=48, symmetric=False)
    entries = ENTRIES[:6] + [Entry(("a much longer subject phrase here", "shopped in", "IKEA"), ("John", "went to", "IKEA"), True)]
    together = scorer.scores(entries, batch_size=32)
    one_by_one = np.array([scorer.scores([e], batch_size=1)[0] for e in entries])
    assert np.allclose(together, one_by_one, atol=1e-5)
    assert np.allclose(scorer.scores(entries[::-1])[::-1], together, atol=1e-5)


def test_a_batch_splits_where_a_length_step_saves_more_tokens_than_a_pass_costs():
    # [2, 2, 2, 10], a pass costing 3 tokens: one pass 3 + 4 x 10 = 43; [2, 2, 2] and [10] 3 + 6 + 3 + 10 = 22;
    # [2, 2], [2], [10] 3 + 4 + 3 + 2 + 3 + 10 = 25; so two passes
    assert least_cost_chunks([2, 2, 2, 10], 3, 4) == [(0, 3), (3, 4)]
    # a pass costing 100: one pass 140, two 222
    assert least_cost_chunks([2, 2, 2, 10], 100, 4) == [(0, 4)]
    # equal lengths and a cap of 2 a pass: the fewest passes, 3, each within the cap, covering every sentence in order
    bounds = least_cost_chunks([5] * 5, 1, 2)
    assert len(bounds) == 3 and all(0 < end - start <= 2 for start, end in bounds)
    assert [start for start, _ in bounds] == [0] + [end for _, end in bounds[:-1]] and bounds[-1][1] == 5
    assert least_cost_chunks([], 3, 4) == []


def test_the_loss_and_scores_do_not_depend_on_how_a_batch_is_chunked(tiny_model, monkeypatch):
    """One pass per batch (a GPU's cost) or a pass per length (no pass cost): the same loss and scores, within float
    noise: each sentence is read on its own."""
    entries = ENTRIES[:6] + [Entry(("a much longer subject phrase here", "shopped in", "IKEA"), ("John", "went to", "IKEA"), True)]
    results = []
    for cost in (1 << 20, 0):
        torch.manual_seed(0)
        scorer = PromptScorer(tiny_model, max_length=48, symmetric=False)
        scorer.pass_cost, scorer.max_chunk = cost, 128
        scorer.model.eval()
        pairs = scorer.encode(entries)
        sentences = [s for p in pairs for s in p.prompts + p.antiprompts]
        results.append((len(scorer.chunks(sentences)), scorer.loss(pairs).item(), scorer.scores(pairs)))
    (one, loss_one, scores_one), (many, loss_many, scores_many) = results
    assert one == 1 and many >= len({len(s) for s in sentences}) > 1
    assert abs(loss_one - loss_many) < 1e-5 and np.allclose(scores_one, scores_many, atol=1e-5)


def _train_pass(scorer, id_lists, bounds):
    """Logits, parameter gradients and the generator's state after one training forward and backward of ``id_lists``
    in the passes ``bounds`` (over the sentences in length order), from torch seed 7."""
    scorer.passes = lambda ids: (sorted(range(len(ids)), key=lambda k: (len(ids[k]), k)), bounds)
    scorer.model.train()
    scorer.model.zero_grad()
    torch.manual_seed(7)
    logits = scorer._logits(id_lists)
    logits.square().sum().backward()
    return logits.detach(), [p.grad.clone() for p in scorer.model.parameters() if p.grad is not None], torch.get_rng_state()


@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_reference_masks_are_torchs_own_at_the_reference_split_and_any_split_changes_only_rounding(tiny_model, precision):
    """dropout_masks: reference. At the reference split (passes of 32 sentences in length order) a training pass is
    that of torch's own dropout to the bit, forward and backward, and draws the generator alike; any other split,
    passes across the reference passes' bounds included, changes only rounding, where torch's own masks drawn a pass
    change the result."""
    from directional_inference.compute import set_threads

    previous = torch.get_num_threads()
    set_threads(1)  # tiny passes: one thread is the quickest, whatever else runs
    try:
        _reference_masks_at_splits(tiny_model, precision)
    finally:
        set_threads(previous)


def _gap(tensors, references) -> float:
    """The largest difference between ``tensors`` and ``references``, a share of the largest reference value."""
    return max((a - b).abs().max().item() for a, b in zip(tensors, references)) / max(b.abs().max().item() for b in references)


def _reference_masks_at_splits(tiny_model, precision):
    import random

    scorers = {}
    for masks in ("pass", "reference"):
        torch.manual_seed(0)  # the same classification head
        scorers[masks] = PromptScorer(tiny_model, max_length=64, symmetric=False, precision=precision, dropout_masks=masks)
    rng, vocabulary = random.Random(0), scorers["pass"].model.config.vocab_size
    id_lists = [tuple(rng.randrange(5, vocabulary) for _ in range(rng.randint(3, 40))) for _ in range(75)]
    lengths = sorted(len(ids) for ids in id_lists)
    reference = [(start, min(start + 32, 75)) for start in range(0, 75, 32)]
    torch_logits, torch_grads, torch_rng = _train_pass(scorers["pass"], id_lists, reference)
    logits, grads, rng_state = _train_pass(scorers["reference"], id_lists, reference)
    assert torch.equal(logits, torch_logits) and all(map(torch.equal, grads, torch_grads)) and torch.equal(rng_state, torch_rng)
    splits = [least_cost_chunks(lengths, cost, 32) for cost in (0, 48, 96)]
    assert any(start // 32 != (end - 1) // 32 for bounds in splits for start, end in bounds)  # passes across the bounds
    for bounds in splits:
        assert bounds != reference
        logits, grads, rng_state = _train_pass(scorers["reference"], id_lists, bounds)
        assert torch.equal(rng_state, torch_rng)
        rounding = 1e-5 if precision == "fp32" else 2e-2  # of the largest value
        assert _gap([logits], [torch_logits]) < rounding and _gap(grads, torch_grads) < rounding
        drawn_a_pass, _, _ = _train_pass(scorers["pass"], id_lists, bounds)
        assert _gap([drawn_a_pass], [torch_logits]) > 0.3
    masks = ReferenceMasks(lengths)
    with pytest.raises(ValueError, match="33"), masks.computing(0, 33):
        pass
    with pytest.raises(ValueError, match="32:40"), masks.computing(32, 40):  # reference pass 0 not reached before
        pass


def test_the_pass_cost_follows_the_device_kind_and_format():
    costs = sns_model.PASS_COST_TOKENS
    assert set(costs) == {"cpu", "cuda"} and all(set(by_format) == {"fp32", "bf16"} for by_format in costs.values())
    # a GPU: a batch is one pass; a CPU splits 64 sentences of 20 tokens from 64 of 30 (640 tokens saved) in both formats
    assert least_cost_chunks([20] * 64 + [30] * 64, costs["cuda"]["fp32"], 128) == [(0, 128)]
    assert all(least_cost_chunks([20] * 64 + [30] * 64, cost, 128) == [(0, 64), (64, 128)] for cost in costs["cpu"].values())


def _bits(model) -> dict:
    return {name: value.detach().view(torch.int32).clone() for name, value in model.state_dict().items() if value.dtype == torch.float32}


def test_the_word_embeddings_gradient_on_touched_rows_has_torchs_bits(tiny_model, monkeypatch):
    """The embedding gradient summed on touched rows (``embedding_gradient``) against torch's dense one, in batches of
    many passes that share tokens: the same bits after steps with accumulated batches, with gradients set to None and
    zeroed in place between steps."""
    from directional_inference.sns import embedding_gradient

    def run(touched_rows: bool):
        if not touched_rows:
            monkeypatch.setattr(embedding_gradient, "sum_touched_rows", lambda model: False)
        torch.manual_seed(0)
        scorer = PromptScorer(tiny_model, max_length=48, symmetric=False)
        monkeypatch.undo()
        scorer.max_chunk = 3  # 24 sentences a batch: 8 passes or more, each token of the templates in most of them
        embedding = scorer.model.get_input_embeddings()
        assert isinstance(embedding, embedding_gradient.TouchedRowsEmbedding) == touched_rows
        optimizer = torch.optim.AdamW(scorer.model.parameters(), lr=1e-2, fused=True)
        pairs = scorer.encode(ENTRIES)
        scorer.model.train()
        for step in range(4):
            for half in (pairs[step * 6 : step * 6 + 3], pairs[step * 6 + 3 : step * 6 + 6]):  # two batches a step
                scorer.loss(half).backward()
            grad = embedding.weight.grad.clone()
            torch.nn.utils.clip_grad_norm_(scorer.model.parameters(), 1.0)
            optimizer.step()
            optimizer.zero_grad(set_to_none=step != 1)
        return grad, _bits(scorer.model)

    grad, touched = run(True)
    dense_grad, dense = run(False)
    assert int((grad != 0).any(dim=1).sum()) > 10  # the gradient reached the embeddings
    assert torch.equal(grad.view(torch.int32), dense_grad.view(torch.int32))
    assert touched.keys() == dense.keys() and all(torch.equal(touched[name], dense[name]) for name in dense)


class _Lookup(torch.nn.Module):
    """A word embedding alone, as a model with ``get_input_embeddings`` and no output head."""

    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.Embedding(50, 8, padding_idx=0)

    def get_input_embeddings(self):
        return self.embedding

    def get_output_embeddings(self):
        return None


def test_the_touched_rows_gradient_skips_the_padding_row_and_sums_as_torch_does():
    """Passes of token ids with repeats and padding, each weighted at random: the padding row gets no gradient and
    every other row the same bits as torch's dense gradient."""
    from directional_inference.sns.embedding_gradient import sum_touched_rows

    generator = torch.Generator().manual_seed(1)
    passes = [torch.randint(0, 12, (4, 9), generator=generator) for _ in range(5)]  # 12 ids in 180 tokens: each in most passes
    weights = [torch.randn(4, 9, 8, generator=generator) for _ in passes]
    grads = []
    for touched_rows in (False, True):
        torch.manual_seed(0)
        model = _Lookup()
        if touched_rows:
            assert sum_touched_rows(model)
        sum(((model.embedding(ids) * w).sum() for ids, w in zip(passes, weights)), torch.zeros(())).backward()
        grads.append(model.embedding.weight.grad)
    dense, touched = grads
    assert not touched[0].any() and touched[1:12].all(dim=1).all()
    assert torch.equal(dense.view(torch.int32), touched.view(torch.int32))


def test_gradients_zeroed_in_place_step_after_step_keep_one_list_of_distinct_touched_rows():
    """Steps whose gradients are zeroed in place (``zero_grad(set_to_none=False)``) add into the kept buffer: the rows to
    zero again stay one list of distinct rows however many steps run, and every step's gradient, and the first after
    gradients are set to None, has the dense gradient's bits."""
    from directional_inference.sns.embedding_gradient import sum_touched_rows

    generator = torch.Generator().manual_seed(2)
    torch.manual_seed(0)
    dense, touched = _Lookup(), _Lookup()
    touched.load_state_dict(dense.state_dict())
    assert sum_touched_rows(touched)
    for step in range(8):
        ids, weight = torch.randint(0, 30, (4, 9), generator=generator), torch.randn(4, 9, 8, generator=generator)
        for model in (dense, touched):
            (model.embedding(ids) * weight).sum().backward()
        assert torch.equal(dense.embedding.weight.grad.view(torch.int32), touched.embedding.weight.grad.view(torch.int32))
        for model in (dense, touched):
            model.zero_grad(set_to_none=step == 6)
        kept = touched.embedding.dirty_rows
        assert len(kept) == 1 and torch.equal(kept[0], torch.unique(kept[0])) and kept[0].numel() < 30


def test_a_trial_trains_to_the_same_bytes_with_the_dense_embedding_gradient(tiny_model, tmp_path, monkeypatch):
    """A whole trial (dev evaluations, checkpoints, accumulated batches) in passes of 4 sentences: the weights written
    with the touched-rows gradient are those of torch's dense gradient, byte for byte."""
    from directional_inference.sns import embedding_gradient

    monkeypatch.setitem(sns_model.MAX_CHUNK_SENTENCES, "cpu", 4)
    monkeypatch.setattr(training, "CHECKPOINT_INTERVAL_S", 0)
    hp = Hyperparameters(0, 3e-3, 0.01, 2)
    train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, settings(epochs=2), tmp_path / "touched", tmp_path / "ckpt-t")
    monkeypatch.setattr(embedding_gradient, "sum_touched_rows", lambda model: False)
    train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, settings(epochs=2), tmp_path / "dense", tmp_path / "ckpt-d")
    assert (tmp_path / "touched" / "model.safetensors").read_bytes() == (tmp_path / "dense" / "model.safetensors").read_bytes()


def settings(**changes):
    values = {"epochs": 8, "batch_size": 4, "max_length": 48, "seed": 5, "symmetric": False}
    return TrainingSettings(**(values | changes))


def test_training_learns_and_keeps_the_best_dev_point(tiny_model, tmp_path):
    result = train_prompt_model(
        tiny_model, ENTRIES, ENTRIES[:8], Hyperparameters(0, 3e-3, 0.01, 1), settings(evaluations_per_epoch=2), tmp_path / "out", tmp_path / "ckpt"
    )
    scores = result.scorer.scores(ENTRIES)
    assert np.all(scores > -1) and np.all(scores < 1)
    labels = np.array([e.label for e in ENTRIES])
    assert scores[labels].mean() > scores[~labels].mean()
    # 24 pairs in batches of 4: 6 batches per epoch, dev after batches 3 and 6 of each of 8 epochs
    assert [(p["epoch"], p["batch"]) for p in result.evaluations][:3] == [(0, 3), (0, 6), (1, 3)] and len(result.evaluations) == 16
    best = max(result.evaluations, key=lambda p: p["dev_auc_selection"])  # the first of the best
    assert result.best == best
    # the written weights are the best point's: they reproduce its dev scores
    reloaded = PromptScorer(tmp_path / "out", max_length=48, symmetric=False)
    assert np.allclose(reloaded.scores(ENTRIES[:8]), result.dev_scores, atol=1e-6)
    assert (tmp_path / "out" / "training.json").is_file() and not (tmp_path / "ckpt" / "state.pt").exists()


def test_symmetric_variant_cannot_tell_directions_apart(tiny_model, tmp_path):
    result = train_prompt_model(
        tiny_model, ENTRIES, ENTRIES[:4], Hyperparameters(0, 3e-3, 0.0, 1), settings(epochs=2, symmetric=True), tmp_path / "out", tmp_path / "ckpt"
    )
    scores = result.scorer.scores(ENTRIES[:2])  # a pair and its converse: identical sentence sets
    assert scores[0] == pytest.approx(scores[1], abs=1e-6)


def _kill_at_third_checkpoint(monkeypatch):
    monkeypatch.setattr(training, "CHECKPOINT_INTERVAL_S", 0)  # write at every chance: a tiny run is shorter than the interval
    original = training._save_checkpoint
    calls = {"n": 0}

    def save_then_die(*args, **kwargs):
        original(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt("killed")

    monkeypatch.setattr(training, "_save_checkpoint", save_then_die)
    return original


@pytest.mark.parametrize("dropout_masks", ["pass", "reference"])
def test_killed_training_resumes_to_the_same_weights_and_best_point(tiny_model, tmp_path, monkeypatch, dropout_masks):
    run_settings = settings(epochs=2, seed=9, checkpoint_every=2, evaluations_per_epoch=3, dropout_masks=dropout_masks)
    hp = Hyperparameters(0, 1e-3, 0.01, 2)
    reference = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "ref", tmp_path / "ckpt-ref")
    original = _kill_at_third_checkpoint(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    assert not (tmp_path / "run").exists() and (tmp_path / "ckpt" / "state.pt").is_file()
    monkeypatch.setattr(training, "_save_checkpoint", original)
    resumed = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    for (name, a), (_, b) in zip(reference.scorer.model.state_dict().items(), resumed.scorer.model.state_dict().items()):
        assert torch.equal(a, b), name
    assert resumed.evaluations == reference.evaluations and resumed.best == reference.best
    assert resumed.record["settings"]["dropout_masks"] == dropout_masks


def test_checkpoints_are_written_at_most_once_an_interval_and_removed_at_the_end(tiny_model, tmp_path, monkeypatch):
    """One resumable state per trial, written at most once per CHECKPOINT_INTERVAL_S: a run shorter than the interval
    writes none; with no interval it writes at every evaluation and every checkpoint_every steps; none is left after."""
    writes = []
    original = training._save_checkpoint
    monkeypatch.setattr(training, "_save_checkpoint", lambda *args: writes.append(1) or original(*args))
    run_settings = settings(epochs=2, seed=9, checkpoint_every=2, evaluations_per_epoch=3)
    hp = Hyperparameters(0, 1e-3, 0.01, 1)
    train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "a", tmp_path / "ckpt-a")
    assert writes == []
    monkeypatch.setattr(training, "CHECKPOINT_INTERVAL_S", 0)
    train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "b", tmp_path / "ckpt-b")
    # 6 batches an epoch, one step each: steps 2, 4, 6 and the evaluations after batches 2, 4, 6 coincide; 2 epoch ends
    assert len(writes) == 2 * (3 + 1)
    assert not list((tmp_path / "ckpt-b").rglob("state.pt"))


def test_a_checkpoint_of_other_data_is_not_resumed(tiny_model, tmp_path, monkeypatch):
    """Same size, other labels: the killed run's checkpoint must not be continued on the new data."""
    run_settings = settings(epochs=2, seed=9, checkpoint_every=2)
    hp = Hyperparameters(0, 1e-3, 0.01, 1)
    flipped = [Entry(e.premise, e.hypothesis, not e.label, e.subgroup, e.order) for e in ENTRIES]
    original = _kill_at_third_checkpoint(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    monkeypatch.setattr(training, "_save_checkpoint", original)
    resumed = train_prompt_model(tiny_model, flipped, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    fresh = train_prompt_model(tiny_model, flipped, ENTRIES[:8], hp, run_settings, tmp_path / "fresh", tmp_path / "ckpt-fresh")
    for (name, a), (_, b) in zip(fresh.scorer.model.state_dict().items(), resumed.scorer.model.state_dict().items()):
        assert torch.equal(a, b), name


def test_a_trial_is_the_same_bytes_at_the_same_threads_and_resumes_only_at_its_own_thread_count(tiny_model, tmp_path, monkeypatch):
    """training.threads: auto makes the thread count follow --cores: a checkpoint of a trial at one thread count is not
    continued at another (their CPU sums differ), the record names the count, and the same count gives the same weights."""
    from directional_inference.compute import set_threads

    hp = Hyperparameters(0, 1e-3, 0.01, 1)
    one, two = settings(epochs=2, seed=9, checkpoint_every=2, threads=1), settings(epochs=2, seed=9, checkpoint_every=2, threads=2)
    batches = []  # the batches each run trains: a resumed run trains fewer than a fresh one
    loss = PromptScorer.loss
    monkeypatch.setattr(PromptScorer, "loss", lambda self, pairs: batches.append(1) or loss(self, pairs))
    previous = torch.get_num_threads()
    try:
        set_threads(2)
        first = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, two, tmp_path / "a", tmp_path / "ckpt-a")
        again = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, two, tmp_path / "b", tmp_path / "ckpt-b")
        assert (tmp_path / "a" / "model.safetensors").read_bytes() == (tmp_path / "b" / "model.safetensors").read_bytes()
        assert first.record["settings"]["threads"] == 2 and first.record == again.record
        set_threads(1)
        original = _kill_at_third_checkpoint(monkeypatch)
        with pytest.raises(KeyboardInterrupt):
            train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, one, tmp_path / "run", tmp_path / "ckpt")
        monkeypatch.setattr(training, "_save_checkpoint", original)
        set_threads(2)
        batches.clear()
        resumed = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, two, tmp_path / "run", tmp_path / "ckpt")
    finally:
        set_threads(previous)
    assert len(batches) == 12, "the one-thread checkpoint was continued at two threads"  # 2 epochs of 6 batches: afresh
    assert resumed.record["settings"]["threads"] == 2 and resumed.evaluations == first.evaluations
    for (name, a), (_, b) in zip(first.scorer.model.state_dict().items(), resumed.scorer.model.state_dict().items()):
        assert torch.equal(a, b), name


DEV = ENTRIES[:8]
DEV_LABELS = np.array([e.label for e in DEV], dtype=float)
# dev scores: a perfect ranking (AUC over precision >= 0.51 is 1), the reverse one, and a constant (no ranking)
PERFECT, REVERSED, CONSTANT = DEV_LABELS - 0.5, 0.5 - DEV_LABELS, np.full(8, 0.5)


def write_trial(search, k, scores, *, settings_seed=1, with_scores=True, best_step=None):
    """trial-k of a search as train_sns_trial leaves it: dev scores, evaluations, its record, and its weights."""
    directory = search / f"trial-{k}"
    (directory / "model").mkdir(parents=True)
    if with_scores:
        write_scores(directory / "dev_scores.parquet", DEV, scores)
    points = [
        {"epoch": 0, "batch": 5, "step": 5, "dev_auc_selection": 0.1, "dev_auc_norm": 0.0},
        {"epoch": 1, "batch": 5, "step": 10 + k if best_step is None else best_step, "dev_auc_selection": 0.9, "dev_auc_norm": 0.5},
    ]
    write_evaluations(directory / "evaluations.csv", points, points[1])
    record = {
        "best": points[-1],
        "stopped": points[-1],
        "stop_reason": "maximum of 2 epochs",
        "best_is_last": True,
        "still_improving": True,
        "train_pairs": 24,
        "dev_pairs": 8,
        "precision": "bf16",
        "hp": {"trial": k},
        "settings": {"seed": settings_seed},
        "selection_floor": 0.51,
        "train": "t",
        "dev": "d",
        "model": "m",
    }
    training.write_training_record(directory / "training.json", record)
    training.write_training_record(directory / "model" / "training.json", record)
    (directory / "model" / "config.json").write_text(f'{{"trial": {k}}}')
    return directory


def select(search, count):
    trials = [Hyperparameters(k, 1e-5 * (k + 1), 0.01, 1) for k in range(count)]
    files = {
        name: [str(search / f"trial-{k}" / name) for k in range(count)]
        for name in ("dev_scores.parquet", "evaluations.csv", "training.json", "model")
    }
    return select_best_trial(trials, *files.values(), 0.51, search / "selection.csv", search / "best")


def test_selection_takes_the_best_dev_auc_and_records_every_trial(tmp_path):
    for k, scores in enumerate([np.linspace(0, 1, 8), PERFECT, REVERSED]):  # trial 1 is perfect
        write_trial(tmp_path, k, scores)
    chosen = select(tmp_path, 3)
    assert chosen == 1 and (tmp_path / "best" / "config.json").read_text() == '{"trial": 1}'
    table = pd.read_csv(tmp_path / "selection.csv")
    assert list(table["selected"]) == [0, 1, 0] and table.loc[1, "dev_auc_selection"] == pytest.approx(1.0)
    assert list(table["best_step"]) == [10, 11, 12] and list(table["evaluations"]) == [2, 2, 2] and list(table["best_epoch"]) == [1, 1, 1]
    # the training record of each trial: data sizes, number format, where and why it stopped
    assert list(table["train_pairs"]) == [24] * 3 and list(table["precision"]) == ["bf16"] * 3
    assert list(table["stopped_epoch"]) == [1] * 3 and list(table["stop_reason"]) == ["maximum of 2 epochs"] * 3
    assert list(table["best_is_last"]) == [1, 1, 1] and list(table["still_improving"]) == [1, 1, 1]


def test_a_seeded_search_keeps_its_selection_columns_and_the_authors_trials_add_how_the_model_was_chosen(tmp_path, caplog):
    """This workflow's own seeded trials: selection.csv exactly as before (no origin). The authors' trials: the origin
    columns; a published search (one trial, the published one) says whether its best point (epoch 1 here) falls in the
    published epoch, and one that holds any other trials is refused."""
    from directional_inference.errors import WorkflowError
    from directional_inference.sns.search import ORIGIN_COLUMNS, SELECTION_COLUMNS

    for k, scores in enumerate([np.linspace(0, 1, 8), PERFECT]):
        write_trial(tmp_path / "seeded", k, scores)
    select(tmp_path / "seeded", 2)
    assert tuple(pd.read_csv(tmp_path / "seeded" / "selection.csv").columns) == SELECTION_COLUMNS
    for k, scores in enumerate([np.linspace(0, 1, 8), PERFECT]):
        write_trial(tmp_path / "full", k, scores)
    trials = [Hyperparameters(k, 1e-5, 0.01, 1) for k in range(2)]

    def files(search, ks):
        return [[str(search / f"trial-{k}" / n) for k in ks] for n in ("dev_scores.parquet", "evaluations.csv", "training.json", "model")]

    select_best_trial(
        trials,
        *files(tmp_path / "full", range(2)),
        0.51,
        tmp_path / "full" / "selection.csv",
        tmp_path / "full" / "best",
        origin={"trial_source": "authors", "epochs": 2, "published": None},
    )
    table = pd.read_csv(tmp_path / "full" / "selection.csv", keep_default_na=False)
    assert tuple(table.columns) == SELECTION_COLUMNS + ORIGIN_COLUMNS
    assert list(table["chosen_by"]) == ["dev_auc"] * 2 and list(table["published_search"]) == ["", ""] and list(table["epochs"]) == [2, 2]
    published = {"trial_source": "authors", "epochs": 2, "published": {"search": "levyholt_en_dirp", "trial": 29, "epoch": 4}}
    write_trial(tmp_path / "pub", 29, PERFECT)
    with caplog.at_level("INFO"):
        assert (
            select_best_trial(
                [Hyperparameters(29, 2.2321402e-05, 0.0789954262, 7)],
                *files(tmp_path / "pub", [29]),
                0.51,
                tmp_path / "pub" / "selection.csv",
                tmp_path / "pub" / "best",
                origin=published,
            )
            == 29
        )
    table = pd.read_csv(tmp_path / "pub" / "selection.csv")
    assert table.loc[
        0, ["trial", "chosen_by", "published_search", "published_epoch", "best_epoch", "best_in_published_epoch", "selected"]
    ].tolist() == [29, "published", "levyholt_en_dirp", 4, 1, 0, 1]
    assert "best dev point in epoch 2, NOT the published epoch (published epoch 5, their checkpoint's epoch=4)" in caplog.text
    with pytest.raises(WorkflowError, match=r"published trial 29 \(levyholt_en_dirp\) holds trials \[0, 1\], not that trial alone"):
        select_best_trial(trials, *files(tmp_path / "full", range(2)), 0.51, tmp_path / "x.csv", tmp_path / "xbest", origin=published)


def test_a_search_plans_its_trials_by_number(tmp_path):
    """A published search trains one trial (29) of the file's 100: the trials are taken by number, and a number the file
    lacks is named; keep_best_weights takes the numbers too."""
    from directional_inference.errors import InputFormatError
    from directional_inference.sns.search import keep_best_weights, trials_numbered

    trials = [Hyperparameters(k, 1e-5, 0.01, 1) for k in range(100)]
    assert trials_numbered(trials, [29], "t.csv") == [trials[29]]
    with pytest.raises(InputFormatError, match=r"t.csv, field 'trial': no trial 100 \(the file holds 100 trials\)"):
        trials_numbered(trials, [100], "t.csv")
    write_trial(tmp_path, 29, PERFECT)
    write_trial(tmp_path, 3, PERFECT)  # another trial's weights in the folder (an earlier full search): not this search's
    assert keep_best_weights(tmp_path, [29], 0.51, tmp_path / "trial-29" / "training.json") == 29
    assert (tmp_path / "trial-3" / "model" / "config.json").is_file()


def test_a_finished_trial_keeps_weights_only_if_no_finished_trial_of_its_search_ranks_above_it(tmp_path):
    """Trials 1 and 2 are perfect (they tie: the lower, 1, ranks first), 0 reversed; 3 is perfect but of another
    configuration, 4 has weights but no dev scores yet (still finishing), 5 lies beyond this search's 5 trials."""
    from directional_inference.sns.search import SUPERSEDED_NOTE, keep_best_weights

    write_trial(tmp_path, 0, REVERSED)
    assert keep_best_weights(tmp_path, 5, 0.51, tmp_path / "trial-0" / "training.json") == 0  # alone: kept
    write_trial(tmp_path, 2, PERFECT)
    write_trial(tmp_path, 3, PERFECT, settings_seed=2)
    write_trial(tmp_path, 4, PERFECT, with_scores=False)
    write_trial(tmp_path, 5, PERFECT)
    assert keep_best_weights(tmp_path, 5, 0.51, tmp_path / "trial-2" / "training.json") == 2
    write_trial(tmp_path, 1, PERFECT)
    assert keep_best_weights(tmp_path, 5, 0.51, tmp_path / "trial-1" / "training.json") == 1
    held = {k for k in range(6) if (tmp_path / f"trial-{k}" / "model" / "config.json").is_file()}
    assert held == {1, 3, 4, 5}
    for k in (0, 2):
        assert [p.name for p in (tmp_path / f"trial-{k}" / "model").iterdir()] == [SUPERSEDED_NOTE]
    assert json.loads((tmp_path / "trial-0" / "model" / SUPERSEDED_NOTE).read_text()) == {"trial": 0, "superseded_by": 2}
    assert json.loads((tmp_path / "trial-2" / "model" / SUPERSEDED_NOTE).read_text()) == {"trial": 2, "superseded_by": 1}


def test_selection_refuses_a_best_trial_whose_weights_are_gone_or_from_another_run(tmp_path):
    """Trial 0 was superseded by a trial 1 that ranked above it, then trial 1 ran again and ranks last: the selection
    names trial 0 and what to do instead of copying weights that are not its own."""
    from directional_inference.errors import WorkflowError
    from directional_inference.sns.search import keep_best_weights

    write_trial(tmp_path, 0, np.linspace(0, 1, 8))
    write_trial(tmp_path, 1, PERFECT)
    keep_best_weights(tmp_path, 2, 0.51, tmp_path / "trial-1" / "training.json")
    shutil.rmtree(tmp_path / "trial-1")
    write_trial(tmp_path, 1, REVERSED)
    with pytest.raises(WorkflowError, match=r"trial 0 ranks first .* remove .*trial-0"):
        select(tmp_path, 2)
    # a copy of its weights from another run of trial 0 (another record) is refused too
    shutil.rmtree(tmp_path / "trial-0")
    write_trial(tmp_path, 0, np.linspace(0, 1, 8))
    training.write_training_record(tmp_path / "trial-0" / "model" / "training.json", {"another": "run"})
    with pytest.raises(WorkflowError, match="belong to another run"):
        select(tmp_path, 2)


def test_training_stops_when_dev_stops_improving(tiny_model, tmp_path):
    """Learning rate 0: the weights never change, so dev AUC never beats the first evaluation; with patience 2 and two
    evaluations an epoch (6 batches), training stops after the evaluations at (0, 3), (0, 6) and (1, 3)."""
    result = train_prompt_model(
        tiny_model,
        ENTRIES,
        ENTRIES[:8],
        Hyperparameters(0, 0.0, 0.0, 1),
        settings(epochs=8, evaluations_per_epoch=2, patience=2),
        tmp_path / "out",
        tmp_path / "ckpt",
    )
    assert [(p["epoch"], p["batch"]) for p in result.evaluations] == [(0, 3), (0, 6), (1, 3)]
    assert result.best == result.evaluations[0] and not result.best_is_last
    record = json.loads((tmp_path / "out" / "training.json").read_text())
    assert record["stop_reason"] == "patience: no better dev AUC in 2 evaluations"
    assert (record["stopped"]["epoch"], record["stopped"]["batch"]) == (1, 3) and record["evaluations"] == 3
    assert (record["train_pairs"], record["dev_pairs"]) == (24, 8) and record["settings"]["patience"] == 2


def test_a_run_without_patience_runs_every_epoch_and_says_whether_its_best_point_was_its_last(tiny_model, tmp_path, caplog):
    result = train_prompt_model(
        tiny_model, ENTRIES, ENTRIES[:8], Hyperparameters(0, 3e-3, 0.0, 1), settings(epochs=3), tmp_path / "out", tmp_path / "ckpt"
    )
    record = result.record
    assert len(result.evaluations) == 3 and record["stop_reason"] == "maximum of 3 epochs"
    assert record["best_is_last"] == (result.best == result.evaluations[-1])
    assert record["still_improving"] == record["best_is_last"]  # min_delta 0: a best last point is an improvement
    assert ("POSSIBLY UNDERTRAINED" in caplog.text) == record["still_improving"]


def test_gains_below_min_delta_do_not_count_as_improvement():
    """Dev AUC 0.60, 0.70, 0.702, 0.703: with min_delta 0.005 the last improvement is the second evaluation (0.70 beats
    0.60 by 0.1; 0.702 and 0.703 beat 0.70 by less than 0.005); with 0, the fourth."""
    from directional_inference.sns.training import last_improvement

    points = [{"dev_auc_selection": v} for v in (0.60, 0.70, 0.702, 0.703)]
    assert last_improvement(points, 0.005) == 1 and last_improvement(points, 0.0) == 3
    assert last_improvement([{"dev_auc_selection": 0.5}], 0.1) == 0


def test_patience_counts_from_the_last_gain_above_min_delta(tiny_model, tmp_path):
    """A huge min_delta: no evaluation after the first counts as an improvement, so patience 2 stops after three
    evaluations whatever the model learns, and the run is not called still improving."""
    result = train_prompt_model(
        tiny_model,
        ENTRIES,
        ENTRIES[:8],
        Hyperparameters(0, 3e-3, 0.0, 1),
        settings(epochs=8, evaluations_per_epoch=2, patience=2, min_delta=1.0),
        tmp_path / "out",
        tmp_path / "ckpt",
    )
    assert len(result.evaluations) == 3 and result.record["stop_reason"] == "patience: no better dev AUC by more than 1 in 2 evaluations"
    assert not result.still_improving


def test_a_killed_run_with_patience_resumes_to_the_same_stop(tiny_model, tmp_path, monkeypatch):
    run_settings = settings(epochs=8, seed=9, checkpoint_every=2, evaluations_per_epoch=2, patience=2)
    hp = Hyperparameters(0, 0.0, 0.0, 1)
    reference = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "ref", tmp_path / "ckpt-ref")
    original = _kill_at_third_checkpoint(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    monkeypatch.setattr(training, "_save_checkpoint", original)
    resumed = train_prompt_model(tiny_model, ENTRIES, ENTRIES[:8], hp, run_settings, tmp_path / "run", tmp_path / "ckpt")
    assert resumed.evaluations == reference.evaluations and resumed.record["stop_reason"] == reference.record["stop_reason"]


def test_auto_precision_is_resolved_and_recorded(tiny_model, tmp_path):
    from directional_inference.compute import native_bf16

    result = train_prompt_model(
        tiny_model, ENTRIES, ENTRIES[:8], Hyperparameters(0, 1e-3, 0.0, 1), settings(epochs=1, precision="auto"), tmp_path / "out", tmp_path / "ckpt"
    )
    chosen, reason = result.record["precision"], result.record["precision_reason"]
    assert chosen in ("fp32", "bf16") and result.scorer.precision == chosen and result.record["settings"]["precision"] == chosen
    assert reason.startswith("auto: ")
    if native_bf16("cuda" if torch.cuda.is_available() else "cpu")[0]:  # measured: the record names the figures
        assert "ms in fp32" in reason and "ms in bf16" in reason
    else:
        assert chosen == "fp32"


def test_auto_precision_of_a_training_job_is_measured_on_any_host(tiny_model, tmp_path, monkeypatch, caplog):
    """The measured path of a training job on any host: bf16 declared native (the CPU's flags), the real timing code
    times the job's own model, and the job's log and record show both figures and the choice they give."""
    import logging
    import re

    from directional_inference import compute

    monkeypatch.setattr(compute, "cpu_flags", lambda: {"amx_bf16"})
    monkeypatch.setenv("DI_PRECISION_CACHE", str(tmp_path / "precision"))  # nothing measured before: it times now
    with caplog.at_level(logging.INFO):
        result = train_prompt_model(
            tiny_model,
            ENTRIES,
            ENTRIES[:8],
            Hyperparameters(0, 1e-3, 0.0, 1),
            settings(epochs=1, precision="auto"),
            tmp_path / "out",
            tmp_path / "ckpt",
        )
    reason = result.record["precision_reason"]
    figures = re.search(r"took ([0-9.]+) ms in fp32, ([0-9.]+) ms in bf16: (bf16|fp32)", reason)
    assert figures and float(figures[1]) > 0 and float(figures[2]) > 0, reason
    assert figures[3] == result.record["precision"] == result.scorer.precision
    assert f"number format {figures[3]} ({reason})" in caplog.text
    assert len(list((tmp_path / "precision").glob("*.json"))) == 1


def test_chinese_prompts_train_a_model_with_a_chinese_tokenizer(tmp_path):
    """The Chinese code path offline: a tiny random model whose tokenizer is trained on Chinese text."""
    from conftest import write_chinese_levyholt

    from directional_inference.levyholt.english import build_from_raw
    from directional_inference.resources.models import levyholt_texts

    source = write_chinese_levyholt(tmp_path / "zh")
    texts = levyholt_texts(source) + template_texts()
    model = build_tiny_model({"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 300}, texts, tmp_path / "tiny-zh", seed=3)
    splits = build_from_raw(source, SEED_ZH, dev_pairs=2, layout="")
    train, dev = splits.subset("directional", "train"), splits.subset("directional", "dev")
    scorer = PromptScorer(model, max_length=48, symmetric=False, lang="zh")
    tokens = scorer.tokenizer.tokenize(prompt_sentences(train[0].premise, train[0].hypothesis, symmetric=False, lang="zh")[0][0])
    assert "[UNK]" not in tokens and all(len(t) == 1 for t in tokens)  # one token per character
    result = train_prompt_model(
        model, train, dev, Hyperparameters(0, 3e-3, 0.0, 1), settings(epochs=10, lang="zh"), tmp_path / "out", tmp_path / "ck"
    )
    scores = result.scorer.scores(train)
    labels = np.array([e.label for e in train])
    assert scores[labels].mean() > scores[~labels].mean()
    recorded = json.loads((tmp_path / "out" / "training.json").read_text())
    assert recorded["settings"]["lang"] == "zh" and recorded["settings"]["threads"] == 1  # the thread count is part of a run's identity


SEED_ZH = 47110815


def test_a_dev_set_without_both_classes_keeps_the_last_point(tiny_model, tmp_path):
    only_positives = [e for e in ENTRIES if e.label][:4]
    result = train_prompt_model(
        tiny_model, ENTRIES, only_positives, Hyperparameters(0, 1e-3, 0.0, 1), settings(epochs=2), tmp_path / "out", tmp_path / "ck"
    )
    assert [(p["epoch"], p["batch"]) for p in result.evaluations] == [(0, 6), (1, 6)] and result.best == result.evaluations[-1]
    assert math.isnan(result.best["dev_auc_selection"])
    write_scores(tmp_path / "dev.parquet", only_positives, result.dev_scores)
    write_evaluations(tmp_path / "eval.csv", result.evaluations, result.best)
    assert result.record["stop_reason"] == "no dev AUC (one class only); the last point kept"
    chosen = select_best_trial(
        [Hyperparameters(0, 1e-3, 0.0, 1)],
        [str(tmp_path / "dev.parquet")],
        [str(tmp_path / "eval.csv")],
        [str(tmp_path / "out" / "training.json")],
        [str(tmp_path / "out")],
        0.51,
        tmp_path / "selection.csv",
        tmp_path / "best",
    )
    assert chosen == 0 and pd.read_csv(tmp_path / "selection.csv")["dev_auc_selection"].isna().all()
