"""BoOQA scorers over evidence: LM cosine, S&S prompt model and entailment-graph lookup with fuzzy back-off."""

from __future__ import annotations

import math

import os

import numpy as np
import pandas as pd
import pytest

from directional_inference.evaluation.scoring import graph_scores, lm_cosine, predicate_offsets, prompt_model, sentence_window

ENTRIES = pd.DataFrame(
    [
        {
            "id": "e1",
            "subj": "apple",
            "pred": "own",
            "obj": "beats",
            "subj_type": "organization",
            "obj_type": "organization",
            "proposition": "apple own beats",
        },
        {
            "id": "e2",
            "subj": "apple",
            "pred": "sue",
            "obj": "beats",
            "subj_type": "organization",
            "obj_type": "organization",
            "proposition": "apple sue beats",
        },
        {"id": "e3", "subj": "x", "pred": "visit", "obj": "y", "subj_type": "person", "obj_type": "location", "proposition": "x visit y"},
    ]
)
EVIDENCE = pd.DataFrame(
    [
        {"entry": "e1", "pred": "acquire", "subj": "apple", "obj": "beats", "aligned": True, "sentence": "Apple acquired Beats."},
        {"entry": "e1", "pred": "join", "subj": "beats", "obj": "apple", "aligned": False, "sentence": "Beats joined Apple."},
        {"entry": "e2", "pred": "acquire", "subj": "apple", "obj": "beats", "aligned": True, "sentence": "Apple acquired Beats."},
    ]
)


