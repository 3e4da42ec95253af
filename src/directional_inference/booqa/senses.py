"""Word senses of predicate spans for the hyponym negatives: WordNet 3.0 for English, Chinese Open WordNet for
Chinese, and the choice of one sense (the first, or the one whose gloss is closest to the sentence)."""

from __future__ import annotations

from dataclasses import dataclass, field

@dataclass
class SenseChooser:
    """Picks the WordNet synset of a predicate span: the first sense, or the sense whose gloss is closest to the
    sentence under a sentence encoder (a stand-in for the paper's BERT WSD, which is not available offline)."""

    wordnet: object
    lang: str
    method: str = "first_sense"
    encode: object = None  # callable: list[str] -> normalised embeddings (numpy), for gloss_similarity
    _cache: dict = field(default_factory=dict)

    def candidates(self, span: str, verb_first: bool) -> list:
        if self.lang == "zh":
            return self.wordnet.synsets(span, lang="cmn")
        name = span.replace(" ", "_")
        order = ("v", "n") if verb_first else ("n", "v")
        for pos in order:
            found = self.wordnet.synsets(name, pos=pos)
            if found:
                return found
        return []

    def choose(self, span: str, sentence: str, verb_first: bool) -> list:
        synsets = self.candidates(span, verb_first)
        if not synsets:
            return []
        if self.lang == "zh" or self.method == "first_sense" or len(synsets) == 1 or self.encode is None:
            return [synsets[0]]
        import numpy as np

        glosses = [s.definition() for s in synsets]
        missing = [g for g in glosses if g not in self._cache] + ([sentence] if sentence not in self._cache else [])
        if missing:
            for text, vector in zip(missing, self.encode(missing)):
                self._cache[text] = vector
        scores = [float(np.dot(self._cache[sentence], self._cache[g])) for g in glosses]
        return [synsets[int(np.argmax(scores))]]
