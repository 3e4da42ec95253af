"""Scorers of BoOQA entries over their retrieved evidence (paper, §4.2): each scores evidence -> hypothesis pairs,
the entry's score is the maximum over its evidence, and an entry without evidence gets the lowest score.

Every scorer works on deduplicated (premise, hypothesis) pairs and reports the deduplication ratio.

* ``lm_cosine``: unsupervised LM, cosine between encodings of the evidence (a rendered relation, ``rel``, its
  host sentence, ``sent``, or a sentence of the top TF-IDF articles, ``tfidf``) and of the hypothesis proposition
  (the authors' poolings: the mean of the predicate's word-pieces for ``rel``, [CLS] for the others);
* ``prompt_model``: an S&S model (premise = evidence relation, hypothesis = the entry), score (s + 1) / 2;
* ``graph``: the edge weight evidence predicate -> hypothesis predicate in an entailment graph, typed with the
  entry's types in the evidence's argument order, as a vectorised join, with the authors' fuzzy back-off to
  same-surface predicates under the same typing (or, as an option, under any type pair).
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from .evidence import entry_positions, max_by_position, max_over_evidence

log = logging.getLogger(__name__)


def render(subj: pd.Series, pred: pd.Series, obj: pd.Series, lang: str) -> pd.Series:
    joiner = " " if lang == "en" else ""
    return subj + joiner + pred + joiner + obj


def _dedup_report(name: str, pairs: int, unique: int) -> float:
    ratio = pairs / unique if unique else 1.0
    log.info("%s: %d evidence pairs, %d unique (deduplication ratio %.2f)", name, pairs, unique, ratio)
    return ratio


def predicate_offsets(subj: pd.Series, pred: pd.Series, lang: str) -> list[tuple[int, int]]:
    """Character span of the predicate in each ``render``-ed relation."""
    gap = 1 if lang == "en" else 0
    starts = subj.str.len().to_numpy() + gap
    return list(zip(starts.tolist(), (starts + pred.str.len().to_numpy()).tolist()))


_PUNCTUATION = "".join(chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum())


def sentence_window(sentence: str, subj: str, obj: str, lang: str, size: int, lemmatize=None) -> str:
    """The authors' context span of a long sentence for the ``sent`` LM baseline: English, whitespace tokens (tokens
    of only punctuation longer than 2 characters dropped); if there are more than ``size``, the ``size`` tokens
    centred between the closest mentions of the subject and the object (matched word by word after ``lemmatize``,
    surrounding punctuation ignored), else the first ``size``; Chinese, the same over characters."""
    if lang == "zh":
        units, subj_at, obj_at = sentence, _string_matches(sentence, subj), _string_matches(sentence, obj)
    else:
        units = [t for t in sentence.split(" ") if t and not (len(t) > 2 and all(c in _PUNCTUATION for c in t))]
        lemma = lemmatize or str.lower
        normal = [lemma(t.strip(_PUNCTUATION).lower()) for t in units]
        subj_at = _token_matches(normal, [lemma(w) for w in subj.lower().split()])
        obj_at = _token_matches(normal, [lemma(w) for w in obj.lower().split()])
    joiner = "" if lang == "zh" else " "
    if len(units) <= size:
        return joiner.join(units)
    if not subj_at or not obj_at:
        return joiner.join(units[:size])
    best = None
    for s in subj_at:
        for o in obj_at:
            if best is None or abs(s - o) < best[0]:
                best = (abs(s - o), s, o)
    middle, half = (best[1] + best[2]) // 2, size // 2
    if middle < half:
        return joiner.join(units[:size])
    if middle > len(units) - half:
        return joiner.join(units[len(units) - size:])
    return joiner.join(units[middle - half : middle + half])


def _token_matches(tokens: list[str], pattern: list[str]) -> list[int]:
    """Starts of the non-overlapping left-to-right occurrences of ``pattern`` in ``tokens``."""
    found, k = [], 0
    while pattern and k + len(pattern) <= len(tokens):
        if tokens[k : k + len(pattern)] == pattern:
            found.append(k)
            k += len(pattern)
        else:
            k += 1
    return found


def _string_matches(text: str, pattern: str) -> list[int]:
    found, k = [], text.find(pattern) if pattern else -1
    while k >= 0:
        found.append(k)
        k = text.find(pattern, k + len(pattern))
    return found


def lm_cosine(entries: pd.DataFrame, evidence: pd.DataFrame, encode, lang: str, retrieval: str = "rel", *,
              window: int = 64, lemmatize=None) -> tuple[np.ndarray, float]:
    """Max cosine of each entry's evidence with its proposition; -1 without evidence. Returns (scores, dedup ratio).

    The texts, as the authors' three variants build them (paper, Appendix G): ``rel``, the evidence relation rebuilt
    as "subj pred obj"; ``sent``, its host sentence (``sentence_window`` of ``window`` tokens when longer); ``tfidf``,
    a sentence of a top TF-IDF article (its first ``window`` tokens). The hypothesis is the entry's proposition.
    ``encode(texts, spans)`` gets the character span of the predicate of every rebuilt relation (None for sentences):
    an encoder with ``span_mean`` pooling averages the predicate's word-pieces, as the authors' ``rel`` variant does.
    """
    if retrieval not in ("rel", "sent", "tfidf"):
        raise ValueError(f"retrieval must be 'rel', 'sent' or 'tfidf', not {retrieval!r}")
    if retrieval == "rel":
        premises = render(evidence["subj"], evidence["pred"], evidence["obj"], lang)
        premise_spans = predicate_offsets(evidence["subj"], evidence["pred"], lang)
    elif retrieval == "sent":
        premises = pd.Series([sentence_window(t, s, o, lang, window, lemmatize)
                              for t, s, o in zip(evidence["sentence"], evidence["subj"], evidence["obj"])], index=evidence.index, dtype=object)
        premise_spans = None
    else:
        cut = (lambda t: t[:window]) if lang == "zh" else (lambda t: " ".join([w for w in t.split(" ") if w][:window]))
        premises, premise_spans = evidence["sentence"].map(cut), None
    position = entry_positions(entries, evidence)
    asked = entries.iloc[np.unique(position)]  # only the entries with evidence here are encoded
    propositions = render(asked["subj"], asked["pred"], asked["obj"], lang)
    proposition_spans = predicate_offsets(asked["subj"], asked["pred"], lang)
    texts = {}  # (text, span) -> row of the encodings

    def codes(values, spans) -> np.ndarray:
        spans = spans if spans is not None else [(0, 0)] * len(values)
        return np.array([texts.setdefault((text, tuple(span)), len(texts)) for text, span in zip(values, spans)], dtype=np.int64)

    premise_codes = codes(list(premises), premise_spans)
    entry_codes = np.zeros(len(entries), dtype=np.int64)
    entry_codes[np.unique(position)] = codes(list(propositions), proposition_spans)
    hypothesis_codes = entry_codes[position]
    keys = list(texts)
    vectors = (encode([t for t, _ in keys], [span for _, span in keys]) if keys else np.zeros((0, 1)))
    pairs = pd.DataFrame({"p": premise_codes, "h": hypothesis_codes})
    unique = pairs.drop_duplicates()
    ratio = _dedup_report(f"lm_cosine[{retrieval}]", len(pairs), len(unique))
    cosines = np.einsum("ij,ij->i", vectors[unique["p"].to_numpy()], vectors[unique["h"].to_numpy()]) if len(unique) else np.zeros(0)
    lookup = dict(zip(zip(unique["p"], unique["h"]), cosines))
    scores = np.array([lookup[key] for key in zip(pairs["p"], pairs["h"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=-1.0), ratio


def lm_encoder(model_dir, pooling: str, nltk_data=None):
    """(encoder, lemmatize) of the LM baseline: the encoder of ``model_dir`` (``pooling``: predicate_mean, cls or mean)
    and, given an NLTK data root, WordNet's noun lemmas for matching argument mentions in sentences (as the authors'
    WordNetLemmatizer)."""
    from ..encoders import SentenceEncoder

    lemmatize = None
    if nltk_data:
        from ..resources.wordnet import open_wordnet

        wordnet = open_wordnet(nltk_data)

        def lemmatize(word: str) -> str:
            return wordnet.morphy(word, "n") or word

    return SentenceEncoder(model_dir, pooling={"predicate_mean": "span_mean"}.get(pooling, pooling)), lemmatize


def prompt_model(entries: pd.DataFrame, evidence: pd.DataFrame, scorer, lang: str, batch_size: int = 32) -> tuple[np.ndarray, float]:
    """S&S over (evidence relation, entry) pairs: (s + 1) / 2, max over evidence; 0 without evidence."""
    from ..levyholt.entries import Entry

    by_id = entries.set_index("id")
    hyp = evidence["entry"].map(lambda e: (by_id.at[e, "subj"], by_id.at[e, "pred"], by_id.at[e, "obj"]))
    prem = list(zip(evidence["subj"], evidence["pred"], evidence["obj"]))
    pairs = pd.DataFrame({"premise": prem, "hypothesis": list(hyp)})
    unique = pairs.drop_duplicates().reset_index(drop=True)
    ratio = _dedup_report("prompt_model", len(pairs), len(unique))
    items = [Entry(tuple(p), tuple(h), False) for p, h in zip(unique["premise"], unique["hypothesis"])]
    raw = scorer.scores(items, batch_size) if items else np.zeros(0)
    lookup = dict(zip(zip(unique["premise"], unique["hypothesis"]), (raw + 1.0) / 2.0))
    scores = np.array([lookup[key] for key in zip(pairs["premise"], pairs["hypothesis"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=0.0), ratio


FUZZY_MODES = ("same_type_pair", "any_type_pair", "none")


def covered_entries(entries: pd.DataFrame, evidence: pd.DataFrame, scores: np.ndarray, family: str) -> np.ndarray:
    """Which entries a method scored, not by default: those with evidence (LM, S&S), those whose evidence found an edge
    of positive weight (graphs; an entry without one scores the default 0)."""
    if family == "graph":
        return graph_covered(scores)
    return entries["id"].isin(evidence["entry"]).to_numpy()


# --- scoring in bounded batches ------------------------------------------------------------------------

# evidence rows per batch of a scoring job, by method family: a batch's pairs are encoded and scored together, so this
# bounds a job's memory whatever the number of entries (a split's evidence at the default scale fits one batch)
BATCH_ROWS = {"lm": 20_000, "sns": 10_000, "graph": 1_000_000}


def entry_chunk(entries: pd.DataFrame, part: int, parts: int) -> pd.DataFrame:
    """Entries [k n / parts, (k + 1) n / parts) of a split: the share of scoring job ``part`` of ``parts``."""
    if not 0 <= part < parts:
        raise ValueError(f"part {part} is not one of 0..{parts - 1}")
    return entries.iloc[part * len(entries) // parts : (part + 1) * len(entries) // parts].reset_index(drop=True)


def evidence_batches(engine, evidence, entries: pd.DataFrame, rows: int, *, cap: int | None = None, seed: int = 0):
    """The rows of the evidence file ``evidence`` whose entry is one of ``entries``, in file order, as frames of at most
    ``rows`` rows; with ``cap``, at most ``cap`` rows per entry, chosen by a seeded hash of the row (the same choice
    whichever job reads the entry)."""
    from ..engine import parquet_source, seeded_hash

    engine.frame("chunk_entries", pd.DataFrame({"entry": entries["id"].astype(str)}))
    source = parquet_source(evidence).replace("union_by_name = true", "union_by_name = true, file_row_number = true")
    capped = ""
    if cap is not None:
        columns = [c for c in ("entry", "pred", "subj", "obj", "aligned", "article_id", "sentence") if c in _parquet_columns(evidence)]
        capped = f"QUALIFY row_number() OVER (PARTITION BY entry ORDER BY {seeded_hash(seed, *columns)}, file_row_number) <= {int(cap)}"
    reader = engine.con.sql(f"""SELECT * EXCLUDE (file_row_number) FROM (SELECT * FROM {source} SEMI JOIN chunk_entries USING (entry) {capped})
                                ORDER BY file_row_number""").to_arrow_reader(rows)
    for batch in reader:
        yield batch.to_pandas()


def _parquet_columns(path) -> list[str]:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).schema_arrow.names


def stream_scores(entries: pd.DataFrame, batches, score_batch, floor: float) -> tuple[np.ndarray, np.ndarray, float]:
    """(per entry the best score over every batch of evidence, whether the entry has evidence, the deduplication
    ratio): ``score_batch(batch)`` returns each entry's best score over the batch (``floor`` without evidence there,
    the lowest score the method gives) and the batch's deduplication ratio."""
    best = np.full(len(entries), floor, dtype=np.float64)
    has_evidence = np.zeros(len(entries), dtype=bool)
    pairs = unique = 0.0
    for batch in batches:
        scores, ratio = score_batch(batch)
        best = np.maximum(best, scores)
        has_evidence[entry_positions(entries, batch)] = True
        pairs, unique = pairs + len(batch), unique + len(batch) / ratio
    return best, has_evidence, (pairs / unique if unique else 1.0)


