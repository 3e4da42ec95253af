"""What Table 3's hypothesis-only models rank BoOQA by: WordNet depth and frequency (tables.generality).

Every expected value below is worked out by hand from the definitions in the module docstring."""

from __future__ import annotations

import pandas as pd
import pytest

from directional_inference.errors import InputFormatError
from directional_inference.levyholt.entries import TRUE_PREMISE, Entry
from directional_inference.levyholt.scores import write_scores
from directional_inference.resources.wordnet import open_wordnet
from directional_inference.tables.generality import HEADER, generality_cells, generality_rows, predicate_depth

# bundle, predicate, label, score, depth, frequency
ROWS = [
    ("g1", "acquire", True, 0.9, 0, 10),
    ("g1", "buy", False, 0.2, 1, 5),
    ("g1", "snap up", False, 0.95, 2, 20),
    ("g2", "walk", True, 0.5, 2, 3),
    ("g2", "go", False, 0.4, 1, 3),
    ("g2", "zzz", False, 0.1, None, 8),
    ("g3", "say", True, 0.3, 1, 7),
    ("g3", "state", False, 0.3, 1, 6),  # tied with its positive: in no pair
]


def entries() -> pd.DataFrame:
    return pd.DataFrame([{"group": g, "label": y, "score": s, "depth": d, "frequency": f} for g, _, y, s, d, f in ROWS])


def cells() -> dict:
    return dict(zip(HEADER[HEADER.index("entries") : HEADER.index("model")], generality_cells(entries())))


def test_depths_and_their_correlation_with_the_score():
    c = cells()
    assert (c["entries"], c["entries_with_depth"]) == (8, 7)
    # positives 0, 2, 1; negatives with a depth 1, 2, 1, 1
    assert (c["depth_positives"], c["depth_negatives"]) == ("1.00", "1.25")
    # score ranks 6, 1, 7, 5, 4, 2.5, 2.5 and depth ranks 1, 3.5, 6.5, 6.5, 3.5, 3.5, 3.5 (mean 4 each):
    # rho = 7 / sqrt(27.5 * 22.5)
    assert c["spearman_score_depth"] == "0.281"


def test_pair_shares():
    c = cells()
    # pairs with different scores: (acquire, buy), (acquire, snap up), (walk, go), (walk, zzz); say / state tie
    assert c["pairs"] == 4
    # with both depths known and different: the first three; the negative is deeper in (acquire, buy), (acquire, snap up)
    assert (c["depth_pairs"], c["negative_deeper"]) == (3, "66.7")
    # positive higher in (acquire, buy) and (walk, go); 2 of 3 is p = 1 two-sided
    assert (c["positive_above"], c["positive_above_p"]) == ("66.7", "1")
    # the shallower one higher only in (acquire, buy): snap up and walk are the deeper ones and score higher
    assert c["shallower_above"] == "33.3"
    # s = 1/3, d = 2/3: 1/3 * 2/3 + 2/3 * 1/3 = 4/9
    assert c["positive_above_if_depth_only"] == "44.4"
    # different frequencies: (acquire, buy) and (acquire, snap up) the more frequent scores higher, (walk, zzz) not
    assert (c["frequency_pairs"], c["more_frequent_above"]) == (3, "66.7")


def test_a_one_sided_preference_gets_a_small_p():
    frame = pd.DataFrame(
        [{"group": f"g{k}", "label": y, "score": s, "depth": d, "frequency": 1} for k in range(10) for y, s, d in ((True, 0.9, 0), (False, 0.1, 1))]
    )
    c = dict(zip(HEADER[HEADER.index("entries") : HEADER.index("model")], generality_cells(frame)))
    # 10 of 10: p = 2 / 2**10
    assert (c["shallower_above"], c["shallower_above_p"]) == ("100.0", "0.00195")
    assert c["frequency_pairs"] == 0 and c["more_frequent_above"] == ""


def _hypotheses():
    return [Entry(TRUE_PREMISE, ("thing", pred, "thing"), y, g) for g, pred, y, *_ in ROWS]


def test_rows_join_score_files_with_the_test_set(tmp_path):
    path = tmp_path / "directional.parquet"
    write_scores(path, _hypotheses(), [s for *_, s, _, _ in ROWS], groups=[g for g, *_ in ROWS])
    depth = {pred: d for _, pred, _, _, d, _ in ROWS}.get
    frequency = {(g, pred): f for g, pred, *_, f in ROWS}
    [row] = generality_rows(_hypotheses(), {"directional": str(path)}, frequency, depth, model="minilm", scale="smoke")
    assert row[:2] == ["LevyHolt Directional", "BoOQA EN (test)"] and row[-3:] == ["minilm", "smoke", ""]
    assert row[2 : HEADER.index("model")] == generality_cells(entries())


def test_a_score_file_of_another_test_set_is_named(tmp_path):
    path = tmp_path / "full.parquet"
    flipped = [Entry(e.premise, e.hypothesis, not e.label, e.subgroup) if k == 2 else e for k, e in enumerate(_hypotheses())]
    write_scores(path, flipped, [0.5] * len(ROWS), groups=[g for g, *_ in ROWS])
    with pytest.raises(InputFormatError, match=r"full\.parquet, line 3, field 'label'"):
        generality_rows(_hypotheses(), {"full": str(path)}, {}, lambda p: None, model="minilm", scale="smoke")


def test_predicate_depth_in_princeton_wordnet(nltk_data):
    wordnet = open_wordnet(nltk_data)
    # buy.v.01 has the root get.v.01 as hypernym; "be" and "by" are function words (be.v.01 is a root: depth 0)
    assert predicate_depth("be bought by", wordnet) == 1
    # move's first verb sense is the root travel.v.01; walk.v.01 is its hyponym
    assert predicate_depth("move", wordnet) == 0 and predicate_depth("walk to", wordnet) == 1
    assert predicate_depth("walk move", wordnet) == 0
    assert predicate_depth("of", wordnet) is None and predicate_depth("xyzzy", wordnet) is None