def fake_encode(texts, spans=None):
    """Bag of characters, normalised: similar strings get high cosine."""
    vectors = np.zeros((len(texts), 128))
    for row, text in enumerate(texts):
        for char in text:
            vectors[row, ord(char) % 128] += 1
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_lm_cosine_takes_the_max_and_floors_entries_without_evidence():
    scores, ratio = lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en")
    expected_e1 = max(
        float(fake_encode(["apple acquire beats"])[0] @ fake_encode(["apple own beats"])[0]),
        float(fake_encode(["beats join apple"])[0] @ fake_encode(["apple own beats"])[0]),
    )
    assert scores[0] == pytest.approx(expected_e1) and scores[2] == -1.0
    assert ratio == 1.0
    sentence_scores, _ = lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en", retrieval="sent")
    assert sentence_scores[0] != pytest.approx(scores[0])
    # tfidf evidence is a bare sentence per row: it is compared as a sentence
    tfidf = pd.DataFrame([{"entry": "e1", "article_id": "a1", "sentence": "apple own beats"}])
    tfidf_scores, _ = lm_cosine(ENTRIES, tfidf, fake_encode, "en", retrieval="tfidf")
    assert list(tfidf_scores) == pytest.approx([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match="retrieval"):
        lm_cosine(ENTRIES, EVIDENCE, fake_encode, "en", retrieval="bm25")


def test_rel_texts_carry_the_predicate_span_and_sentences_none():
    seen = []

    def recording(texts, spans):
        seen.extend(zip(texts, spans))
        return fake_encode(texts)

    lm_cosine(ENTRIES, EVIDENCE, recording, "en")
    spans = dict(seen)
    assert spans["apple acquire beats"] == (6, 13) and "apple acquire beats"[6:13] == "acquire"
    assert spans["beats join apple"] == (6, 10) and spans["apple own beats"] == (6, 9)
    chinese = pd.Series(["阿里巴巴"]), pd.Series(["收购"])
    assert predicate_offsets(*chinese, "zh") == [(4, 6)]
    seen.clear()
    lm_cosine(ENTRIES, EVIDENCE, recording, "en", retrieval="sent")
    assert dict(seen)["Apple acquired Beats."] == (0, 0)  # a sentence has no predicate span


def test_long_sentences_are_cut_around_the_argument_mentions():
    words = [f"w{k}" for k in range(20)]
    words[3], words[10], words[11], words[14] = "Apple", "Beats,", "Inc.", "Apple"  # "Beats," at 10; Apple at 3 and 14
    sentence = " ".join(words)
    # closest mentions: Beats at 10 and Apple at 14 -> middle 12 -> tokens 9..14 for a window of 6
    assert sentence_window(sentence, "apple", "beats", "en", 6) == " ".join(words[9:15])
    assert sentence_window(sentence, "apple", "nothing", "en", 6) == " ".join(words[:6])  # an argument not found: the start
    assert sentence_window(sentence, "apple", "beats", "en", 30) == sentence  # short enough: whole
    lemmas = sentence_window("the firms " + " ".join(words), "firm", "apple", "en", 6, lemmatize=lambda w: w.rstrip("s"))
    assert lemmas.split()[0:2] == ["the", "firms"]  # "firms" matches "firm" through the lemmatiser; Apple at 5 -> middle 3
    # Chinese counts characters: subject at 10, object at 16 (mention starts, as the authors) -> middle 13 -> 9..16
    assert sentence_window("甲" * 10 + "阿里巴巴收购网易" + "乙" * 10, "阿里巴巴", "网易", "zh", 8) == "甲阿里巴巴收购网"
    # tfidf sentences keep their first tokens
    tfidf = pd.DataFrame([{"entry": "e1", "article_id": "a1", "sentence": sentence}])
    seen = []
    lm_cosine(ENTRIES, tfidf, lambda texts, spans: (seen.extend(texts), fake_encode(texts))[1], "en", retrieval="tfidf", window=4)
    assert " ".join(words[:4]) in seen


def test_span_mean_pools_the_predicate_word_pieces(tmp_path):
    import torch
    from transformers import AutoModel, AutoTokenizer

    from directional_inference.encoders import SentenceEncoder
    from directional_inference.resources.models import build_tiny_model

    model_dir = build_tiny_model(
        {"hidden_size": 16, "layers": 1, "heads": 2, "vocab_size": 200}, ["apple acquire beats", "beats join apple"], tmp_path / "tiny", seed=1
    )
    text, span = "apple acquire beats", (6, 13)
    pooled = SentenceEncoder(model_dir, pooling="span_mean")([text], [span])[0]
    tokenizer, model = AutoTokenizer.from_pretrained(model_dir), AutoModel.from_pretrained(model_dir).eval()
    batch = tokenizer([text], return_offsets_mapping=True, return_tensors="pt")
    offsets = batch.pop("offset_mapping")[0].tolist()
    rows = [k for k, (a, b) in enumerate(offsets) if b > a and a < span[1] and b > span[0]]
    assert rows and all(text[offsets[k][0] : offsets[k][1]] in "acquire" for k in rows)  # the predicate's pieces, nothing else
    with torch.no_grad():
        expected = torch.nn.functional.normalize(model(**batch).last_hidden_state[0, rows].mean(0), dim=-1).numpy()
    assert np.allclose(pooled, expected, atol=1e-6)
    cls = SentenceEncoder(model_dir, pooling="cls")([text])[0]
    assert not np.allclose(pooled, cls, atol=1e-3)
    with pytest.raises(ValueError, match="span"):
        SentenceEncoder(model_dir, pooling="span_mean")([text])


class FixedScorer:
    """Stands in for an S&S model: s = +0.8 for (acquire -> own), -0.6 otherwise; counts the pairs it sees."""

    def __init__(self):
        self.seen = 0

    def scores(self, items, batch_size):
        self.seen += len(items)
        return np.array([0.8 if (i.premise[1], i.hypothesis[1]) == ("acquire", "own") else -0.6 for i in items])


def test_prompt_model_scores_unique_pairs_once():
    doubled = pd.concat([EVIDENCE, EVIDENCE.iloc[:1]], ignore_index=True)
    scorer = FixedScorer()
    scores, ratio = prompt_model(ENTRIES, doubled, scorer, "en")
    assert scorer.seen == 3 and ratio == pytest.approx(4 / 3)
    assert list(scores) == pytest.approx([0.9, 0.2, 0.0])  # (s + 1) / 2; no evidence -> 0


GRAPH = pd.DataFrame(
    [
        {"premise": "acquire", "hypothesis": "own", "subj_type": "organization", "obj_type": "organization", "reversed": False, "binc": 0.7},
        {"premise": "join", "hypothesis": "own", "subj_type": "organization", "obj_type": "organization", "reversed": True, "binc": 0.9},
        {"premise": "join", "hypothesis": "own", "subj_type": "organization", "obj_type": "organization", "reversed": False, "binc": 0.2},
        {"premise": "acquire", "hypothesis": "sue", "subj_type": "person", "obj_type": "organization", "reversed": False, "binc": 0.3},
    ]
)


def test_graph_typed_lookup_follows_the_evidence_argument_order(engine):
    # e1 = own(apple, beats): acquire(apple, beats) is aligned -> acquire -> own, 0.7; join(beats, apple) is reversed ->
    # join(y, x) -> own(x, y), 0.9 (not join(x, y) -> own(x, y), 0.2); e2 = sue(apple, beats) has no organization edge
    scores, ratio = graph_scores(engine, ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy="none")
    assert list(scores) == pytest.approx([0.9, 0.0, 0.0]) and ratio == 1.0
    aligned_only = GRAPH[~GRAPH["reversed"]]
    assert list(graph_scores(engine, ENTRIES, EVIDENCE, aligned_only, "binc", fuzzy="none")[0]) == pytest.approx([0.7, 0.0, 0.0])


def test_fuzzy_backoff_modes(engine):
    # the authors' back-off keeps the typing: a local graph's nodes are surface strings, so nothing changes
    same, _ = graph_scores(engine, ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy="same_type_pair")
    assert list(same) == pytest.approx([0.9, 0.0, 0.0])
    # any type pair and argument order: acquire -> sue exists for person#organization only
    anywhere, _ = graph_scores(engine, ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy="any_type_pair")
    assert list(anywhere) == pytest.approx([0.9, 0.3, 0.0])
    with pytest.raises(ValueError, match="fuzzy"):
        graph_scores(engine, ENTRIES, EVIDENCE, GRAPH, "binc", fuzzy="yes")


def test_same_type_pair_backoff_over_role_labelled_nodes(engine):
    """Published graphs name nodes by CCG predicates: the back-off grounds surface strings in every node with that
    surface under the same typing (top nodes by count, each seen 3 times)."""
    graph = pd.DataFrame(
        [
            # acquire -> own through two role variants of "acquire"; the second is too rare to count
            {
                "premise": "(acquire.1,acquire.2)",
                "hypothesis": "(own.1,own.2)",
                "premise_surface": "acquire",
                "hypothesis_surface": "own",
                "subj_type": "organization",
                "obj_type": "organization",
                "reversed": False,
                "binc": 0.4,
                "premise_count": 10,
                "hypothesis_count": 8,
            },
            {
                "premise": "(acquire.2,acquire.1)",
                "hypothesis": "(own.1,own.2)",
                "premise_surface": "acquire",
                "hypothesis_surface": "own",
                "subj_type": "organization",
                "obj_type": "organization",
                "reversed": False,
                "binc": 0.8,
                "premise_count": 2,
                "hypothesis_count": 8,
            },
            # the same strings under another type pair: not used by the authors' rule
            {
                "premise": "(acquire.1,acquire.2)",
                "hypothesis": "(sue.1,sue.2)",
                "premise_surface": "acquire",
                "hypothesis_surface": "sue",
                "subj_type": "person",
                "obj_type": "organization",
                "reversed": False,
                "binc": 0.3,
                "premise_count": 10,
                "hypothesis_count": 8,
            },
        ]
    )
    scores, _ = graph_scores(engine, ENTRIES, EVIDENCE, graph, "binc", fuzzy="same_type_pair")
    assert list(scores) == pytest.approx([0.4, 0.0, 0.0])
    assert list(graph_scores(engine, ENTRIES, EVIDENCE, graph, "binc", fuzzy="same_type_pair", fuzzy_min_count=2)[0]) == pytest.approx(
        [0.8, 0.0, 0.0]
    )
    assert list(graph_scores(engine, ENTRIES, EVIDENCE, graph, "binc", fuzzy="any_type_pair")[0]) == pytest.approx([0.8, 0.3, 0.0])
    assert list(graph_scores(engine, ENTRIES, EVIDENCE, graph, "binc", fuzzy="none")[0]) == pytest.approx([0.0, 0.0, 0.0])


def test_reversed_evidence_in_an_induced_same_type_graph(engine):
    """beat(a, b), beat(c, d), beat(e, f); lose to(b, a), lose to(d, c): "x beat y" should entail "y lose to x".

    Nodes of the person#person graph (pairs in the node's orientation): beat_12 {ab, cd, ef}, beat_21 {ba, dc, fe},
    lose to_12 {ba, dc}, lose to_21 {ab, cd}; N = 10, pair totals 2 (ef, fe: 1), node totals 3, 3, 2, 2.
    PMI(beat, shared pair) = ln(1/10 * 10/3 * 10/2) = ln(5/3), PMI(beat, ef) = ln(10/3), PMI(lose to, pair) = ln(5/2).
    beat_21 -> lose to_12 (reversed): I_p = 2 ln(5/3), S_p = 2 ln(5/3) + ln(10/3), I_q = S_q = 2 ln(5/2)."""
    from directional_inference.graphs import build_graphs

    rows = [("a", "beat", "b"), ("c", "beat", "d"), ("e", "beat", "f"), ("b", "lose to", "a"), ("d", "lose to", "c")]
    relations = pd.DataFrame([{"window": "w", "subj": s, "pred": p, "obj": o, "subj_type": "person", "obj_type": "person"} for s, p, o in rows])
    graph = build_graphs(engine, relations, min_arg_pairs=1, min_predicates=1)
    i_p, s_p, i_q = 2 * math.log(5 / 3), 2 * math.log(5 / 3) + math.log(10 / 3), 2 * math.log(5 / 2)
    lin = (i_p + i_q) / (s_p + i_q)
    edges = graph.set_index(["premise", "hypothesis", "reversed"])["binc"]
    assert edges[("beat", "lose to", True)] == pytest.approx(math.sqrt(lin * i_p / s_p))
    assert edges[("lose to", "beat", True)] == pytest.approx(math.sqrt(lin * 1.0))  # every pair of lose to is shared
    assert ("beat", "lose to", False) not in edges.index  # beat(x, y) never co-occurs with lose to(x, y)
    entries = pd.DataFrame([{"id": "q", "subj": "y", "pred": "lose to", "obj": "x", "subj_type": "person", "obj_type": "person"}])
    reversed_evidence = pd.DataFrame([{"entry": "q", "pred": "beat", "subj": "x", "obj": "y", "aligned": False, "sentence": ""}])
    aligned_evidence = reversed_evidence.assign(subj="y", obj="x", aligned=True)
    assert graph_scores(engine, entries, reversed_evidence, graph, "binc")[0][0] == pytest.approx(math.sqrt(lin * i_p / s_p))
    assert graph_scores(engine, entries, aligned_evidence, graph, "binc")[0][0] == 0.0  # "y beat x" does not support "y lose to x"


def test_coverage_counts_entries_scored_from_evidence_not_by_default(engine, tmp_path):
    from directional_inference.evaluation.scoring import evidence_batches, graph_covered, stream_scores

    EVIDENCE.to_parquet(tmp_path / "evidence.parquet", index=False)
    # e1 has two pieces of evidence, e2 one, e3 none (ENTRIES / EVIDENCE above)
    batches = evidence_batches(engine, tmp_path / "evidence.parquet", ENTRIES, 10)
    scores, has_evidence, _ = stream_scores(ENTRIES, batches, lambda batch: lm_cosine(ENTRIES, batch, fake_encode, "en"), -1.0)
    assert list(has_evidence) == [True, True, False] and scores[2] == -1.0
    # a graph scores an entry only where its evidence found an edge of positive weight
    assert list(graph_covered(np.array([0.7, 0.0, 0.0]))) == [True, False, False]


def random_entries_and_evidence(seed: int, entries: int, rows: int, path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``entries`` entries over one argument pair and ``rows`` pieces of evidence spread over them at random, the
    evidence written to ``path``."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "id": [f"e{k:03d}" for k in range(entries)],
            "subj": "apple",
            "pred": rng.choice(["own", "sue", "buy"], entries),
            "obj": "beats",
            "subj_type": "organization",
            "obj_type": "organization",
        }
    )
    evidence = pd.DataFrame(
        {
            "entry": rng.choice(frame["id"], rows),
            "pred": rng.choice(["acquire", "join", "sell", "meet"], rows),
            "subj": "apple",
            "obj": "beats",
            "aligned": rng.random(rows) < 0.5,
            "sentence": "",
        }
    )
    evidence.to_parquet(path, index=False)
    return frame, evidence