def graph_covered(scores) -> np.ndarray:
    """Entries a graph scored from an edge: a positive weight (without one, the default 0)."""
    return np.asarray(scores, dtype=np.float64) > 0


def graph_scores(entries: pd.DataFrame, evidence: pd.DataFrame, graph: pd.DataFrame, measure: str, *,
                 fuzzy: str = "same_type_pair", fuzzy_top: int = 20, fuzzy_min_count: int = 3) -> tuple[np.ndarray, float]:
    """Edge weight evidence predicate -> entry predicate, typed with the entry's types, max over the entry's evidence
    (``GraphLookup``); returns (scores, deduplication ratio)."""
    return GraphLookup(entries, graph, measure, fuzzy=fuzzy, fuzzy_top=fuzzy_top, fuzzy_min_count=fuzzy_min_count)(evidence)


class GraphLookup:
    """Edge weights evidence predicate -> entry predicate of one graph, for the entries of a split.

    The evidence predicate takes the entry's types in its own argument order: an aligned piece of evidence p(A, B)
    asks for the edge p -> q over (subj_type, obj_type), a reversed one p(B, A) for the reversed edge (``reversed``
    in the graph, see ``graphs``), as the authors type it ``p#tobj#tsubj -> q#tsubj#tobj``. Where that edge is
    missing or 0, ``fuzzy`` backs off (paper, Appendix G; the authors' ``backoff_to_predstr``):

    * ``same_type_pair`` (the authors'): the best edge between graph nodes with the same surface strings under the same
      typing, each node among the ``fuzzy_top`` most frequent of its surface string and seen ``fuzzy_min_count``
      times. Nodes carry their surface in ``premise_surface`` / ``hypothesis_surface`` and their corpus counts in
      ``premise_count`` / ``hypothesis_count`` when the graph has those columns (published graphs, whose nodes are
      CCG predicates with role labels); a local graph's nodes are surface strings, so there it adds nothing;
    * ``any_type_pair``: the best edge between the same two surface strings under any type pair and argument order;
    * ``none``: no back-off.

    Predicates, types and the argument order become one int64 key per query, and the graph's best weight per key is a
    sorted table built once, so evidence can be looked up in batches of any size (``__call__``).
    """

    def __init__(self, entries: pd.DataFrame, graph: pd.DataFrame, measure: str, *, fuzzy: str = "same_type_pair",
                 fuzzy_top: int = 20, fuzzy_min_count: int = 3):
        if fuzzy not in FUZZY_MODES:
            raise ValueError(f"fuzzy must be one of {FUZZY_MODES}, not {fuzzy!r}")
        self.entries, self.measure, self.fuzzy = entries, measure, fuzzy
        surfaces = {side: graph[f"{side}_surface"] if f"{side}_surface" in graph else graph[side] for side in ("premise", "hypothesis")}
        self.predicates = pd.Index(pd.unique(np.concatenate([
            graph["premise"].to_numpy(object), graph["hypothesis"].to_numpy(object), surfaces["premise"].to_numpy(object),
            surfaces["hypothesis"].to_numpy(object), entries["pred"].to_numpy(object)])))
        self.types = pd.Index(pd.unique(np.concatenate([
            graph["subj_type"].to_numpy(object), graph["obj_type"].to_numpy(object),
            entries["subj_type"].to_numpy(object), entries["obj_type"].to_numpy(object)])))
        self.n_pred, self.n_type = len(self.predicates) + 1, max(len(self.types), 1)  # code n_pred - 1: a predicate the graph lacks
        if self.n_pred * self.n_pred * self.n_type * self.n_type * 2 >= 2**62:
            raise ValueError(f"too many predicates ({self.n_pred}) and types ({self.n_type}) for an int64 key")
        self.entry_codes = (self._pred_codes(entries["pred"]), self.types.get_indexer(entries["subj_type"]),
                            self.types.get_indexer(entries["obj_type"]))
        weights = graph[measure].to_numpy(np.float64)
        edge_types = self.types.get_indexer(graph["subj_type"]), self.types.get_indexer(graph["obj_type"])
        edge_reversed = graph["reversed"].to_numpy(bool)
        self.exact = _max_table(self._keys(self._pred_codes(graph["premise"]), self._pred_codes(graph["hypothesis"]), *edge_types,
                                           edge_reversed), weights)
        self.backoff = None
        if fuzzy == "same_type_pair" and ("premise_surface" in graph or "hypothesis_surface" in graph):
            kept = _frequent_nodes(graph, fuzzy_top, fuzzy_min_count)
            surface_keys = self._keys(self._pred_codes(surfaces["premise"]), self._pred_codes(surfaces["hypothesis"]), *edge_types,
                                      edge_reversed)
            self.backoff = _max_table(surface_keys[kept], weights[kept])
        elif fuzzy == "any_type_pair":
            self.backoff = _max_table(self._pred_codes(surfaces["premise"]) * self.n_pred + self._pred_codes(surfaces["hypothesis"]), weights)

    def _pred_codes(self, values) -> np.ndarray:
        codes = self.predicates.get_indexer(values)
        return np.where(codes < 0, self.n_pred - 1, codes).astype(np.int64)

    def _keys(self, premise, hypothesis, subj_type, obj_type, reversed_) -> np.ndarray:
        n_pred, n_type = self.n_pred, self.n_type
        return (((premise * n_pred + hypothesis) * n_type + subj_type) * n_type + obj_type) * 2 + np.asarray(reversed_, dtype=np.int64)

    def __call__(self, evidence: pd.DataFrame) -> tuple[np.ndarray, float]:
        """Per entry (in ``entries`` order), the best weight over its rows of ``evidence`` (0 without one), and the
        deduplication ratio of the lookups."""
        position = entry_positions(self.entries, evidence)
        pred, subj_type, obj_type = (codes[position] for codes in self.entry_codes)
        query = self._keys(self._pred_codes(evidence["pred"]), pred, subj_type, obj_type, ~evidence["aligned"].to_numpy(bool))
        unique, inverse = np.unique(query, return_inverse=True)
        ratio = _dedup_report(f"graph[{self.measure}]", len(query), len(unique))
        score = _lookup(self.exact, unique)
        if self.backoff is not None:
            backoff_queries = unique if self.fuzzy == "same_type_pair" else unique // (self.n_type * self.n_type * 2)
            score = np.where(score > 0, score, _lookup(self.backoff, backoff_queries))
        return max_by_position(len(self.entries), position, score[inverse.ravel()], floor=0.0), ratio


