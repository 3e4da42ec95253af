"""BoOQA negatives (paper, §4.1 and Appendix D): a span of the positive's predicate replaced by a WordNet hyponym
(troponym for verbs, instance hyponyms too), kept only if the new predicate is felicitous with the same types
and neither it nor any other lemma of its synset occurs in the window with the same arguments (either order,
either voice). Negated positives get no hyponym negatives (under negation a hyponym is entailed).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..progress import logged
from ..relations.shards import pair_keys
from .senses import SenseChooser

log = logging.getLogger(__name__)

FUNCTION_WORDS = {
    "not",
    "be",
    "to",
    "in",
    "on",
    "at",
    "by",
    "of",
    "for",
    "with",
    "from",
    "into",
    "up",
    "out",
    "off",
    "over",
    "down",
    "about",
    "as",
    "than",
    "after",
    "before",
    "under",
    "against",
    "through",
    "per",
}


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
    within a window, so voice only has to map the predicate (``active``; ``active_table`` maps every predicate of the
    relations for the SQL that compares keys)."""

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
            rest = pred[len(negation) :]
            return negation + rest[1:] if rest.startswith("被") and len(rest) > 1 else pred
        words = pred.split()
        negation = words[:1] if words[:1] == ["not"] else []
        body = words[len(negation) :]
        if len(body) >= 3 and body[0] == "be" and body[-1] == "by" and self.wordnet is not None:
            lemma = self.wordnet.morphy(body[1], "v")
            if lemma is not None and lemma != body[1]:
                return " ".join([*negation, lemma, *body[2:-1]])
        return pred

    def active_table(self, engine, name: str, preds: Iterable[str]) -> str:
        """A table ``name(pred, active)`` of the engine mapping each of ``preds`` to its active voice."""
        preds = sorted(set(preds))
        return engine.frame(name, pd.DataFrame({"pred": preds, "active": [self.active(p) for p in preds]}, columns=["pred", "active"]))


def relation_keys_sql(source: str, actives: str) -> str:
    """The keys (window, arg_a, arg_b, active) of the relations of ``source``, with the voice map ``actives``."""
    return f'SELECT "window", {pair_keys("r")}, a.active FROM {source} r JOIN {actives} a USING (pred)'


NEGATIVE_COLUMNS = ["positive_id", "pred", "frequency", "synonyms"]
CANDIDATE_BATCH = 100_000  # candidate rows staged at a time


def generate_negatives(
    engine,
    positives,
    relations,
    lang: str,
    chooser: SenseChooser,
    felicity_min_pairs: int,
    *,
    counts: str = "counts",
    negatives_of_negated_predicates: bool = False,
    output=None,
):
    """Every kept negative of every positive (see module docstring); one row per (positive, negative predicate),
    ``NEGATIVE_COLUMNS``, in the order of the positives and of their candidates.

    ``positives``: the positives (a Parquet file or a frame); ``relations``: the merged relations; ``counts``: the name
    of the engine's table of typed predicate counts (``pred, subj_type, obj_type, count``). The candidates (a WordNet
    question per positive, in Python) are staged in bounded batches; felicity, absence from the window (up to voice,
    ``RelationKeys``) and the first kept occurrence of each predicate per positive are SQL. A negated positive ("not go
    to") gets no hyponym negatives unless ``negatives_of_negated_predicates``: under negation a hyponym is entailed
    ("not go to" entails "not drive to"), so it would be a true proposition labelled false. With ``output`` the
    negatives are written there (their number returned), else returned as a frame."""
    engine.table("relations", relations)
    relation_preds = [row[0] for row in engine.execute("SELECT DISTINCT pred FROM relations").fetchall()]
    relation_keys = RelationKeys(lang, chooser.wordnet)
    participles = participle_forms(relation_preds, chooser.wordnet) if lang == "en" else {}
    staged = _stage_candidates(engine, positives, lang, chooser, participles, negatives_of_negated_predicates)
    engine.table("negative_candidates", staged.path)
    relation_keys.active_table(engine, "actives", set(relation_preds) | staged.synonym_forms)
    engine.materialise("kept_negatives", _kept_negatives_sql(counts, felicity_min_pairs))
    negatives = "SELECT positive_id, pred, frequency, synonyms FROM kept_negatives ORDER BY seq"
    found = engine.write(negatives, output) if output is not None else len(frame := engine.df(negatives))
    with_negatives = engine.count("SELECT DISTINCT positive_id FROM kept_negatives")
    log.info("%d negatives for %d of %d positives (%d negated positives get none)", found, with_negatives, staged.positives, staged.skipped)
    return found if output is not None else frame[NEGATIVE_COLUMNS]


