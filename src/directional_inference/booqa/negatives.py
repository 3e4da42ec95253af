"""BoOQA negatives (paper, §4.1 and Appendix D): a span of the positive's predicate replaced by a WordNet hyponym
(troponym for verbs, instance hyponyms too), kept only if the new predicate is felicitous with the same types
and neither it nor any other lemma of its synset occurs in the window with the same arguments (either order,
either voice). Negated positives get no hyponym negatives (under negation a hyponym is entailed).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence

import pandas as pd

from ..progress import logged
from ..relations.shards import with_pair_keys
from .senses import SenseChooser

log = logging.getLogger(__name__)

FUNCTION_WORDS = {"not", "be", "to", "in", "on", "at", "by", "of", "for", "with", "from", "into", "up", "out", "off",
                  "over", "down", "about", "as", "than", "after", "before", "under", "against", "through", "per"}


def predicate_tokens(pred: str, lang: str) -> list[str]:
    """Words of a predicate: English words; Chinese words as LAC segments them, the segmentation the Chinese
    predicates were built from ("不同意" -> 不 同意, "主持召开" -> 主持 召开)."""
    if lang == "en":
        return pred.split()
    from ..chinese_text import predicate_tokens as chinese_predicate_tokens

    return chinese_predicate_tokens(pred)


def join_tokens(tokens: Sequence[str], lang: str) -> str:
    return " ".join(tokens) if lang == "en" else "".join(tokens)


def predicate_spans(tokens: Sequence[str], lang: str) -> list[tuple[int, int]]:
    """Contiguous spans (start, end), for each start the longest first; spans of only function words are skipped."""
    spans = []
    for start in range(len(tokens)):
        for end in range(len(tokens), start, -1):
            if lang == "en" and all(t in FUNCTION_WORDS for t in tokens[start:end]):
                continue
            spans.append((start, end))
    return spans


def hyponym_lemmas(synset, lang: str) -> list[list[str]]:
    """Lemma lists (one per hyponym or instance-hyponym synset, sorted) of a synset."""
    hyponyms = sorted(set(synset.hyponyms()) | set(synset.instance_hyponyms()), key=lambda s: s.name())
    if lang == "zh":
        return [sorted(set(h.lemma_names("cmn"))) for h in hyponyms if h.lemma_names("cmn")]
    return [sorted({name.replace("_", " ").lower() for name in h.lemma_names()}) for h in hyponyms]


def participle_forms(preds: Iterable[str], wordnet) -> dict[str, str]:
    """lemma -> past participle as seen in passive predicates of the corpus ("be bought by" gives buy -> bought)."""
    forms: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for pred in preds:
        words = pred.split()
        if words and words[0] == "not":
            words = words[1:]
        if len(words) >= 2 and words[0] == "be":
            lemma = wordnet.morphy(words[1], "v")
            if lemma and lemma != words[1]:
                forms[lemma][words[1]] += 1
    return {lemma: max(counts, key=lambda f: (counts[f], f)) for lemma, counts in forms.items()}


def negative_predicates(pred: str, sentence: str, lang: str, chooser: SenseChooser, participles: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(negative predicate, every predicate of the same hyponym synset) for the spans of ``pred``.

    English "be W ..." predicates: a participle W ("be acquired by") is looked up as a verb and its hyponyms
    are put back as participles seen in the corpus ("be bought by"); any other span in every part of speech.
    """
    tokens = predicate_tokens(pred, lang)
    be_at = 1 if tokens[:1] == ["not"] else 0
    slot = be_at + 1 if lang == "en" and len(tokens) > be_at + 1 and tokens[be_at] == "be" else None
    results, used = [], []
    for start, end in predicate_spans(tokens, lang):
        if any(a <= start and end <= b for a, b in used):
            continue  # a sub-span of a span that already produced negatives
        span = join_tokens(tokens[start:end], lang)
        participle = slot == start and end == start + 1 and chooser.wordnet.morphy(tokens[start], "v") is not None
        produced = False
        for synset in chooser.choose(span, sentence, pos="v" if participle else None):
            for lemmas in hyponym_lemmas(synset, lang):
                if span in lemmas:
                    continue
                forms = []
                for lemma in lemmas:
                    if participle:
                        if lemma not in participles:
                            continue
                        lemma = participles[lemma]
                    replacement = lemma.split() if lang == "en" else [lemma]
                    forms.append(join_tokens([*tokens[:start], *replacement, *tokens[end:]], lang))
                results += [(form, forms) for form in forms]
                produced = produced or bool(forms)
        if produced:
            used.append((start, end))
    return results