def read_graph_for(path, entries: pd.DataFrame) -> pd.DataFrame:
    """The edges of a graph file that a lookup for ``entries`` can reach: a local graph's edges into the entries'
    predicates (its nodes are surface strings); a published graph whole (its fuzzy back-off ranks every node)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    if "hypothesis_surface" in pq.ParquetFile(path).schema_arrow.names:
        return pd.read_parquet(path)
    wanted = pa.array(sorted(set(entries["pred"].astype(str))), pa.string())
    return pq.read_table(path, filters=pc.field("hypothesis").isin(wanted)).to_pandas()


def _frequent_nodes(graph: pd.DataFrame, top: int, min_count: int) -> np.ndarray:
    """Edges whose two nodes are each among the ``top`` most frequent nodes of their surface string and own typing
    and seen at least ``min_count`` times (every node, where the graph has no counts)."""
    if "premise_count" not in graph or "hypothesis_count" not in graph:
        return np.ones(len(graph), dtype=bool)
    reversed_ = graph["reversed"].to_numpy(bool)
    premise_types = [np.where(reversed_, graph["obj_type"], graph["subj_type"]), np.where(reversed_, graph["subj_type"], graph["obj_type"])]
    nodes = pd.concat([
        pd.DataFrame({"label": graph["premise"], "surface": graph.get("premise_surface", graph["premise"]),
                      "t1": premise_types[0], "t2": premise_types[1], "count": graph["premise_count"]}),
        pd.DataFrame({"label": graph["hypothesis"], "surface": graph.get("hypothesis_surface", graph["hypothesis"]),
                      "t1": graph["subj_type"], "t2": graph["obj_type"], "count": graph["hypothesis_count"]}),
    ], ignore_index=True).drop_duplicates(["label", "t1", "t2"])
    nodes = nodes.sort_values(["surface", "t1", "t2", "count", "label"], ascending=[True, True, True, False, True], kind="mergesort")
    rank = nodes.groupby(["surface", "t1", "t2"]).cumcount()
    frequent = nodes[(rank < top) & (nodes["count"] >= min_count)]
    index = pd.MultiIndex.from_frame(frequent[["label", "t1", "t2"]])
    premise_ok = pd.MultiIndex.from_arrays([graph["premise"], *premise_types]).isin(index)
    hypothesis_ok = pd.MultiIndex.from_arrays([graph["hypothesis"], graph["subj_type"], graph["obj_type"]]).isin(index)
    return premise_ok & hypothesis_ok


def _max_table(keys: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sorted unique keys, the largest value under each)."""
    if not len(keys):
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    table = pd.Series(values).groupby(keys).max()
    return table.index.to_numpy(np.int64), table.to_numpy(np.float64)