def test_scoring_in_batches_and_chunks_of_entries_changes_no_score(engine, tmp_path):
    from directional_inference.evaluation.scoring import entry_chunk, evidence_batches, stream_scores

    entries, evidence = random_entries_and_evidence(3, 40, 300, tmp_path / "evidence.parquet")

    def scored(part_entries, rows, cap=None):
        batches = evidence_batches(engine, tmp_path / "evidence.parquet", part_entries, rows, cap=cap, seed=5)
        return stream_scores(part_entries, batches, lambda batch: lm_cosine(part_entries, batch, fake_encode, "en"), -1.0)[0]

    whole = scored(entries, 10_000)
    assert np.array_equal(whole, lm_cosine(entries, evidence, fake_encode, "en")[0])  # one batch: the scorer itself
    assert np.array_equal(scored(entries, 7), whole)  # batches of 7 rows
    parts = [entry_chunk(entries, k, 3) for k in range(3)]
    assert sum(len(p) for p in parts) == len(entries) and np.array_equal(np.concatenate([scored(p, 7) for p in parts]), whole)
    # a cap per entry is the same choice whichever job reads the entry
    capped = scored(entries, 10_000, cap=2)
    assert np.array_equal(np.concatenate([scored(p, 5, cap=2) for p in parts]), capped) and not np.array_equal(capped, whole)


