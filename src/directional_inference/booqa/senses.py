"""Word senses of predicate spans for the hyponym negatives: WordNet 3.0 for English, Chinese Open WordNet for
Chinese, and the choice of senses.

A span is looked up in every part of speech, as the authors' code does (``wordnet.synsets(span)``), so nouns inside
predicates get noun hyponyms ("play game with" -> "play practice game with", paper §4.1); only the participle of an
English passive ("be acquired by") is looked up as a verb, since its hyponyms are put back as participles.

* ``gloss_similarity`` (English default): the sense whose gloss is closest to the sentence under a sentence encoder,
  over all parts of speech (a stand-in for the paper's BERT WSD, Yap et al. 2020, which is not available offline);
* ``first_sense``: English, the first (most frequent) sense of each part of speech the span has; Chinese, the first
  synset of Chinese Open WordNet (the paper's rule for Chinese, which has no WSD).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SENSE_CHOICES = ("first_sense", "gloss_similarity")


@dataclass
class SenseChooser:
    """Picks the WordNet synsets of a predicate span (see module docstring)."""

    wordnet: object
    lang: str
    method: str = "first_sense"
    encode: object = None  # callable: list[str] -> normalised embeddings (numpy), for gloss_similarity
    _cache: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.method not in SENSE_CHOICES:
            raise ValueError(f"sense choice must be one of {SENSE_CHOICES}, not {self.method!r}")

    def candidates(self, span: str, pos: str | None = None) -> list:
        """Every synset of ``span`` (of part of speech ``pos`` when given), in WordNet's order."""
        if self.lang == "zh":
            return list(self.wordnet.synsets(span, lang="cmn"))
        return list(self.wordnet.synsets(span.replace(" ", "_"), pos=pos))

    def choose(self, span: str, sentence: str, pos: str | None = None) -> list:
        synsets = self.candidates(span, pos)
        if not synsets:
            return []
        if self.lang == "zh":
            return [synsets[0]]
        if self.method == "first_sense" or len(synsets) == 1 or self.encode is None:
            firsts: dict[str, object] = {}
            for synset in synsets:
                firsts.setdefault(_part_of_speech(synset), synset)
            return list(firsts.values())
        import numpy as np

        glosses = [s.definition() for s in synsets]
        missing = list(dict.fromkeys(g for g in [*glosses, sentence] if g not in self._cache))
        if missing:
            for text, vector in zip(missing, self.encode(missing)):
                self._cache[text] = vector
        scores = [float(np.dot(self._cache[sentence], self._cache[g])) for g in glosses]
        return [synsets[int(np.argmax(scores))]]


def _part_of_speech(synset) -> str:
    """n, v, a or r (satellite adjectives count as adjectives)."""
    pos = synset.pos()
    return "a" if pos == "s" else pos