def _lookup(table: tuple[np.ndarray, np.ndarray], queries: np.ndarray) -> np.ndarray:
    """For each query key, its value in ``table`` (``_max_table``; 0 where the key is absent)."""
    keys, values = table
    if not len(keys):
        return np.zeros(len(queries))
    at = np.minimum(np.searchsorted(keys, queries), len(keys) - 1)
    return np.where(keys[at] == queries, values[at], 0.0)


def score_split(engine, method: str, lang: str, entries: pd.DataFrame, evidence, settings: dict, *, model=None, graph=None,
                nltk_data=None) -> pd.DataFrame:
    """One BoOQA method's scores of ``entries`` (``entry, label, score, group, covered``): each entry's best score over
    its rows of the evidence file ``evidence``, read and scored in batches of ``BATCH_ROWS`` rows so that memory does not
    grow with the entries. ``settings``: what the method reads (rule score_booqa's params); ``model``: the encoder or S&S
    model directory; ``graph``: the graph file."""
    from .methods import METHODS

    family, detail = METHODS[method]
    cap = None
    if family == "lm":
        encoder, lemmatize = lm_encoder(model, settings["lm_pooling"], nltk_data)

        def score_batch(batch):
            return lm_cosine(entries, batch, encoder, lang, detail, window=settings["lm_window"], lemmatize=lemmatize)

        floor = -1.0
    elif family == "sns":
        from ..sns.model import PromptScorer

        if lang == "zh":  # the paper capped S&S evidence for Chinese
            cap = settings["evidence_cap_ss_zh"]
        scorer = PromptScorer(model, max_length=settings["max_length"], symmetric=settings.get("sym_sns_prompts") == "symmetric", lang=lang,
                              precision=settings["precision"])

        def score_batch(batch):
            return prompt_model(entries, batch, scorer, lang)

        floor = 0.0
    else:
        score_batch, floor = GraphLookup(entries, read_graph_for(graph, entries), detail, **settings["lookup"]), 0.0
    batches = evidence_batches(engine, evidence, entries, BATCH_ROWS[family], cap=cap, seed=settings.get("seed", 0))
    scores, has_evidence, ratio = stream_scores(entries, batches, score_batch, floor)
    covered = graph_covered(scores) if family == "graph" else has_evidence
    log.info("%s on %s: deduplication ratio %.2f; %d of %d entries scored from evidence (coverage %.3f)", method, lang, ratio, covered.sum(),
             len(entries), covered.mean() if len(entries) else float("nan"))
    return pd.DataFrame({"entry": entries["id"], "label": entries["label"].astype("int8"), "score": scores, "group": entries["bundle_id"],
                         "covered": covered})
