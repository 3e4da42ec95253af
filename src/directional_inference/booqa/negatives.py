"""BoOQA negatives (paper, §4.1 and Appendix D): a span of the positive's predicate replaced by a WordNet hyponym
(troponym for verbs, instance hyponyms too), kept only if the new predicate is felicitous with the same types
and neither it nor any other lemma of its synset occurs in the window with the same arguments (either order).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence

import pandas as pd

from ..relations import with_pair_keys
from .senses import SenseChooser

log = logging.getLogger(__name__)

FUNCTION_WORDS = {"not", "be", "to", "in", "on", "at", "by", "of", "for", "with", "from", "into", "up", "out", "off",
                  "over", "down", "about", "as", "than", "after", "before", "under", "against", "through", "per"}


def predicate_tokens(pred: str, lang: str) -> list[str]:
    """Words of a predicate: English words; Chinese words as LAC segments them, the segmentation the Chinese
    predicates were built from ("不同意" -> 不 同意, "主持召开" -> 主持 召开)."""
    if lang == "en":
        return pred.split()
    from ..chinese import predicate_tokens as chinese_predicate_tokens

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
    are put back as participles seen in the corpus ("be bought by"); a noun W ("be president of") as a noun.
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
        noun_slot = slot == start and end == start + 1 and not participle
        produced = False
        for synset in chooser.choose(span, sentence, verb_first=not noun_slot):
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


def generate_negatives(positives: pd.DataFrame, relations: pd.DataFrame, counts: pd.Series, lang: str,
                       chooser: SenseChooser, min_pairs: int) -> pd.DataFrame:
    """Every kept negative of every positive (see module docstring); one row per (positive, negative predicate)."""
    felicitous = set(counts[counts >= min_pairs].index)
    pairs = with_pair_keys(relations)
    present = set(zip(pairs["window"], pairs["arg_a"], pairs["arg_b"], pairs["pred"]))
    participles = participle_forms(relations["pred"].unique(), chooser.wordnet) if lang == "en" else {}
    by_sense = chooser.method == "gloss_similarity" and lang == "en"
    cache: dict = {}
    rows = []
    for positive in positives.itertuples():
        key = (positive.pred, positive.sentence if by_sense else "")
        if key not in cache:
            cache[key] = negative_predicates(positive.pred, positive.sentence, lang, chooser, participles)
        a, b = sorted((positive.subj, positive.obj))
        kept = set()
        for form, synonyms in cache[key]:
            if form == positive.pred or form in kept or (form, positive.subj_type, positive.obj_type) not in felicitous:
                continue
            if any((positive.window, a, b, synonym) in present for synonym in synonyms):
                continue  # the negative (or a synonym) is attested in the window with these arguments
            kept.add(form)
            rows.append({"positive_id": positive.id, "pred": form, "frequency": int(counts[(form, positive.subj_type, positive.obj_type)]),
                         "synonyms": sorted(set(synonyms))})
    log.info("%d negatives for %d of %d positives", len(rows), len({r["positive_id"] for r in rows}), len(positives))
    return pd.DataFrame(rows, columns=["positive_id", "pred", "frequency", "synonyms"])