def test_a_scoring_stopped_midway_resumes_after_its_saved_batches_with_the_same_scores(engine, tmp_path):
    """A scoring job stopped at its time limit after 3 of its batches resumes at the 4th: the saved batches are not
    scored again, and the scores and the deduplication ratio are those of an uninterrupted run. Progress saved by other
    inputs or settings (another signature) is not resumed."""
    from directional_inference.resume import ScoringProgress
    from directional_inference.evaluation.scoring import evidence_batches, stream_scores

    entries, _ = random_entries_and_evidence(4, 30, 60, tmp_path / "evidence.parquet")
    scored: list[int] = []

    def score_batch(batch):
        scored.append(len(batch))
        if len(scored) == 4 and stop:
            raise TimeoutError("the job's time limit")
        return lm_cosine(entries, batch, fake_encode, "en")

    def run(progress):
        return stream_scores(entries, evidence_batches(engine, tmp_path / "evidence.parquet", entries, 10), score_batch, -1.0, progress)

    stop = False
    uninterrupted = run(None)
    assert len(scored) == 6  # 60 rows in batches of 10
    path = tmp_path / "progress" / "part-0.npz"
    stop, scored = True, []
    with pytest.raises(TimeoutError):
        run(ScoringProgress(path, "inputs-a", every_s=0))
    assert path.is_file()
    stop, scored = False, []
    resumed = run(ScoringProgress(path, "inputs-a", every_s=0))
    assert len(scored) == 3  # batches 4-6 only
    assert np.array_equal(resumed[0], uninterrupted[0]) and np.array_equal(resumed[1], uninterrupted[1]) and resumed[2] == uninterrupted[2]
    scored = []
    run(ScoringProgress(path, "inputs-b", every_s=0))
    assert len(scored) == 6  # another signature: every batch again


