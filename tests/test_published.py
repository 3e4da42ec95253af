"""The authors' published choices (sns/published.py, sns/data/published_choices.tsv): the table against the README of
their BoOQA code, the trials a search plans under training.search, and how a selection says whose choice a model is."""

from __future__ import annotations

from pathlib import Path

import pytest

from directional_inference.errors import InputFormatError
from directional_inference.sns.published import (
    CHOICES_TABLE,
    PublishedChoice,
    describe_selection,
    parse_choices,
    planned_trials,
    published_choice,
    published_choices,
    readme_rows,
    selection_origin,
)

TABLE = Path(__file__).resolve().parents[1] / "src" / "directional_inference" / "sns" / CHOICES_TABLE
PIN = "@" + "0" * 40


@pytest.fixture(scope="module")
def readme(mirrors) -> Path:
    """booqa-authors/README.md as fetched (the mirror's verified copy)."""
    from directional_inference.resources.fetch import find_in_mirrors
    from directional_inference.resources.inputs import inputs_of

    (item,) = inputs_of("booqa-authors")
    found = find_in_mirrors(item, mirrors)
    assert found is not None, "no mirror holds booqa-authors/README.md"
    return found


def test_the_table_is_the_readmes_rows_and_names_its_source(readme):
    """Every S&S row of the README's evaluation section (the commented-out copies left out) is a row of the table, with
    its trial and epoch, and the table names the README's pinned URL, the input table's."""
    from directional_inference.resources.inputs import inputs_of

    assert readme_rows(readme) == list(published_choices())
    (item,) = inputs_of("booqa-authors")
    assert f"# Source: {item.url} " in TABLE.read_text(encoding="utf-8")


def test_the_published_trials_and_epochs_typed_from_the_readme():
    """From the README's checkpoint paths: levyholt_en_dirp_29/checkpointepoch=4, endir_levyholt_63/...=4,
    ensym_all_levyholt_41/...=4; large 57 / 36 / 51 at epochs 4 / 4 / 3; Chinese 63 / 5 / 36 at 4 / 1 / 3."""
    got = {(c.model, c.subset): (c.search, c.trial, c.epoch) for c in published_choices()}
    assert got == {
        ("roberta-base", "full"): ("levyholt_en_dirp", 29, 4),
        ("roberta-base", "directional"): ("endir_levyholt", 63, 4),
        ("roberta-base", "symmetric"): ("ensym_all_levyholt", 41, 4),
        ("roberta-large", "full"): ("levyholt_en_large", 57, 4),
        ("roberta-large", "directional"): ("endir_levyholt_large", 36, 4),
        ("roberta-large", "symmetric"): ("ensym_all_levyholt_large", 51, 3),
        ("xlm-roberta-base", "zh_full"): ("levyholt_raw_raw", 63, 4),
        ("xlm-roberta-base", "zh_directional"): ("levyholt_zhdir_raw", 5, 1),
        ("xlm-roberta-base", "zh_symmetric"): ("levyholt_zhsym_all_raw", 36, 3),
    }
    assert {c.variant for c in published_choices()} == {"sns"}  # 'S&S Full (symmetric prompts) has no published choice


def test_a_readme_row_this_reading_does_not_know_is_named(readme, tmp_path):
    changed = tmp_path / "README.md"
    changed.write_text(
        readme.read_text(encoding="utf-8").replace("checkpoints_enr/levyholt_en_large/", "checkpoints_enbert/levyholt_en_large/", 1), encoding="utf-8"
    )
    with pytest.raises(InputFormatError, match=r"README.md, line \d+: an S&S row this reading does not know: S&S large full LevyHolt in enbert"):
        readme_rows(changed)


def test_a_bad_table_row_is_named_with_its_line_and_field(tmp_path):
    text = TABLE.read_text(encoding="utf-8")
    (tmp_path / "bad.tsv").write_text(text.replace("levyholt_en_dirp\t29\t4", "levyholt_en_dirp\tx29\t4"), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"bad.tsv, line 10, field 'trial': not an integer: 'x29'"):
        parse_choices(tmp_path / "bad.tsv")
    (tmp_path / "twice.tsv").write_text(text + text.splitlines()[9] + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match="more than one row for roberta-base/sns/full"):
        parse_choices(tmp_path / "twice.tsv")


def test_a_published_search_plans_the_authors_trial_alone_and_the_others_their_search():
    assert planned_trials("published", "roberta-base", "roberta-base" + PIN, "sns", "full", 100) == [29]
    assert planned_trials("published", "roberta-base", "roberta-base", "sns", "directional", 100) == [63]
    assert planned_trials("published", "roberta-large", "roberta-large" + PIN, "sns", "symmetric", 100) == [51]
    assert planned_trials("published", "xlm-roberta-base", "xlm-roberta-base" + PIN, "sns", "zh_full", 100) == [63]
    assert planned_trials("published", "roberta-base", "roberta-base" + PIN, "sns_sym", "full", 100) == list(range(100))  # 'S&S Full
    assert planned_trials("published", "roberta-base", "roberta-base", "hyponly", "full", 3) == [0, 1, 2]
    assert planned_trials("published", "bert-base", "bert-base-uncased", "sns", "full", 2) == [0, 1]
    assert planned_trials("full", "roberta-base", "roberta-base", "sns", "full", 100) == list(range(100))
    # another model under the authors' alias is not theirs; a tiny model built for the tests stands in under it
    assert published_choice("roberta-base", "distilroberta-base", "sns", "full") is None
    assert published_choice("roberta-base", {"tiny": {"architecture": "bert"}}, "sns", "full").trial == 29


def row(**values):
    base = {
        "trial": 29,
        "best_epoch": 4,
        "trial_source": "authors",
        "chosen_by": "published",
        "published_search": "levyholt_en_dirp",
        "published_epoch": 4,
        "epochs": 5,
        "best_in_published_epoch": 1,
    }
    return {**base, **values}


def test_a_selection_says_whose_choice_the_model_is_in_the_tables_epochs():
    # the records' epochs count from 0 (the authors' checkpoint epoch=4 is the fifth of 5); the text counts from 1
    assert describe_selection(row(), [29]) == (
        "the authors' published choice: their trial 29 of levyholt_en_dirp, published epoch 5 of 5 "
        "(their checkpoint's epoch=4); best dev point here in epoch 5, the published epoch"
    )
    assert describe_selection(row(best_epoch=2), [29]).endswith("best dev point here in epoch 3, not the published epoch")
    assert describe_selection(row(chosen_by="dev_auc", trial=17), list(range(100))) == (
        "this workflow's selection: trial 17 of the authors' trials 0-99 (100), by its best dev AUC"
    )
    assert describe_selection({"trial": 0, "best_epoch": 1}, [0]) is None  # this workflow's own seeded trials: no wording added


def test_the_selection_origin_follows_the_trial_source_and_the_mode():
    assert selection_origin("seeded", "full", "roberta-base", "roberta-base", "sns", "full", 5) is None
    assert selection_origin("authors", "full", "roberta-base", "roberta-base", "sns", "full", 5) == {
        "trial_source": "authors",
        "epochs": 5,
        "published": None,
    }
    assert selection_origin("authors", "published", "roberta-base", "roberta-base", "sns", "full", 5) == {
        "trial_source": "authors",
        "epochs": 5,
        "published": {"search": "levyholt_en_dirp", "trial": 29, "epoch": 4},
    }
    assert isinstance(published_choices()[0], PublishedChoice)
