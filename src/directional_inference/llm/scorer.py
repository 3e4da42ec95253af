"""A causal language model as a scorer of (premise, hypothesis) pairs, with the prompts of McKenna, Li et al. 2023
(``prompts``): the score of a pair is the model's probability of answer A ("Entailment") over A, B and C at the token
after ``Answer:`` (its next-token distribution, no sampling: the same pair gets the same score in any batch).

Other rules of the 2023 paper are options (``ANSWER_RULES``, config ``llm.answer_rule``): ``davinci`` (text-davinci-003's
released scores: the greedy answer among A, B and C with its probability p, A giving 0.5 + p / 2, B or C 0.5 - p / 2)
and ``greedy`` (GPT-4's and LLaMA's: 1 where the greedy answer is A, else 0; a binary score, so ties).

The prompt's shared prefix (instruction line and in-context examples) is run once; its keys and values are repeated
for each batch of pairs, whose own parts are padded on the right (a padded token comes after every real one, so it is
never attended to). The option tokens are the single tokens of " A", " B", " C" (else "A", "B", "C").
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..levyholt.entries import Entry
from .prompts import LETTERS, PromptSetting

log = logging.getLogger(__name__)
ANSWER_RULES = ("probability", "davinci", "greedy")
FP32_SHARE = 0.5  # on a GPU, a model whose fp32 weights take more of its memory is loaded in bf16 (no room for fp32)


def answer_scores(option_log_probabilities, rule: str = "probability"):
    """Scores of a batch from each row's log-probabilities of A, B and C over the whole vocabulary (a torch tensor
    rows x 3), by an answer rule of ``ANSWER_RULES`` (module docstring)."""
    import torch

    if rule == "probability":  # P(A) / (P(A) + P(B) + P(C))
        return torch.softmax(option_log_probabilities, dim=-1)[:, 0]
    best, answer = option_log_probabilities.exp().max(dim=1)
    is_a = answer == 0
    if rule == "davinci":
        return torch.where(is_a, 0.5 + best / 2, 0.5 - best / 2)
    if rule == "greedy":
        return is_a.to(best.dtype)
    raise ValueError(f"an answer rule is one of {ANSWER_RULES}, not {rule!r}")


def option_ids(tokenizer) -> list[int]:
    """Token ids of the answers A, B, C: the single token of " X", else of "X"."""
    ids = []
    for letter in LETTERS:
        for text in (f" {letter}", letter):
            tokens = tokenizer.encode(text, add_special_tokens=False)
            if len(tokens) == 1:
                ids.append(tokens[0])
                break
        else:
            raise ValueError(f"the tokenizer has no single token for the answer {letter!r} (nor {' ' + letter!r}): the model cannot answer A/B/C")
    if len(set(ids)) != len(ids):
        raise ValueError(f"the answers A, B, C share a token ({ids})")
    return ids


class CausalLMScorer:
    """Scores pairs with a causal LM ``model`` (on its device) and its ``tokenizer``; ``precision`` bf16 runs the
    forward passes under bf16 autocast, and on a GPU casts the body's weights to bf16 first (``model`` is changed in
    place): on an H200 that scored 1.4 times as many pairs a second as autocast over fp32 weights for a 7B model
    (``benchmarks/results/llm_scoring.json``). The output layer stays in fp32 (``_answer_logits``)."""

    def __init__(self, model, tokenizer, *, precision: str = "fp32", batch_size: int = 16, rule: str = "probability"):
        import torch

        if rule not in ANSWER_RULES:
            raise ValueError(f"an answer rule is one of {ANSWER_RULES}, not {rule!r}")
        self.model, self.tokenizer, self.rule = model.eval(), tokenizer, rule
        if precision == "bf16" and self.device.type == "cuda":
            model.get_decoder().to(torch.bfloat16)
        self.precision, self.batch_size = precision, int(batch_size)
        self.options = option_ids(tokenizer)
        self.pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else (tokenizer.eos_token_id or 0)

    @property
    def device(self):
        return next(self.model.parameters()).device

    def _forward(self, module, **inputs):
        """``module`` (the model, or its body without the output layer) on ``inputs`` in the scorer's number format."""
        import torch

        with torch.inference_mode(), torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.precision == "bf16"):
            return module(**inputs)

    def _answer_logits(self, inputs: dict, last, *, use_cache: bool):
        """fp32 logits at each row's answer position. The body runs in the scorer's number format; the output layer
        runs in fp32 on the answer positions alone (bf16 logits round nearby probabilities to ties, and the other
        positions' logits are never read), unless the model post-processes its logits (soft-capping)."""
        import torch

        rows = torch.arange(len(last), device=self.device)
        head = self.model.get_output_embeddings()
        if head is None or getattr(self.model.config, "final_logit_softcapping", None):
            return self._forward(self.model, **inputs, use_cache=use_cache).logits[rows, last].float()
        hidden = self._forward(self.model.get_decoder(), **inputs, use_cache=use_cache).last_hidden_state[rows, last]
        with torch.inference_mode():  # fp32 also where the weights are bf16 (an output layer tied to bf16 embeddings)
            bias = None if head.bias is None else head.bias.float()
            return torch.nn.functional.linear(hidden.float(), head.weight.float(), bias)

    def prefix_cache(self, setting: PromptSetting):
        """(prefix token ids, the model's cache after them) of a setting's shared prefix; no cache when it is empty."""
        import torch

        ids = self.tokenizer.encode(setting.prefix(), add_special_tokens=True)
        if not ids:
            return [], None
        output = self._forward(self.model.get_decoder(), input_ids=torch.tensor([ids], device=self.device), use_cache=True)
        return ids, output.past_key_values

    def scores(
        self,
        entries: Sequence[Entry],
        setting: PromptSetting,
        *,
        progress: Callable[[int], None] | None = None,
        done: np.ndarray | None = None,
        saved: Callable[[int, np.ndarray], None] | None = None,
    ) -> np.ndarray:
        """The score of each entry by the scorer's answer rule (by default P(A) / (P(A) + P(B) + P(C))), in order.
        ``done``: the scores of a stopped run's first batches (NaN after them), which are kept and not scored again;
        ``saved(batches, scores)`` is called after each batch."""
        import torch

        prefix, cache = self.prefix_cache(setting)
        start = len(prefix)
        parts = [self.tokenizer.encode(setting.pair(entry), add_special_tokens=not prefix) for entry in entries]
        result = np.full(len(entries), np.nan) if done is None else np.array(done, dtype=np.float64)
        first = int(np.argmax(np.isnan(result))) if np.isnan(result).any() else len(result)
        options = torch.tensor(self.options, device=self.device)
        for begin in range(first - first % self.batch_size, len(parts), self.batch_size):
            batch = parts[begin : begin + self.batch_size]
            width = max(len(p) for p in batch)
            ids = torch.tensor([p + [self.pad] * (width - len(p)) for p in batch], device=self.device)
            mask = torch.tensor([[1] * len(p) + [0] * (width - len(p)) for p in batch], device=self.device)
            inputs = {"input_ids": ids, "position_ids": (start + torch.arange(width, device=self.device)).expand(len(batch), -1)}
            if cache is not None:
                repeated = copy.deepcopy(cache)
                repeated.batch_repeat_interleave(len(batch))
                inputs |= {
                    "past_key_values": repeated,
                    "attention_mask": torch.cat([torch.ones(len(batch), start, dtype=mask.dtype, device=self.device), mask], 1),
                }
            else:
                inputs["attention_mask"] = mask
            last = torch.tensor([len(p) - 1 for p in batch], device=self.device)
            answer = torch.log_softmax(self._answer_logits(inputs, last, use_cache=cache is not None), dim=-1)[:, options]
            result[begin : begin + len(batch)] = answer_scores(answer, self.rule).double().cpu().numpy()
            if progress is not None:
                progress(len(batch))
            if saved is not None:
                saved(begin // self.batch_size + 1, result)
        return result


def llm_scorer(model_dir, *, precision: str, batch_size: int, rule: str = "probability") -> CausalLMScorer:
    """The scorer of a prepared causal LM (``llm.models``) on a GPU where there is one, in the number format
    ``precision`` resolves to there (``compute.resolve_precision``: auto measures it), logged."""
    import torch

    from ..compute import resolve_precision, torch_device
    from .models import load_llm, weight_count

    device = torch_device()
    fp32_bytes = 4 * weight_count(model_dir) if device.type == "cuda" else 0  # room for fp32 weights matters on a GPU alone
    if device.type == "cuda" and precision != "fp32" and fp32_bytes > FP32_SHARE * torch.cuda.get_device_properties(device).total_memory:
        model, tokenizer = load_llm(model_dir, device, dtype=torch.bfloat16)
        precision, why = (
            "bf16",
            (
                f"{precision}: the fp32 weights ({fp32_bytes / 2**30:.1f} GiB) would take more than {FP32_SHARE:.0%} of "
                f"{torch.cuda.get_device_name(device)}'s memory: loaded in bf16"
            ),
        )
    else:
        model, tokenizer = load_llm(model_dir, device)
        precision, why = resolve_precision(precision, device.type, model=model, device=device, forward_only=True)
    log.info("number format %s (%s)", precision, why)
    return CausalLMScorer(model, tokenizer, precision=precision, batch_size=batch_size, rule=rule)


def score_test_with_llm(
    model_dir, test_path, output, *, name: str, prompts: Sequence[str], batch_size: int, precision: str, checkpoints=None, rule: str = "probability"
) -> None:
    """Every pair of a LevyHolt test file scored by a prepared causal LM (``llm.models``) with each prompt setting of
    ``prompts`` (``prompts.SHOTS``), written as one predictions file (``llm.predictions``: model ``name``, one setting
    per prompt; a setting's name says an answer ``rule`` other than the default), on a GPU where there is one, in the
    number format ``precision`` resolves to there. With a
    ``checkpoints`` folder, each prompt's scores are saved there as they go (``resume``), so that a job
    stopped at its time limit resumes after its last saved batch; the folder's files are removed at the end."""
    import pandas as pd

    from ..resume import ScoringProgress, ScoringState, input_signature
    from ..levyholt.entries import read_subset_tsv
    from ..progress import ProgressLog
    from .predictions import write_predictions

    scorer = llm_scorer(model_dir, precision=precision, batch_size=batch_size, rule=rule)
    precision, device = scorer.precision, scorer.device
    entries = read_subset_tsv(test_path)
    pairs = list(dict.fromkeys((e.premise, e.hypothesis) for e in entries))  # each distinct pair once
    unique = [Entry(premise, hypothesis, False) for premise, hypothesis in pairs]
    frames, saves = [], []
    for shots in prompts:
        setting = PromptSetting(shots=shots)
        started = time.monotonic()
        progress = ProgressLog(f"{name}, {setting.name}", len(unique), "pairs")
        done = saved = None
        if checkpoints is not None:
            signature = input_signature(
                {"setting": setting.name, "batch_size": batch_size, "precision": precision, "rule": rule}, [model_dir, test_path]
            )
            save = ScoringProgress(Path(checkpoints) / f"{shots.replace(' ', '_')}.npz", signature)
            saves.append(save)
            state = save.load(len(unique))
            done = state.best if state is not None else None
            saved = lambda batches, scores: save.save(ScoringState(batches, scores, ~np.isnan(scores), 0.0, 0.0))  # noqa: E731
        scores = scorer.scores(unique, setting, progress=progress.advance, done=done, saved=saved)
        progress.finish()
        seconds = time.monotonic() - started
        log.info(
            "%s, %s: %d pairs in %.1f s (%.1f pairs/s, %s on %s)",
            name,
            setting.name,
            len(unique),
            seconds,
            len(unique) / max(seconds, 1e-9),
            precision,
            device.type,
        )
        frames.append(
            pd.DataFrame(
                {
                    "premise": [p for p, _ in pairs],
                    "hypothesis": [h for _, h in pairs],
                    "score": scores,
                    "model": name,
                    "setting": setting.name + ("" if rule == "probability" else f", {rule} rule"),
                }
            )
        )
    write_predictions(output, pd.concat(frames, ignore_index=True))
    for save in saves:
        save.remove()