def test_a_changed_input_file_changes_the_signature_and_its_saved_progress_is_not_resumed(tmp_path):
    """The signature reads the files: the same settings and paths give another signature once a file under an input
    is rewritten (another size), touched (same bytes, another time) or added to an input folder; progress saved under
    the old one is then not resumed."""
    from directional_inference.resume import ScoringProgress, ScoringState, input_signature

    evidence, model = tmp_path / "evidence.parquet", tmp_path / "model"
    evidence.write_bytes(b"rows")
    model.mkdir()
    (model / "weights.bin").write_bytes(b"w")
    settings, inputs = {"lm_pooling": "cls"}, [evidence, model]
    before = input_signature(settings, inputs)
    assert input_signature(settings, inputs) == before
    path = tmp_path / "progress.npz"
    ScoringProgress(path, before).save(ScoringState(2, np.zeros(3), np.zeros(3, dtype=bool), 4.0, 2.0), force=True)
    assert ScoringProgress(path, before).load(3).batches == 2
    stat = evidence.stat()
    os.utime(evidence, ns=(stat.st_atime_ns, stat.st_mtime_ns - 10**9))  # touched: same bytes
    touched = input_signature(settings, inputs)
    evidence.write_bytes(b"other rows")
    rewritten = input_signature(settings, inputs)
    (model / "tokenizer.json").write_text("{}")
    added = input_signature(settings, inputs)
    assert len({before, touched, rewritten, added}) == 4
    assert ScoringProgress(path, added).load(3) is None


def test_an_llm_scores_each_entry_by_its_best_piece_of_evidence(tmp_path):
    """The LLM row of Table 5: each (evidence relation, entry) pair asked with the 2023 prompt, the entry's score the
    best of its evidence, 0 without evidence; here with a tiny random causal LM."""
    from directional_inference.evaluation.scoring import llm_model
    from directional_inference.levyholt.entries import Entry
    from directional_inference.llm.models import build_tiny_llm, load_llm, prompt_texts
    from directional_inference.llm.prompts import PromptSetting
    from directional_inference.llm.scorer import CausalLMScorer

    model, tokenizer = load_llm(build_tiny_llm({}, ["apple acquire beats", "beats join apple"] + prompt_texts(), tmp_path / "llm", seed=0))
    scorer, setting = CausalLMScorer(model, tokenizer), PromptSetting()
    scores, _ = llm_model(ENTRIES, EVIDENCE, scorer, setting)
    alone = [
        scorer.scores([Entry((r.subj, r.pred, r.obj), ("apple", "own", "beats") if r.entry == "e1" else ("apple", "sue", "beats"), False)], setting)[
            0
        ]
        for r in EVIDENCE.itertuples()
    ]
    assert list(scores) == pytest.approx([max(alone[0], alone[1]), alone[2], 0.0], abs=1e-6)
