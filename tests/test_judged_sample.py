"""The committed judged sample of BoOQA positives (issue 12): its shape, and the claim that at least 80% of the
positives of each language are well-formed propositions whose arguments are the predicate's real arguments."""

from __future__ import annotations

import importlib.util

from conftest import REPO

JUDGED = REPO / "benchmarks" / "results" / "judged_positives.tsv"


def _judged():
    spec = importlib.util.spec_from_file_location("judged_sample", REPO / "benchmarks" / "judged_sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, module.read_judged(JUDGED)


def test_judged_sample_has_the_drawn_shape():
    module, frame = _judged()
    header = [line for line in JUDGED.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
    assert any("seed" in line for line in header) and any("positives.parquet" in line for line in header)
    assert list(frame.columns) == module.COLUMNS
    assert frame.groupby("lang").size().to_dict() == {"en": 100, "zh": 100}
    assert frame["id"].is_unique and frame["id"].str.startswith(tuple(f"{lang}-" for lang in frame["lang"])).all()
    assert set(frame["judgement"]) <= {"yes", "no"}
    for row in frame.itertuples():
        assert row.subj and row.pred and row.obj and row.sentence, f"{JUDGED}: row {row.id} has an empty field"
        if row.judgement == "no":
            assert row.reason.strip(), f"{JUDGED}: row {row.id} is judged no without a reason"
        if row.lang == "zh":  # the arguments are spans of the sentence (quote marks aside)
            plain = row.sentence.translate(str.maketrans("", "", "“”《》「」『』‘’"))
            assert row.subj in plain and row.obj in plain, f"{JUDGED}: row {row.id}: an argument is not in its sentence"


def test_at_least_80_percent_of_each_language_is_well_formed():
    module, frame = _judged()
    rates = module.rates(frame)
    assert set(rates) == {"en", "zh"}
    assert all(rate >= 0.8 for rate in rates.values()), rates
