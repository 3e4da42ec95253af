"""The run's design (workflow/run_design.py) from a config alone, without Snakemake: each value derived by hand from the
config's keys and the paper's tables (which models each table trains, which BoOQA method runs for which language)."""

from __future__ import annotations

import copy

import pytest
from conftest import REPO
from snakemake.iocontainers import Wildcards

from directional_inference.config_tree import run_config
from directional_inference.layout import booqa_scores
from directional_inference.workflow.run_design import RunDesign, alias_pattern


@pytest.fixture(scope="module")
def default():
    return run_config([], REPO)


def test_the_default_trains_one_model_for_every_table_and_scores_english_booqa_with_every_method(default):
    design = RunDesign(default)
    assert default["training"]["language_models"] == ["minilm"] and design.main_lm == "minilm"
    assert design.english_booqa_lms == ["minilm"] and design.booqa_further_lms == []
    assert design.sns_languages == ["en"] and design.table3_models == {"en": ["minilm"]}
    # the main model's searches: every model a LevyHolt table shows (levyholt.experiments.trained_models), and each once
    searches = design.trained_searches()
    assert len(searches) == len(set(searches)) and {lm for lm, _, _ in searches} == {"minilm"}
    assert {("minilm", "sns", "full"), ("minilm", "sns_sym", "para_dirtrue"), ("minilm", "hyponly", "full")} <= set(searches)
    # English BoOQA: LM x3 retrievals, S&S x4, graphs x4, the LLM row; Chinese: the graphs only (an English encoder,
    # no Chinese S&S model, the LLM prompts English)
    assert len(design.runnable_methods("en")) == 3 + 4 + 4 + 1
    assert design.runnable_methods("zh") == ["graph_binc", "graph_weeds", "graph_lin", "graph_cosine"]
    # Table 16 compares the LM retrieval variants on the test split, S&S Full beside them: English only here
    methods = ("lm_rel", "lm_sent", "lm_tfidf", "sns_full")
    assert design.booqa_score_files("table16") == sorted(booqa_scores("en", "test", method) for method in methods)
    assert design.trials_file == "results/models/hyperparameters.csv"


def test_a_further_model_and_a_chinese_one_add_exactly_their_tables_searches(default):
    config = copy.deepcopy(default)
    config["models"] |= {"rb": "roberta-base@" + "0" * 40, "xlmr": "xlm-roberta-base@" + "0" * 40}
    config["training"] |= {"language_models": ["minilm", "rb"], "booqa_language_models": ["rb"], "language_models_zh": ["xlmr"]}
    design = RunDesign(config)
    by_model = {}
    for lm, variant, subset in design.trained_searches():
        by_model.setdefault(lm, set()).add((variant, subset))
    # rb is no main model: its rows of Table 1 (S&S on Directional, Symmetric, Full), Table 2 (S&S and 'S&S on
    # Para-DirTrue and Para-DirFalse), Table 5 ('S&S Full besides) and its H-only models of Table 3 (three)
    assert by_model["rb"] == {
        ("sns", "directional"),
        ("sns", "symmetric"),
        ("sns", "full"),
        ("sns", "para_dirtrue"),
        ("sns", "para_dirfalse"),
        ("sns_sym", "para_dirtrue"),
        ("sns_sym", "para_dirfalse"),
        ("sns_sym", "full"),
        ("hyponly", "full"),
        ("hyponly", "directional"),
        ("hyponly", "symmetric"),
    }
    # the Chinese model: S&S Full on the Chinese LevyHolt (training.sns_methods_zh) and its three H-only models
    assert by_model["xlmr"] == {("sns", "zh_full"), ("hyponly", "zh_full"), ("hyponly", "zh_directional"), ("hyponly", "zh_symmetric")}
    assert design.sns_languages == ["en", "zh"] and design.table3_models == {"en": ["minilm", "rb"], "zh": ["xlmr"]}
    assert "sns_full@rb" in design.runnable_methods("en") and "sns_full" in design.runnable_methods("zh")
    assert "sns_directional" not in design.runnable_methods("zh")  # not in training.sns_methods_zh


def test_a_trials_settings_come_from_its_wildcards_budget_and_the_threads_given(default):
    design = RunDesign(default)
    wildcards = Wildcards(fromdict={"lm": "minilm", "variant": "sns_sym", "subset": "full"})
    settings = design.trial_settings(wildcards, 3)
    budget = design.model_budget("sns_sym", "full")
    assert settings["symmetric"] and settings["lang"] == "en" and settings["threads"] == 3
    assert (settings["epochs"], settings["patience"]) == (budget["epochs"], budget["patience"])
    assert settings["batch_size"] == default["training"]["batch_size"] and settings["seed"] == default["seed"]
    assert design.trial_samples(wildcards) == {"train": budget["max_train"], "dev": budget["max_dev"]}
    # Table 3's H-only model is trained on BoOQA dev of its language; a Chinese LevyHolt subset prompts in Chinese
    assert design.search_of({"lm": "minilm", "lang": "zh"}) == ("minilm", "hyponly", "booqa")
    assert design.subset_language({"lm": "minilm", "lang": "zh"}) == "zh"
    assert design.subset_language({"lm": "xlmr", "variant": "sns", "subset": "zh_full"}) == "zh"
    assert design.prompt_scorer_settings({"variant": "sns"})["symmetric"] is False
    # dropout_masks: reference by default, and always named, so that a trial of either masks is retrained under the other
    assert settings["dropout_masks"] == default["training"]["dropout_masks"] == "reference"
    drawn = RunDesign(default | {"training": default["training"] | {"dropout_masks": "pass"}})
    assert drawn.trial_settings(wildcards, 3) == settings | {"dropout_masks": "pass"}


def test_llms_from_the_hub_are_read_from_their_download_and_the_others_from_what_prepare_llm_made():
    smoke = RunDesign(run_config(["--configfile", "config/smoke.yaml"], REPO))
    assert smoke.booqa_llm == "tiny_llm" and smoke.hub_llms == []
    assert smoke.llm_directory("tiny_llm") == "results/llm/models/tiny_llm"
    paper = RunDesign(run_config(["--configfile", "config/paper.yaml"], REPO))
    assert "qwen2.5-7b" in paper.hub_llms and paper.llm_directory("qwen2.5-7b") == "resources/llms/qwen2.5-7b"
    assert paper.trials_file == "results/models/authors_trials.csv"  # paper.yaml trains the authors' trials


def test_imported_relations_are_read_when_the_design_is_made(default, tmp_path):
    config = copy.deepcopy(default)
    config["relations"]["imported"] = {"en": str(tmp_path / "missing")}
    with pytest.raises(Exception, match="missing"):
        RunDesign(config)
    assert alias_pattern(["a.b", "c"]) == r"a\.b|c" and alias_pattern([]) == "NO_ALIAS"