NEGATIONS = {"en": ("not",), "zh": ("不", "没", "未", "别", "勿", "无")}


def is_negated(pred: str, lang: str) -> bool:
    """Whether a predicate is negated ("not go to", "不同意")."""
    if lang == "en":
        return any(word in NEGATIONS["en"] for word in pred.split())
    return pred.startswith(NEGATIONS["zh"])


class RelationKeys:
    """Relations compared up to voice: "B be bought by A" is the relation "A buy B" (active and passive of one verb
    with swapped arguments are one relation; Chinese "被" passives likewise). A key is (window, the argument pair
    unordered, the predicate in the active voice): absence is checked in either argument order, as the authors did
    within a window, so voice only has to map the predicate."""

    def __init__(self, lang: str, wordnet=None):
        self.lang, self.wordnet = lang, wordnet
        self._active: dict[str, str] = {}

    def active(self, pred: str) -> str:
        if pred not in self._active:
            self._active[pred] = self._active_voice(pred)
        return self._active[pred]

    def _active_voice(self, pred: str) -> str:
        if self.lang == "zh":
            negation = next((n for n in NEGATIONS["zh"] if pred.startswith(n + "被")), "")
            rest = pred[len(negation):]
            return negation + rest[1:] if rest.startswith("被") and len(rest) > 1 else pred
        words = pred.split()
        negation = words[:1] if words[:1] == ["not"] else []
        body = words[len(negation):]
        if len(body) >= 3 and body[0] == "be" and body[-1] == "by" and self.wordnet is not None:
            lemma = self.wordnet.morphy(body[1], "v")
            if lemma is not None and lemma != body[1]:
                return " ".join([*negation, lemma, *body[2:-1]])
        return pred

    def of(self, frame: pd.DataFrame) -> set[tuple[str, str, str, str]]:
        """The keys of every relation of a frame with ``window, subj, pred, obj``."""
        pairs = with_pair_keys(frame[["window", "subj", "pred", "obj"]])
        return set(zip(pairs["window"], pairs["arg_a"], pairs["arg_b"], pairs["pred"].map(self.active)))

    def key(self, window: str, subj: str, obj: str, pred: str) -> tuple[str, str, str, str]:
        a, b = sorted((subj, obj))
        return (window, a, b, self.active(pred))


def generate_negatives(positives: pd.DataFrame, relations: pd.DataFrame, counts: pd.Series, lang: str,
                       chooser: SenseChooser, felicity_min_pairs: int, *, negatives_of_negated_predicates: bool = False) -> pd.DataFrame:
    """Every kept negative of every positive (see module docstring); one row per (positive, negative predicate).

    A negated positive ("not go to") gets no hyponym negatives unless ``negatives_of_negated_predicates``: under negation a
    hyponym is entailed ("not go to" entails "not drive to"), so it would be a true proposition labelled false.
    Absence from the window is checked up to voice (``RelationKeys``)."""
    felicitous = set(counts[counts >= felicity_min_pairs].index)
    relation_keys = RelationKeys(lang, chooser.wordnet)
    present = relation_keys.of(relations)
    participles = participle_forms(relations["pred"].unique(), chooser.wordnet) if lang == "en" else {}
    by_sense = chooser.method == "gloss_similarity" and lang == "en"
    cache: dict = {}
    rows, skipped = [], 0
    for positive in logged(positives.itertuples(), "negatives", len(positives), "positives"):
        if not negatives_of_negated_predicates and is_negated(positive.pred, lang):
            skipped += 1
            continue
        key = (positive.pred, positive.sentence if by_sense else "")
        if key not in cache:
            cache[key] = negative_predicates(positive.pred, positive.sentence, lang, chooser, participles)
        kept = set()
        for form, synonyms in cache[key]:
            if form == positive.pred or form in kept or (form, positive.subj_type, positive.obj_type) not in felicitous:
                continue
            if any(relation_keys.key(positive.window, positive.subj, positive.obj, synonym) in present for synonym in synonyms):
                continue  # the negative (or a synonym) is attested in the window with these arguments, in either voice
            kept.add(form)
            rows.append({"positive_id": positive.id, "pred": form, "frequency": int(counts[(form, positive.subj_type, positive.obj_type)]),
                         "synonyms": sorted(set(synonyms))})
    log.info("%d negatives for %d of %d positives (%d negated positives get none)", len(rows), len({r["positive_id"] for r in rows}),
             len(positives), skipped)
    return pd.DataFrame(rows, columns=["positive_id", "pred", "frequency", "synonyms"])