@dataclass
class _StagedCandidates:
    """The negative candidates of every positive, staged in a Parquet file of the engine's spill folder."""

    path: Path
    synonym_forms: set[str]  # every synonym of a candidate (their window keys are looked up)
    positives: int  # positives read
    skipped: int  # negated positives, which get no candidates


def _candidate_schema():
    import pyarrow as pa

    strings = ("positive_id", "pred", "window", "subj", "obj", "subj_type", "obj_type", "positive_pred")
    return pa.schema([("seq", pa.int64()), *((name, pa.string()) for name in strings), ("synonyms", pa.list_(pa.string()))])


def _stage_candidates(
    engine, positives, lang: str, chooser: SenseChooser, participles: dict, negatives_of_negated_predicates: bool
) -> _StagedCandidates:
    """Ask WordNet for the negative predicates of every positive (once per predicate, or per sentence when the sense
    is chosen by its gloss), and write one row per (positive, candidate) in bounded batches, numbered in order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    by_sense = chooser.method == "gloss_similarity" and lang == "en"
    schema = _candidate_schema()
    staged = _StagedCandidates(engine.spill / "negative-candidates.parquet", set(), 0, 0)
    cache: dict = {}
    rows: list[tuple] = []
    seq = 0
    with pq.ParquetWriter(staged.path, schema, compression="zstd") as writer:

        def flush() -> None:
            writer.write_table(pa.Table.from_pylist([dict(zip(schema.names, row)) for row in rows], schema=schema))
            rows.clear()

        for positive in logged(_positive_rows(positives), "negatives", _row_count(positives), "positives"):
            staged.positives += 1
            if not negatives_of_negated_predicates and is_negated(positive["pred"], lang):
                staged.skipped += 1
                continue
            key = (positive["pred"], positive["sentence"] if by_sense else "")
            found = cache.get(key)
            if found is None:
                found = negative_predicates(positive["pred"], positive["sentence"], lang, chooser, participles)
                if not by_sense:  # a sentence-specific answer is not asked again
                    cache[key] = found
            arguments = tuple(positive[name] for name in ("window", "subj", "obj", "subj_type", "obj_type"))
            for form, synonyms in found:
                if form == positive["pred"]:
                    continue
                rows.append((seq, positive["id"], form, *arguments, positive["pred"], sorted(set(synonyms))))
                staged.synonym_forms.update(synonyms)
                seq += 1
            if len(rows) >= CANDIDATE_BATCH:
                flush()
        flush()
    return staged


def _kept_negatives_sql(counts: str, felicity_min_pairs: int) -> str:
    """The candidates kept: felicitous (their predicate seen with the argument types at least ``felicity_min_pairs``
    times), absent from the window under every synonym (up to voice), and each predicate once per positive (its first)."""
    return f"""
        WITH felicitous AS (
            SELECT c.*, n.count AS frequency FROM negative_candidates c
            JOIN {counts} n ON n.pred = c.pred AND n.subj_type = c.subj_type AND n.obj_type = c.obj_type
            WHERE n.count >= {int(felicity_min_pairs)}
        ), synonym_keys AS (
            SELECT f.seq, f."window", {pair_keys("f")}, a.active
            FROM (SELECT seq, "window", subj, obj, unnest(synonyms) AS pred FROM felicitous) f JOIN actives a USING (pred)
        ), candidate_pairs AS (
            SELECT DISTINCT "window", arg_a, arg_b FROM synonym_keys
        ), window_keys AS (  -- the relations of the candidates' pairs only: the small side is the one hashed
            SELECT * FROM ({relation_keys_sql("relations", "actives")}) SEMI JOIN candidate_pairs USING ("window", arg_a, arg_b)
        ), attested AS (
            SELECT DISTINCT seq FROM synonym_keys SEMI JOIN window_keys USING ("window", arg_a, arg_b, active)
        )
        SELECT * FROM felicitous ANTI JOIN attested USING (seq)
        QUALIFY row_number() OVER (PARTITION BY positive_id, pred ORDER BY seq) = 1"""


def _positive_rows(positives):
    """Rows of the positives (a frame, or a Parquet file read in batches) as dicts."""
    columns = ["id", "window", "sentence", "subj", "pred", "obj", "subj_type", "obj_type"]
    if isinstance(positives, pd.DataFrame):
        yield from positives[columns].to_dict("records")
        return
    import pyarrow.parquet as pq

    for batch in pq.ParquetFile(positives).iter_batches(columns=columns, batch_size=10_000):
        yield from batch.to_pylist()


def _row_count(positives) -> int:
    if isinstance(positives, pd.DataFrame):
        return len(positives)
    from ..engine import parquet_rows

    return parquet_rows(positives)
