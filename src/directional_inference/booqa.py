"""BoOQA construction (paper, §4.1 and Appendix D): positives from starring argument pairs and felicitous
predicates, negatives from WordNet hyponyms, and frequency-matched bundle sampling.

* Felicitous typed predicate: occurs with at least ``felicity_min_pairs`` distinct argument pairs anywhere in
  the corpus (``felicity_count = mentions`` counts mentions, as the authors' code did).
* Starring argument pair of a window: the unordered pair is mentioned in at least ``starring_min_articles``
  distinct articles with at least ``starring_min_predicates`` distinct predicates.
* Positive: a relation of a window with a starring pair and a felicitous predicate; vague predicates and
  pronoun arguments are excluded; at most one positive per sentence.
* Negative: a span of the positive's predicate replaced by a WordNet hyponym (troponym for verbs, instance
  hyponyms too), kept only if the new predicate is felicitous with the same types and neither it nor any
  other lemma of its synset occurs in the window with the same arguments (either order).
"""

from __future__ import annotations

import logging
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

log = logging.getLogger(__name__)

VAGUE_WORDS = {
    "en": {"x", "'s", "'", "has", "have", "had", "is", "are", "was", "were", "of", "in", "on", "at", "be", "for", "with", "not"},
    "zh": {"是", "还是", "也是", "都是", "有", "的", "不"},
}
PRONOUNS = {
    "en": {"i", "you", "he", "she", "it", "we", "they", "them", "someone", "somebody", "one", "myself", "yourself", "himself",
           "herself", "itself", "ourselves", "themselves", "people", "man", "woman", "her", "him", "his", "our", "their", "its",
           "anyone", "everyone", "anybody", "everybody", "this", "that", "these", "those", "who", "which", "what",
           # Reuters-21578 boilerplate heads: the news agency and units of numbers ("2.5 mln dlrs" -> dlrs)
           "reuter", "reuters", "dlrs", "dlr", "pct", "mln", "cts", "billion", "share", "year"},
    "zh": {"我", "你", "他", "她", "它", "我们", "你们", "他们", "她们", "它们", "自己", "大家", "人们"},
}


def load_relations(shards: Sequence[str | Path], articles: pd.DataFrame) -> pd.DataFrame:
    """All shards in corpus order, without repeated sentences (a sentence text is kept in its first article)."""
    order = {article_id: index for index, article_id in enumerate(articles["article_id"])}
    relations = pd.concat([pd.read_parquet(path) for path in shards], ignore_index=True)
    relations["article_order"] = relations["article_id"].map(order)
    relations = relations.sort_values(["article_order", "sentence_id", "subj", "pred", "obj"], kind="mergesort")
    first_home = relations.drop_duplicates("sentence")[["sentence", "article_id", "sentence_id"]]
    relations = relations.merge(first_home, on=["sentence", "article_id", "sentence_id"], how="inner")
    return relations.reset_index(drop=True)


def is_vague(pred: str, lang: str) -> bool:
    words = pred.split() if lang == "en" else [pred]
    return all(word in VAGUE_WORDS[lang] for word in words)


def typed_predicate_counts(relations: pd.DataFrame, unit: str) -> pd.Series:
    """Count per (pred, subj_type, obj_type): distinct (subj, obj) pairs, or mentions."""
    keys = ["pred", "subj_type", "obj_type"]
    if unit == "pairs":
        return relations.drop_duplicates(keys + ["subj", "obj"]).groupby(keys).size()
    return relations.groupby(keys).size()


def starring_pairs(relations: pd.DataFrame, min_articles: int, min_predicates: int) -> pd.DataFrame:
    """(window, arg_a, arg_b) with arg_a <= arg_b whose pair is mentioned in enough articles with enough predicates."""
    pairs = with_pair_keys(relations)
    stats = pairs.groupby(["window", "arg_a", "arg_b"]).agg(articles=("article_id", "nunique"), predicates=("pred", "nunique")).reset_index()
    return stats[(stats["articles"] >= min_articles) & (stats["predicates"] >= min_predicates)].reset_index(drop=True)


