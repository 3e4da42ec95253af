"""Scorers of BoOQA entries over their retrieved evidence (paper, §4.2): each scores evidence -> hypothesis pairs,
the entry's score is the maximum over its evidence, and an entry without evidence gets the lowest score.

Every scorer works on the deduplicated (premise, hypothesis) pairs of a batch of evidence and reports the deduplication
ratio.

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

from .evidence import entry_positions, max_over_evidence

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
        return joiner.join(units[len(units) - size :])
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


def lm_cosine(
    entries: pd.DataFrame, evidence: pd.DataFrame, encode, lang: str, retrieval: str = "rel", *, window: int = 64, lemmatize=None
) -> tuple[np.ndarray, float]:
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
        premises = pd.Series(
            [sentence_window(t, s, o, lang, window, lemmatize) for t, s, o in zip(evidence["sentence"], evidence["subj"], evidence["obj"])],
            index=evidence.index,
            dtype=object,
        )
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
    vectors = encode([t for t, _ in keys], [span for _, span in keys]) if keys else np.zeros((0, 1))
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


def _evidence_pairs(entries: pd.DataFrame, evidence: pd.DataFrame, name: str) -> tuple[pd.DataFrame, pd.DataFrame, float]:
    """(premise, hypothesis) triples of every evidence row (the evidence relation, its entry), the distinct ones, and
    the deduplication ratio."""
    by_id = entries.set_index("id")
    hyp = evidence["entry"].map(lambda e: (by_id.at[e, "subj"], by_id.at[e, "pred"], by_id.at[e, "obj"]))
    prem = list(zip(evidence["subj"], evidence["pred"], evidence["obj"]))
    pairs = pd.DataFrame({"premise": prem, "hypothesis": list(hyp)})
    unique = pairs.drop_duplicates().reset_index(drop=True)
    return pairs, unique, _dedup_report(name, len(pairs), len(unique))


def prompt_model(entries: pd.DataFrame, evidence: pd.DataFrame, scorer, lang: str, batch_size: int = 32) -> tuple[np.ndarray, float]:
    """S&S over (evidence relation, entry) pairs: (s + 1) / 2, max over evidence; 0 without evidence."""
    from ..levyholt.entries import Entry

    pairs, unique, ratio = _evidence_pairs(entries, evidence, "prompt_model")
    items = [Entry(tuple(p), tuple(h), False) for p, h in zip(unique["premise"], unique["hypothesis"])]
    raw = scorer.scores(items, batch_size) if items else np.zeros(0)
    lookup = dict(zip(zip(unique["premise"], unique["hypothesis"]), (raw + 1.0) / 2.0))
    scores = np.array([lookup[key] for key in zip(pairs["premise"], pairs["hypothesis"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=0.0), ratio


def llm_model(entries: pd.DataFrame, evidence: pd.DataFrame, scorer, setting) -> tuple[np.ndarray, float]:
    """An LLM asked whether each evidence relation entails the entry (``llm.scorer``: P(A) over A, B, C with the 2023
    prompt ``setting``), max over evidence; 0 without evidence."""
    pairs, unique, ratio = _evidence_pairs(entries, evidence, "llm_model")
    from ..levyholt.entries import Entry

    items = [Entry(tuple(p), tuple(h), False) for p, h in zip(unique["premise"], unique["hypothesis"])]
    raw = scorer.scores(items, setting) if items else np.zeros(0)
    lookup = dict(zip(zip(unique["premise"], unique["hypothesis"]), raw))
    scores = np.array([lookup[key] for key in zip(pairs["premise"], pairs["hypothesis"])], dtype=np.float64)
    return max_over_evidence(entries, evidence, scores, floor=0.0), ratio


FUZZY_MODES = ("same_type_pair", "any_type_pair", "none")


# --- scoring in bounded batches ------------------------------------------------------------------------

# evidence rows per batch of a scoring job, by method family: a batch's pairs are encoded and scored together, so this
# bounds a job's memory whatever the number of entries (a split's evidence at the default scale fits one batch)
BATCH_ROWS = {"lm": 20_000, "sns": 10_000, "llm": 2_000}


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
    source = parquet_source(evidence, row_numbers=True)
    capped = ""
    if cap is not None:
        present = engine.columns(source)
        columns = [c for c in ("entry", "pred", "subj", "obj", "aligned", "article_id", "sentence") if c in present]
        capped = f"QUALIFY row_number() OVER (PARTITION BY entry ORDER BY {seeded_hash(seed, *columns)}, file_row_number) <= {int(cap)}"
    reader = engine.sql(f"""SELECT * EXCLUDE (file_row_number) FROM (SELECT * FROM {source} SEMI JOIN chunk_entries USING (entry) {capped})
                                ORDER BY file_row_number""").to_arrow_reader(rows)
    for batch in reader:
        yield batch.to_pandas()


def stream_scores(entries: pd.DataFrame, batches, score_batch, floor: float, progress=None) -> tuple[np.ndarray, np.ndarray, float]:
    """(per entry the best score over every batch of evidence, whether the entry has evidence, the deduplication
    ratio): ``score_batch(batch)`` returns each entry's best score over the batch (``floor`` without evidence there,
    the lowest score the method gives) and the batch's deduplication ratio. With ``progress`` (a
    ``resume.ScoringProgress``), the state is saved as it goes, and a saved state is resumed: its batches are read
    past, not scored."""
    from ..resume import ScoringState

    state = progress.load(len(entries)) if progress is not None else None
    if state is None:
        state = ScoringState(0, np.full(len(entries), floor, dtype=np.float64), np.zeros(len(entries), dtype=bool), 0.0, 0.0)
    for k, batch in enumerate(batches):
        if k < state.batches:
            continue
        scores, ratio = score_batch(batch)
        state.best = np.fmax(state.best, scores)  # NaN-skipping, as a max over one batch is: the result does not depend on the batches
        state.has_evidence[entry_positions(entries, batch)] = True
        state.pairs, state.unique, state.batches = state.pairs + len(batch), state.unique + len(batch) / ratio, k + 1
        if progress is not None:
            progress.save(state)
    return state.best, state.has_evidence, (state.pairs / state.unique if state.unique else 1.0)


def graph_covered(scores) -> np.ndarray:
    """Entries a graph scored from an edge: a positive weight (without one, the default 0)."""
    return np.asarray(scores, dtype=np.float64) > 0


def _graph_backoff(
    engine, fuzzy: str, surfaces: dict[str, str], columns: set[str], weight: str, key: str, fuzzy_top: int, fuzzy_min_count: int
) -> tuple[str | None, str | None]:
    """The back-off table of ``fuzzy`` (``graph_scores``) and the columns it is joined on; (None, None) for none."""
    has_surfaces = surfaces["premise"] != "premise" or surfaces["hypothesis"] != "hypothesis"
    if fuzzy == "same_type_pair" and has_surfaces:
        frequent = ""
        if {"premise_count", "hypothesis_count"} <= columns:
            engine.materialise(
                "graph_nodes",
                f"""
                WITH nodes AS (
                    SELECT premise AS label, {surfaces["premise"]} AS surface, CASE WHEN reversed THEN obj_type ELSE subj_type END AS t1,
                           CASE WHEN reversed THEN subj_type ELSE obj_type END AS t2, premise_count AS n FROM graph_edges
                    UNION ALL
                    SELECT hypothesis, {surfaces["hypothesis"]}, subj_type, obj_type, hypothesis_count FROM graph_edges
                ), distinct_nodes AS (SELECT label, surface, t1, t2, min(n) AS n FROM nodes GROUP BY label, surface, t1, t2)
                SELECT label, t1, t2 FROM distinct_nodes
                QUALIFY row_number() OVER (PARTITION BY surface, t1, t2 ORDER BY n DESC, label) <= {int(fuzzy_top)} AND n >= {int(fuzzy_min_count)}""",
            )
            frequent = """
                SEMI JOIN graph_nodes p ON p.label = g.premise AND p.t1 = (CASE WHEN g.reversed THEN g.obj_type ELSE g.subj_type END)
                                           AND p.t2 = (CASE WHEN g.reversed THEN g.subj_type ELSE g.obj_type END)
                SEMI JOIN graph_nodes h ON h.label = g.hypothesis AND h.t1 = g.subj_type AND h.t2 = g.obj_type"""
        backoff_table = engine.materialise(
            "graph_backoff",
            f"""
            SELECT g.{surfaces["premise"]} AS premise, g.{surfaces["hypothesis"]} AS hypothesis, g.subj_type, g.obj_type, g.reversed,
                   max(g.{weight}) AS w
            FROM graph_edges g {frequent} GROUP BY ALL""",
        )
        return backoff_table, key
    if fuzzy == "any_type_pair":
        backoff_table = engine.materialise(
            "graph_backoff",
            f"""
            SELECT {surfaces["premise"]} AS premise, {surfaces["hypothesis"]} AS hypothesis, max({weight}) AS w FROM graph_edges GROUP BY ALL""",
        )
        return backoff_table, "premise, hypothesis"
    return None, None


def graph_scores(
    engine, entries: pd.DataFrame, evidence, graph, measure: str, *, fuzzy: str = "same_type_pair", fuzzy_top: int = 20, fuzzy_min_count: int = 3
) -> tuple[np.ndarray, float]:
    """Edge weight evidence predicate -> entry predicate, typed with the entry's types, max over the entry's evidence
    (0 without evidence or edge), in ``entries`` order, and the deduplication ratio of the lookups. ``evidence`` (rows
    ``entry, pred, aligned``) and ``graph`` (see ``graphs``) are frames or Parquet files; the lookup is SQL, so a graph
    of any size is read out of core, and only the edges into the entries' predicates.

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
    """
    if fuzzy not in FUZZY_MODES:
        raise ValueError(f"fuzzy must be one of {FUZZY_MODES}, not {fuzzy!r}")
    engine.table("graph_edges", graph)
    engine.table("graph_evidence", evidence)
    engine.frame("graph_entries", entries[["id", "pred", "subj_type", "obj_type"]].reset_index(drop=True).assign(row=lambda f: range(len(f))))
    columns = engine.columns("graph_edges")
    surfaces = {side: f"{side}_surface" if f"{side}_surface" in columns else side for side in ("premise", "hypothesis")}
    weight = f'"{measure}"'
    engine.materialise(
        "graph_queries",
        """
        SELECT e.entry, e.pred AS premise, q.pred AS hypothesis, q.subj_type, q.obj_type, NOT e.aligned AS reversed
        FROM graph_evidence e JOIN graph_entries q ON q.id = e.entry""",
    )
    engine.materialise("graph_lookups", "SELECT DISTINCT premise, hypothesis, subj_type, obj_type, reversed FROM graph_queries")
    key = "premise, hypothesis, subj_type, obj_type, reversed"
    # the exact typed edge, from the edges into the asked hypotheses only
    engine.materialise(
        "graph_exact",
        f"""
        SELECT {key}, max({weight}) AS w FROM graph_edges SEMI JOIN (SELECT DISTINCT hypothesis FROM graph_lookups) USING (hypothesis)
        GROUP BY ALL""",
    )
    backoff_table, backoff_key = _graph_backoff(engine, fuzzy, surfaces, columns, weight, key, fuzzy_top, fuzzy_min_count)
    backoff = f"LEFT JOIN {backoff_table} b USING ({backoff_key})" if backoff_table else ""
    best = "CASE WHEN coalesce(x.w, 0) > 0 THEN x.w ELSE coalesce(b.w, 0) END" if backoff_table else "coalesce(x.w, 0)"
    engine.materialise("graph_lookup_scores", f"SELECT {key}, {best} AS score FROM graph_lookups l LEFT JOIN graph_exact x USING ({key}) {backoff}")
    found = engine.df(f"""
        SELECT q.row, coalesce(s.best, 0) AS score FROM graph_entries q
        LEFT JOIN (SELECT entry, max(score) AS best FROM graph_queries JOIN graph_lookup_scores USING ({key}) GROUP BY entry) s ON s.entry = q.id
        ORDER BY q.row""")
    ratio = _dedup_report(f"graph[{measure}]", engine.count("SELECT * FROM graph_queries"), engine.count("SELECT * FROM graph_lookups"))
    return found["score"].to_numpy(np.float64), ratio


def score_split(
    engine,
    method: str,
    lang: str,
    entries: pd.DataFrame,
    evidence,
    settings: dict,
    *,
    model=None,
    graph=None,
    nltk_data=None,
    progress=None,
    predictions=None,
    known_ids=(),
) -> pd.DataFrame:
    """One BoOQA method's scores of ``entries`` (``entry, label, score, group, covered``): each entry's best score over
    its rows of the evidence file ``evidence``: read and scored in batches of ``BATCH_ROWS`` rows (LM, S&S), so that
    memory does not grow with the entries, or looked up in SQL (graphs). ``settings``: what the method reads (rule
    score_booqa's params); ``model``: the encoder or S&S model directory; ``graph``: the graph file; ``progress``: a
    ``resume.ScoringProgress`` that the LM and S&S scorings save to and resume from; ``predictions``: a file of
    per-entry scores made elsewhere (``entry_scores``), every id one of ``known_ids`` (the language's dev and test
    entries), which scores every entry itself (no evidence is read)."""
    from .methods import method_spec

    family, detail = method_spec(method)
    if family == "file":
        from .entry_scores import entry_scores

        scores, ratio = entry_scores(predictions, entries, set(known_ids)), 1.0
        covered = np.ones(len(entries), dtype=bool)
    elif family == "graph":
        scores, ratio = graph_scores(engine, entries, evidence, graph, detail, **settings["lookup"])
        covered = graph_covered(scores)
    else:
        score_batch, floor, cap = _neural_scorer(family, detail, lang, entries, settings, model, nltk_data)
        batches = evidence_batches(engine, evidence, entries, BATCH_ROWS[family], cap=cap, seed=settings.get("seed", 0))
        scores, covered, ratio = stream_scores(entries, batches, score_batch, floor, progress)
    log.info(
        "%s on %s: deduplication ratio %.2f; %d of %d entries scored from evidence (coverage %.3f)",
        method,
        lang,
        ratio,
        covered.sum(),
        len(entries),
        covered.mean() if len(entries) else float("nan"),
    )
    return pd.DataFrame(
        {"entry": entries["id"], "label": entries["label"].astype("int8"), "score": scores, "group": entries["bundle_id"], "covered": covered}
    )


def _neural_scorer(family: str, detail, lang: str, entries: pd.DataFrame, settings: dict, model, nltk_data):
    """(score a batch of evidence, the method's lowest score, its evidence cap per entry or None) of an LM, S&S or LLM
    method."""
    if family == "lm":
        encoder, lemmatize = lm_encoder(model, settings["lm_pooling"], nltk_data)
        return (lambda batch: lm_cosine(entries, batch, encoder, lang, detail, window=settings["lm_window"], lemmatize=lemmatize)), -1.0, None
    if family == "llm":
        from ..llm.prompts import PromptSetting
        from ..llm.scorer import llm_scorer

        scorer = llm_scorer(
            model, precision=settings["precision"], batch_size=settings["batch_size"], rule=settings.get("answer_rule", "probability")
        )
        return (lambda batch: llm_model(entries, batch, scorer, PromptSetting(shots=detail))), 0.0, None
    from ..sns.model import PromptScorer

    scorer = PromptScorer(
        model, max_length=settings["max_length"], symmetric=settings.get("sym_sns_prompts") == "symmetric", lang=lang, precision=settings["precision"]
    )
    cap = settings["evidence_cap_ss_zh"] if lang == "zh" else None  # the paper capped S&S evidence for Chinese
    return (lambda batch: prompt_model(entries, batch, scorer, lang)), 0.0, cap