def with_pair_keys(relations: pd.DataFrame) -> pd.DataFrame:
    """The frame with the unordered argument pair as columns ``arg_a <= arg_b``."""
    frame = relations.copy()
    swap = frame["subj"] > frame["obj"]
    frame["arg_a"] = frame["subj"].where(~swap, frame["obj"])
    frame["arg_b"] = frame["obj"].where(~swap, frame["subj"])
    return frame


def select_positives(relations: pd.DataFrame, lang: str, *, min_articles: int, min_predicates: int,
                     min_pairs: int, unit: str, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    """Positives (one per sentence at most, unique per window and triple) and the typed predicate counts."""
    if "article_order" not in relations:
        relations = relations.assign(article_order=pd.factorize(relations["article_id"])[0])
    relations = relations[~relations["subj"].isin(PRONOUNS[lang]) & ~relations["obj"].isin(PRONOUNS[lang])]
    counts = typed_predicate_counts(relations, unit)
    felicitous = counts[counts >= min_pairs]
    stars = starring_pairs(relations, min_articles, min_predicates)
    candidates = with_pair_keys(relations).merge(stars[["window", "arg_a", "arg_b"]], on=["window", "arg_a", "arg_b"])
    keys = pd.MultiIndex.from_frame(candidates[["pred", "subj_type", "obj_type"]])
    candidates = candidates[keys.isin(felicitous.index) & ~candidates["pred"].map(lambda p: is_vague(p, lang))]
    # at most one positive per sentence: a seeded choice among the sentence's candidates
    candidates = candidates.sample(frac=1.0, random_state=seed).drop_duplicates(["article_id", "sentence_id"])
    candidates = candidates.drop_duplicates(["window", "subj", "pred", "obj"])
    positives = candidates.sort_values(["article_order", "sentence_id", "pred"], kind="mergesort").reset_index(drop=True)
    positives["frequency"] = [int(counts[(p, a, b)]) for p, a, b in zip(positives["pred"], positives["subj_type"], positives["obj_type"])]
    positives.insert(0, "id", [f"{lang}-{index:06d}" for index in range(len(positives))])
    positives["lang"] = lang
    log.info("%d felicitous typed predicates, %d starring pairs, %d positives", len(felicitous), len(stars), len(positives))
    return positives.drop(columns=["arg_a", "arg_b"]), counts


# --- negatives -----------------------------------------------------------------------------------------

FUNCTION_WORDS = {"not", "be", "to", "in", "on", "at", "by", "of", "for", "with", "from", "into", "up", "out", "off",
                  "over", "down", "about", "as", "than", "after", "before", "under", "against", "through", "per"}


def predicate_tokens(pred: str, lang: str) -> list[str]:
    if lang == "en":
        return pred.split()
    import jieba

    return [token for token in jieba.cut(pred) if token.strip()]


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


# --- sampling ------------------------------------------------------------------------------------------


def frequency_bucket(frequency: int, boundaries: Sequence[int]) -> int:
    """Index of the first boundary above ``frequency`` (len(boundaries) if none)."""
    for index, boundary in enumerate(boundaries):
        if frequency < boundary:
            return index
    return len(boundaries)


def _round_randomly(value: float, rng: random.Random) -> int:
    whole = int(value)
    return whole + (rng.random() < value - whole)


def sample_bundles(positives: pd.DataFrame, negatives: pd.DataFrame, window_articles: dict[str, int], *,
                   budget: int, max_negatives: int, buckets: Sequence[int], dev_share: float,
                   graph_share: float, seed: int) -> dict[str, pd.DataFrame]:
    """Bundles (a positive and at most ``max_negatives`` of its negatives, kept or dropped together) sampled per
    window in proportion to the window's articles, with negatives matched to the positives' frequency buckets;
    windows split into dev and test (and, with ``graph_share``, a set reserved for graph induction)."""
    rng = random.Random(seed)
    by_positive = {pid: group for pid, group in negatives.groupby("positive_id", sort=True)}
    bundles = positives[positives["id"].isin(by_positive)].copy()
    windows = sorted(set(bundles["window"]))
    rng.shuffle(windows)
    reserved = set(windows[: round(graph_share * len(windows))])
    eligible = [w for w in windows if w not in reserved]
    total_articles = sum(window_articles[w] for w in eligible) or 1
    quota = {w: max(1, round(budget * window_articles[w] / total_articles)) for w in eligible}
    dev_windows, running = set(), 0
    for window in eligible:  # already shuffled
        if running < dev_share * sum(quota.values()):
            dev_windows.add(window)
            running += quota[window]
    chosen_rows = []
    for window in sorted(eligible):
        pool = bundles[bundles["window"] == window]
        distribution = pool["frequency"].map(lambda f: frequency_bucket(f, buckets)).value_counts(normalize=True).to_dict()
        negative_budget = {b: _round_randomly(share * quota[window] * (max_negatives - 0.1), rng) for b, share in distribution.items()}
        order = list(pool["id"])
        rng.shuffle(order)
        accepted = 0
        for pid in order:
            if accepted >= quota[window]:
                break
            group = by_positive[pid]
            group = group.sample(n=min(max_negatives, len(group)), random_state=rng.randrange(2**31)).sort_values("pred")
            needs = group["frequency"].map(lambda f: frequency_bucket(f, buckets)).value_counts().to_dict()
            if any(negative_budget.get(b, 0) < n for b, n in needs.items()):
                continue
            for b, n in needs.items():
                negative_budget[b] -= n
            accepted += 1
            chosen_rows.append((window, pid, group))
    splits: dict[str, list] = {"dev": [], "test": []}
    positive_rows = positives.set_index("id")
    for window, pid, group in chosen_rows:
        split = "dev" if window in dev_windows else "test"
        positive = positive_rows.loc[pid]
        splits[split].append(_entry(positive, pid, pid, positive["pred"], True, int(positive["frequency"])))
        for k, negative in enumerate(group.itertuples()):
            splits[split].append(_entry(positive, f"{pid}-n{k}", pid, negative.pred, False, int(negative.frequency)))
    log.info("sampled %d dev and %d test entries; %d windows reserved for graphs", len(splits["dev"]), len(splits["test"]), len(reserved))
    return {name: pd.DataFrame(rows, columns=ENTRY_COLUMNS) for name, rows in splits.items()} | {"reserved_windows": pd.DataFrame({"window": sorted(reserved)})}


ENTRY_COLUMNS = ["id", "bundle_id", "window", "label", "subj", "pred", "obj", "subj_type", "obj_type", "proposition",
                 "positive_pred", "article_id", "sentence_id", "frequency"]


def _entry(positive, entry_id: str, bundle_id: str, pred: str, label: bool, frequency: int) -> list:
    joiner = " " if positive["lang"] == "en" else ""
    return [entry_id, bundle_id, positive["window"], label, positive["subj"], pred, positive["obj"], positive["subj_type"],
            positive["obj_type"], joiner.join([positive["subj"], pred, positive["obj"]]), positive["pred"], positive["article_id"],
            int(positive["sentence_id"]), frequency]


# --- validation ----------------------------------------------------------------------------------------


def check_invariants(splits: dict[str, pd.DataFrame], negatives: pd.DataFrame, relations: pd.DataFrame, counts: pd.Series,
                     reserved_windows: Iterable[str], *, min_pairs: int, max_negatives: int) -> dict[str, int]:
    """Check every invariant of a built BoOQA; return how many items each check covered, or raise
    ``InvariantError`` naming every broken invariant with examples.

    Invariants: entry ids unique; dev, test and graph-reserved windows disjoint; bundles complete (one positive, at
    least one negative, one split, window and argument pair); at most ``max_negatives`` negatives per positive;
    every predicate felicitous with its type pair (``counts`` >= ``min_pairs``); every positive attested in its
    window; every negative generated for its positive and absent from its window with its arguments, together
    with every predicate of its synset.
    """
    from .errors import InvariantError

    entries = pd.concat([frame.assign(split=name) for name, frame in splits.items()], ignore_index=True).astype({"label": bool})
    problems: dict[str, list] = {}

    def expect(name: str, bad) -> None:
        bad = list(bad)
        if bad:
            problems[name] = bad

    expect("entry ids unique", entries.loc[entries["id"].duplicated(), "id"])
    split_windows = {name: set(frame["window"]) for name, frame in splits.items()}
    names = sorted(split_windows)
    expect("split windows disjoint", [f"{w} in {a} and {b}" for i, a in enumerate(names) for b in names[i + 1:]
                                      for w in sorted(split_windows[a] & split_windows[b])])
    expect("reserved graph windows unused", sorted(set(reserved_windows) & set(entries["window"])))
    bundles = entries.groupby("bundle_id").agg(
        positives=("label", "sum"), size=("id", "size"), splits=("split", "nunique"), windows=("window", "nunique"),
        subjects=("subj", "nunique"), objects=("obj", "nunique"))
    complete = (bundles["positives"] == 1) & (bundles["size"] >= 2) & (bundles[["splits", "windows", "subjects", "objects"]] == 1).all(axis=1)
    expect("bundles complete", bundles.index[~complete])
    expect(f"at most {max_negatives} negatives per positive", bundles.index[bundles["size"] - 1 > max_negatives])
    keys = pd.MultiIndex.from_frame(entries[["pred", "subj_type", "obj_type"]])
    expect("predicates felicitous", entries.loc[counts.reindex(keys).fillna(0).to_numpy() < min_pairs, "id"])
    pairs = with_pair_keys(relations)
    present = set(zip(pairs["window"], pairs["arg_a"], pairs["arg_b"], pairs["pred"]))
    entries = with_pair_keys(entries)
    positives = entries[entries["label"]]
    expect("positives attested in their window", [i for i, *key in zip(positives["id"], positives["window"], positives["arg_a"],
                                                                      positives["arg_b"], positives["pred"]) if tuple(key) not in present])
    negative = entries[~entries["label"]].merge(negatives[["positive_id", "pred", "synonyms"]], how="left",
                                                left_on=["bundle_id", "pred"], right_on=["positive_id", "pred"])
    expect("negatives generated for their positive", negative.loc[negative["positive_id"].isna(), "id"])
    attested = [i for i, window, a, b, pred, synonyms in zip(negative["id"], negative["window"], negative["arg_a"], negative["arg_b"],
                                                             negative["pred"], negative["synonyms"])
                if any((window, a, b, form) in present for form in [pred, *(synonyms if hasattr(synonyms, "__len__") else ())])]
    expect("negatives absent from their window (synonyms included)", attested)
    if problems:
        raise InvariantError("; ".join(f"{name}: {len(bad)} violations, e.g. {bad[:3]}" for name, bad in problems.items()))
    return {"entries": len(entries), "bundles": len(bundles), "positives": len(positives), "negatives": len(negative),
            "windows": int(entries["window"].nunique())}


# --- outputs -------------------------------------------------------------------------------------------

PAPER_TABLE4 = {("en", "dev"): (21809, 36782), ("en", "test"): (21773, 36755), ("zh", "dev"): (18855, 31117), ("zh", "test"): (19092, 31479)}
SOURCE_LICENCES = {
    "reuters21578": "Reuters-21578, Distribution 1.0 (Reuters Ltd.; research use only)",
    "newscrawl": "WMT News Crawl (research use; articles remain the copyright of their publishers)",
    "cctv": "CCTV Xinwen Lianbo via github.com/china-data/xwlb (CCTV data, learning use only)",
    "clue": "CLUE news2016zh (research use)",
}


def write_split(frame: pd.DataFrame, parquet: str | Path, jsonl: str | Path) -> None:
    """A BoOQA split as Parquet and as JSON lines (loadable with Hugging Face ``datasets``), atomically."""
    import json

    from .atomic import atomic_file

    with atomic_file(parquet) as tmp:
        frame.to_parquet(tmp, index=False)
    lines = [json.dumps(record, ensure_ascii=False, sort_keys=False) for record in frame.to_dict("records")]
    with atomic_file(jsonl) as tmp:
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def dataset_card(lang: str, source: str, splits: dict[str, pd.DataFrame], parameters: dict, scale: str) -> str:
    """README.md of a BoOQA release: what it is, how it was built, counts, fields and licences."""
    counts = "\n".join(f"| {name} | {int(f['label'].sum())} | {int((~f['label']).sum())} | {f['window'].nunique()} |" for name, f in splits.items())
    params = "\n".join(f"| `{key}` | {value} |" for key, value in sorted(parameters.items()))
    return f"""# BoOQA ({'English' if lang == 'en' else 'Chinese'}), {scale} scale

Boolean open-domain QA built automatically from news (Li et al., Findings of EMNLP 2022, section 4.1): each
entry is a proposition (subject, predicate, object) from a context window of the corpus. Positives are
relations of *starring* argument pairs with felicitous predicates; negatives replace a span of the positive's
predicate with a WordNet hyponym that is felicitous and not attested in the window with the same arguments.
A positive and its negatives form a bundle (`bundle_id`), sampled together.

Corpus: {SOURCE_LICENCES.get(source, source)}. WordNet: Princeton WordNet 3.0 (WordNet licence); Chinese: Chinese
Open Wordnet (Bond & Wang; permissive licence with attribution).

## Counts

| split | positives | negatives | windows |
|---|---|---|---|
{counts}

## Construction parameters

| key | value |
|---|---|
{params}

## Fields

`id`, `bundle_id`, `window` (context window, `YYYY_MM-DD_MM-DD`), `label` (true = positive), `subj`, `pred`, `obj`,
`subj_type`, `obj_type`, `proposition` (the text asked about), `positive_pred` (the bundle's positive predicate),
`article_id` and `sentence_id` (the positive's source sentence, excluded from evidence retrieval), `frequency`
(corpus count of the typed predicate, the unit of frequency-bucket matching).
Files: `{{dev,test}}.parquet` and `{{dev,test}}.jsonl` (`datasets.load_dataset("json", data_files=...)`).
"""


# --- hypothesis-only robustness (paper, Table 3 and Appendix E.1) --------------------------------------


def hypothesis_only_splits(dev: pd.DataFrame, test: pd.DataFrame, *, train_share: float, seed: int) -> dict[str, list]:
    """Type-masked hypothesis-only datasets: the arguments replaced by their types, the premise by "true".

    Train and dev2 are carved from BoOQA dev (the first ``train_share`` of its bundles train, the rest dev2, as
    the authors took the first 1,600 and next 400 positives); test is BoOQA test. A hypothesis text in more than
    one split is kept in one of them (seeded) and removed from the others, whatever its label.
    """
    from .levyholt import TRUE_PREMISE, Entry

    def entries(frame: pd.DataFrame) -> list:
        return [Entry(TRUE_PREMISE, (row.subj_type, row.pred, row.obj_type), bool(row.label), "booqa", k)
                for k, row in enumerate(frame.itertuples())]

    bundles = list(dict.fromkeys(dev["bundle_id"]))
    cut = round(train_share * len(bundles))
    splits = {"train": entries(dev[dev["bundle_id"].isin(bundles[:cut])]),
              "dev": entries(dev[dev["bundle_id"].isin(bundles[cut:])]),
              "test": entries(test)}
    homes: dict[tuple, list[str]] = defaultdict(list)
    for name, items in splits.items():
        for item in items:
            if name not in homes[item.hypothesis]:
                homes[item.hypothesis].append(name)
    rng = random.Random(seed)
    keep = {hyp: rng.choice(names) for hyp, names in sorted(homes.items()) if len(names) > 1}
    return {name: [e for e in items if keep.get(e.hypothesis, name) == name] for name, items in splits.items()}
