"""Config files against the schema; the schema's guard against typos; lint; profiles."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config, validate

from conftest import REPO, copy_workflow, run_snakemake
from directional_inference.tools.plan_page import made_up_pins, planning_overlay, stand_in_inputs

SCHEMA = REPO / "config" / "schema.yaml"


def load_config(*names: str) -> dict:
    """config.yaml overlaid by the named files, as Snakemake merges --configfile."""
    merged: dict = {}
    for name in ("config.yaml", *names):
        update_config(merged, yaml.safe_load((REPO / "config" / name).read_text()))
    return merged


@pytest.mark.parametrize("overlay,scale", [((), "default"), (("smoke.yaml",), "smoke"), (("paper.yaml",), "paper")])
def test_every_scale_validates(overlay, scale):
    config = load_config(*overlay)
    validate(config, str(SCHEMA))
    assert config["scale"] == scale
    assert set(config["training"]["language_models"]) <= set(config["models"])


def test_defaults_are_the_papers_values():
    config = {"scale": "paper"}
    validate(config, str(SCHEMA))  # fills in every default, nested sections included
    booqa, training, evaluation = config["booqa"], config["training"], config["evaluation"]
    assert (booqa["starring_min_articles"], booqa["starring_min_predicates"], booqa["felicity_min_pairs"]) == (15, 15, 30)
    assert booqa["max_negatives_per_positive"] == 2 and booqa["positive_budget"] == 40000
    assert booqa["frequency_buckets"][0] == 60 and booqa["frequency_buckets"][-1] == 100000
    assert config["corpus"]["en"]["window_days"] == 3
    assert (training["trials"], training["epochs"], training["batch_size"]) == (100, 5, 6)
    assert training["learning_rate_range"] == [1e-8, 5e-2] and training["grad_accumulation_range"] == [1, 17]
    assert (evaluation["evidence_cap"], evaluation["evidence_cap_ss_zh"]) == (3200, 90)


def _leaves(tree: dict, path: str = ""):
    for key, value in tree.items():
        where = f"{path}.{key}" if path else key
        if isinstance(value, dict) and key != "models":
            yield from _leaves(value, where)
        else:
            yield where, value


def test_paper_scale_resets_every_threshold_the_default_scale_changes():
    schema = yaml.safe_load(SCHEMA.read_text())
    paper = load_config("paper.yaml")
    default_overrides = dict(_leaves(yaml.safe_load((REPO / "config" / "config.yaml").read_text())))
    for where, _ in default_overrides.items():
        section, *rest = where.split(".")
        if section not in ("booqa", "training", "graphs", "evaluation", "levyholt", "hypothesis_only") or where.startswith("booqa.overrides."):
            continue
        spec = schema["properties"][section]
        for part in rest:
            spec = spec["properties"][part]
        value = paper[section]
        for part in rest:
            value = value[part]
        if "paper" in spec.get("description", "") and where not in WORKFLOW_ONLY and where != "training.max_length":
            assert value == spec["default"], f"paper.yaml keeps the default scale's {where}={value}, not the paper's {spec['default']}"
    assert not paper["booqa"].get("overrides"), "paper.yaml keeps per-language BoOQA thresholds; the paper has one set"


def test_per_language_booqa_thresholds():
    from directional_inference.booqa.settings import booqa_settings

    config = load_config()
    validate(config, str(SCHEMA))
    english, chinese = booqa_settings(config["booqa"], "en"), booqa_settings(config["booqa"], "zh")
    assert "overrides" not in english and "languages" not in english
    assert english["starring_min_predicates"] == config["booqa"]["starring_min_predicates"] == 4
    assert (chinese["starring_min_articles"], chinese["starring_min_predicates"]) == (3, 1)  # the overrides
    assert chinese["felicity_min_pairs"] == english["felicity_min_pairs"] == 3
    assert chinese["felicity_count"] == english["felicity_count"]  # not overridden: the shared value
    smoke = load_config("smoke.yaml")
    assert booqa_settings(smoke["booqa"], "zh")["felicity_min_pairs"] == 2  # the smoke overlay's own zh value
    assert booqa_settings({"starring_min_articles": 15, "overrides": {"zh": {"starring_min_articles": None}}}, "zh") == {"starring_min_articles": 15}
    bad = copy.deepcopy(config)  # a key that cannot be set per language: the schema refuses it
    bad["booqa"]["overrides"]["zh"]["wsd"] = "first_sense"
    with pytest.raises(Exception, match="wsd"):
        validate(bad, str(SCHEMA))


def _numeric_keys(schema: dict, path: str):
    for key, spec in schema.get("properties", {}).items():
        where = f"{path}.{key}"
        types = spec.get("type") if isinstance(spec.get("type"), list) else [spec.get("type")]
        if {"integer", "number", "array"} & set(types):
            yield where, spec
        yield from _numeric_keys(spec, where)


# Knobs of this workflow with no counterpart in the paper (parallelism, subsampling, budgets of small scales).
WORKFLOW_ONLY = {
    "relations.shards",
    "relations.articles_per_shard",
    "relations.batch_size",
    "graphs.jobs",
    "evaluation.scoring_jobs",
    "training.threads",
    "levyholt.split_seed",
    "levyholt.max_train",
    "levyholt.max_dev",
    "levyholt.max_test",
    "training.gpus",
    "booqa.languages",
    "booqa.graph_window_share",
    "training.language_models",
    "graphs.measures",
    "evaluation.lm_retrieval",
    "evaluation.model_languages",
    "resources.datasets",
    "resources.newscrawl.years",
}


def test_every_threshold_cites_its_source():
    schema = yaml.safe_load(SCHEMA.read_text())
    sources = ("paper", "authors' code", "Hosseini", "S&S")
    checked = 0
    for section in ("booqa", "training", "graphs", "evaluation", "corpus", "levyholt", "hypothesis_only"):
        for where, spec in _numeric_keys(schema["properties"][section], section):
            if where in WORKFLOW_ONLY:
                continue
            checked += 1
            assert any(source in spec.get("description", "") for source in sources), f"{where} cites no source"
    assert checked >= 20


@pytest.fixture(scope="module")
def workflow_copy(tmp_path_factory) -> Path:
    return copy_workflow(tmp_path_factory.mktemp("workflow"))


def test_typo_in_a_key_fails_naming_the_key(workflow_copy):
    result = run_snakemake(workflow_copy, "-n", "--config", "sead=3", check=False)
    assert result.returncode != 0 and "sead" in result.stdout + result.stderr
    bad = workflow_copy / "bad.yaml"
    bad.write_text(yaml.safe_dump({"booqa": {"starring_min_article": 3}}))
    result = run_snakemake(workflow_copy, "-n", "--configfile", str(bad), check=False)
    assert result.returncode != 0 and "starring_min_article" in result.stdout + result.stderr


def test_undefined_model_alias_is_named(workflow_copy):
    bad = workflow_copy / "bad-model.yaml"
    bad.write_text(yaml.safe_dump({"training": {"language_models": ["robertaa"]}}))
    result = run_snakemake(workflow_copy, "-n", "--configfile", str(bad), check=False)
    assert result.returncode != 0 and "robertaa" in result.stdout + result.stderr


def test_lint_finds_nothing(workflow_copy):
    result = run_snakemake(workflow_copy, "--lint", check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("profile", ["local", "slurm"])
def test_profiles_are_valid_for_snakemake_9(workflow_copy, profile):
    result = run_snakemake(workflow_copy, "-n", "--workflow-profile", f"profiles/{profile}", "--configfile", "config/smoke.yaml")
    assert "fetch_dataset" in result.stdout and "build_tiny_model" in result.stdout


def paper_overlay(root: Path) -> Path:
    """The keys paper.yaml needs set before it plans: the two user inputs and the model pins."""
    overlay = planning_overlay(root, load_config("paper.yaml"))
    (root / "paper-keys.yaml").write_text(yaml.safe_dump(overlay))
    return root / "paper-keys.yaml"


def test_paper_scale_needs_every_hub_model_pinned(tmp_path):
    from directional_inference.workflow.config_checks import pin_problems

    paper = load_config("paper.yaml")
    validate(paper, str(SCHEMA))
    problems = pin_problems(paper)
    # the models the run uses (S&S models, the Chinese one, the LM encoders), not every alias defined under models
    assert [p.split(" is ")[0] for p in problems] == [
        f"config key models.{a}" for a in ("roberta-base", "roberta-large", "bert-base", "bert-large", "xlm-roberta-base", "bert-base-chinese")
    ] + [f"config key llm.models.{a}" for a in ("smollm2-1.7b", "qwen2.5-7b", "qwen2.5-32b")]  # the scoring LLMs from the hub, not the packaged one
    assert "directional_inference.resources.pins" in problems[0]
    pinned = copy.deepcopy(paper)
    update_config(pinned, made_up_pins(paper))
    assert pin_problems(pinned) == []
    update_config(pinned, {"models": {"roberta-base": "roberta-base@main"}, "llm": {"models": {"qwen2.5-7b": "Qwen/Qwen2.5-7B-Instruct@main"}}})
    assert [p.split(" is ")[0] for p in pin_problems(pinned)] == [
        "config key models.roberta-base",
        "config key llm.models.qwen2.5-7b",
    ]  # a branch is not a pin
    update_config(pinned, {"llm": {"models": {"qwen2.5-7b": "Qwen/Qwen2.5-7B-Instruct@" + "0" * 40}}})
    local = tmp_path / "roberta-base"
    local.mkdir()
    update_config(pinned, {"models": {"roberta-base": str(local)}})  # a local directory is what it is
    assert pin_problems(pinned) == []
    for overlay in ((), ("smoke.yaml",)):
        assert pin_problems(load_config(*overlay)) == [], overlay  # only the paper's scale asks for pins


def test_paper_scale_as_shipped_stops_at_parse_time_naming_what_to_set(workflow_copy):
    """paper.yaml lists a Chinese S&S model and the Chinese BoOQA, whose inputs are not published: the plan stops before
    any job, naming each key, what it must hold and the overlay that drops what needs it."""
    result = run_snakemake(workflow_copy, "-n", "--configfile", "config/paper.yaml", check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "config key resources.levyholt_zh is not set" in output and "language_models_zh: []" in output
    assert "test_dir/test_dir_s.txt" in output  # what the directory must hold
    assert "config key resources.clue_news2016zh is not set" in output and "languages: [en]" in output
    assert "config key models.roberta-base is the hub model 'roberta-base' without a commit" in output
    assert "Building DAG" not in output and "Job stats" not in output  # nothing was planned


def test_user_inputs_are_checked_where_the_config_needs_them(tmp_path):
    from directional_inference.workflow.config_checks import user_input_problems

    paper = load_config("paper.yaml")
    validate(paper, str(SCHEMA))
    assert [problem.split(" is ")[0] for problem in user_input_problems(paper)] == [
        "config key resources.levyholt_zh",
        "config key resources.clue_news2016zh",
    ]
    given = copy.deepcopy(paper)
    update_config(given, stand_in_inputs(tmp_path))
    assert user_input_problems(given) == []
    (tmp_path / "levyholt-zh" / "dev" / "dev_s.txt").unlink()  # a directory that lacks a file is named with the file
    assert [p for p in user_input_problems(given) if "lacks dev/dev_s.txt" in p and "levyholt-zh" in p]
    english_only = copy.deepcopy(paper)
    update_config(english_only, {"training": {"language_models_zh": []}, "booqa": {"languages": ["en"]}})
    assert user_input_problems(english_only) == []  # the overlays the messages suggest are enough
    imported = copy.deepcopy(paper)
    update_config(imported, {"training": {"language_models_zh": []}, "relations": {"imported": {"zh": str(tmp_path)}}})
    assert user_input_problems(imported) == []  # Chinese relations from elsewhere need no CLUE
    for overlay in ((), ("smoke.yaml",)):
        assert user_input_problems(load_config(*overlay)) == [], overlay


def test_paper_scale_plans_newscrawl_and_clue_with_the_user_inputs_given(workflow_copy, tmp_path):
    result = run_snakemake(workflow_copy, "-n", "--configfile", "config/paper.yaml", str(paper_overlay(tmp_path)))
    assert "resources/newscrawl" in result.stdout and "resources/clue-news2016zh" in result.stdout
    assert "resources/levyholt-zh" in result.stdout
    assert "resources/models/roberta-base" in result.stdout


def test_paper_scale_table5_plans_what_the_paper_ran_with_the_resources_it_needs(workflow_copy, tmp_path):
    """Table 5 at paper scale: the four English S&S searches and the Chinese S&S Full only (the paper's Chinese column),
    100 trials each and one selection per search; extraction shards follow the corpora (7.8M News Crawl and 2.4M CLUE
    articles at 20,000 a shard); every job that runs a neural model asks for a GPU and 4 threads, and no other does."""
    from collections import Counter

    from directional_inference.tools.plan import planned_jobs

    result = run_snakemake(
        workflow_copy, "-n", "--cores", "64", "results/table5.csv", "--configfile", "config/paper.yaml", str(paper_overlay(tmp_path))
    )
    jobs = planned_jobs(result.stdout)
    counts = Counter(rule for rule, *_ in jobs)
    assert (counts["train_sns_trial"], counts["select_sns_model"]) == (500, 5)
    searches = set(re.findall(r"results/models/([\w-]+/\w+/\w+)/selection.csv", result.stdout))
    assert searches == {
        "roberta-base/sns/full",
        "roberta-base/sns_sym/full",
        "roberta-base/sns/symmetric",
        "roberta-base/sns/directional",
        "xlm-roberta-base/sns/zh_full",
    }
    assert counts["extract_relations"] == -(-7_800_000 // 20_000) + -(-2_400_000 // 20_000)
    assert (counts["fetch_newscrawl_year"], counts["gather_newscrawl"]) == (11, 1)  # News Crawl 2007-2017, a download job a year
    neural = {"train_sns_trial", "check_sns_model", "score_booqa_part"}
    for rule, _, threads, resources in jobs:
        if rule in neural:
            assert (resources["gpu"], threads) == ("1", 4), rule
        else:
            assert resources.get("gpu", "0") == "0", rule  # graph lookups and the corpus-wide rules run on CPUs
        if rule == "train_sns_trial":
            assert int(resources["mem_mb"]) == 6000 and int(resources["runtime"]) == 240
        if rule in ("merge_relations", "select_booqa_positives", "build_entailment_graph"):
            assert int(resources["mem_mb"]) == 6000 and int(resources["disk_mb"]) > 3_000  # sized from the corpus, not the 1 GB base


def test_the_example_partitions_place_every_paper_job_by_its_own_gpu_request(workflow_copy, tmp_path):
    """profiles/slurm/partitions.yaml with the SLURM executor's own partition choice: every job of Table 5 at paper
    scale that requests a GPU goes to the GPU partition, every other job to the CPU partition; no rule is listed by
    hand. The corpus-wide jobs carry their disk request as node-local scratch (--tmp, their disk_mb)."""
    import types

    from snakemake_executor_plugin_slurm.partitions import get_best_partition, read_partition_file

    from directional_inference.tools.plan import planned_jobs

    class Resources(dict):
        __getattr__ = dict.get

    result = run_snakemake(
        workflow_copy, "-n", "--cores", "64", "results/table5.csv", "--configfile", "config/paper.yaml", str(paper_overlay(tmp_path))
    )
    partitions = read_partition_file(REPO / "profiles" / "slurm" / "partitions.yaml")
    logger = types.SimpleNamespace(info=lambda *a: None, warning=lambda *a: None, debug=lambda *a: None)
    placed = {}
    for rule, _, threads, resources in planned_jobs(result.stdout):
        job = types.SimpleNamespace(name=rule, threads=threads, resources=Resources(resources))
        placed.setdefault(rule, set()).add(get_best_partition(partitions, job, logger))
        if "disk_mb" in resources and rule not in ("fetch_newscrawl_year", "fetch_dataset", "fetch_model"):
            assert resources.get("slurm_extra") == f"--tmp={resources['disk_mb']}M", (rule, resources)
    gpu_rules = {rule for rule, _, _, resources in planned_jobs(result.stdout) if int(resources.get("gpu", 0)) > 0}
    assert {"train_sns_trial", "score_booqa_part", "check_sns_model"} <= gpu_rules
    assert all(placed[rule] == {"gpu"} for rule in gpu_rules), placed
    assert all(partition == {"cpu"} for rule, partition in placed.items() if rule not in gpu_rules), placed


def test_the_paper_plan_forecasts_table5_near_appendix_f(workflow_copy, tmp_path):
    """bin/plan --device rtx2080ti on Table 5 at paper scale: the forecast GPU-hours within 25% of the paper's Appendix F
    (about 485: searches on Full, 'S&S Full and Symmetric about 60 each, Directional 25, the Chinese Full 60; BoOQA
    scoring of five S&S models 40 each and of the LM 10 per language), beside the requests, with the wall-clock on 4
    GPUs, the storage peak and the download volume."""
    import subprocess
    import sys

    from conftest import tool_environment

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "directional_inference.tools.plan",
            "results/table5.csv",
            "--configfile",
            "config/paper.yaml",
            str(paper_overlay(tmp_path)),
            "--device",
            "rtx2080ti",
            "--gpus",
            "4",
        ],
        cwd=workflow_copy,
        capture_output=True,
        text=True,
        env=tool_environment(),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    forecast = result.stdout[result.stdout.index("Forecast on rtx2080ti") :]
    gpu_hours = float(re.search(r"^in all\s+\d+\s+([\d.]+)", forecast, flags=re.M).group(1))
    assert 0.75 * 485 <= gpu_hours <= 1.25 * 485, gpu_hours
    assert re.search(r"Wall-clock on 4 GPUs: at least ([\d.]+) h", forecast) and "Storage peak of the searches" in forecast
    assert "Downloads:" in forecast and "Appendix F for Table 5" in forecast
    requested = float(re.search(r"^in all\s+\d+\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", result.stdout, flags=re.M).group(1))
    assert requested > gpu_hours  # the requests stay above the forecast


def _planned_searches(plan: str) -> dict[str, set[str]]:
    """Language model -> the ``variant/subset`` of every LevyHolt search whose trials a plan of the whole target at paper
    scale holds: read from docs/paper-plan.json, which test_plan checks against a fresh plan of the code and config."""
    from directional_inference.tools.plan_page import read_snapshot

    searches: dict[str, set[str]] = {}
    for lm, variant, subset in read_snapshot()["plans"][plan]["searches"]:
        if subset != "booqa":  # BoOQA's H-only searches (Table 3) are not LevyHolt settings
            searches.setdefault(lm, set()).add(f"{variant}/{subset}")
    return searches


def test_paper_scale_plans_the_searches_the_paper_reports_and_no_more():
    """RoBERTa-base: 18 LevyHolt settings (S&S on Full, Directional, Symmetric, the four Para/Unrelated edges of Figure
    1 and SherLIiC; 'S&S on Full and the two Para subsets; H-only on the 7 subsets of Figure 2), BoOQA's models among them.
    RoBERTa-large, BERT-base and BERT-large: the 7 of Tables 8-13 (S&S trained on Directional, Symmetric and Full; S&S
    and 'S&S on Para-DirTrue and Para-DirFalse). Chinese: S&S Full and the H-only models of Table 3. With the mesh key,
    every setting for every English model."""
    tables_8_13 = {
        "sns/directional",
        "sns/symmetric",
        "sns/full",
        "sns/para_dirtrue",
        "sns/para_dirfalse",
        "sns_sym/para_dirtrue",
        "sns_sym/para_dirfalse",
    }
    mesh = ("directional", "symmetric", "para_dirtrue", "para_dirfalse", "dirtrue_unrel", "dirfalse_unrel", "full")
    roberta_base = (
        {f"sns/{s}" for s in mesh}
        | {"sns/sherliic", "sns_sym/full", "sns_sym/para_dirtrue", "sns_sym/para_dirfalse"}
        | {f"hyponly/{s}" for s in mesh}
    )
    assert len(roberta_base) == 18
    planned = _planned_searches("all")
    assert planned == {
        "roberta-base": roberta_base,
        "roberta-large": tables_8_13,
        "bert-base": tables_8_13,
        "bert-large": tables_8_13,
        "xlm-roberta-base": {"sns/zh_full", "hyponly/zh_full", "hyponly/zh_directional", "hyponly/zh_symmetric"},
    }
    every = _planned_searches("all_every_setting")  # training.every_setting_for_every_model: true
    assert all(every[lm] == roberta_base for lm in ("roberta-base", "roberta-large", "bert-base", "bert-large"))


# --- checks of relations between values, and short messages --------------------------------------------------------


def test_every_scale_passes_the_relation_checks():
    from directional_inference.workflow.config_checks import config_problems

    for overlay in ((), ("smoke.yaml",), ("paper.yaml",)):
        config = load_config(*overlay)
        validate(config, str(SCHEMA))
        assert config_problems(config) == [], overlay


def test_relation_problems_are_one_message_each():
    from directional_inference.workflow.config_checks import config_problems

    config = load_config("smoke.yaml")
    validate(config, str(SCHEMA))
    config["evaluation"]["lm_encoder"] = "nosuchmodel"
    config["training"]["learning_rate_range"] = [1e-3, 1e-5]
    config["booqa"]["frequency_buckets"] = [60, 300, 100, 500]
    config["booqa"]["languages"] = []
    config["corpus"]["zh"]["years"] = [2016, 2014]
    config["training"]["budgets"] = [{"models": ["*"], "max_train": 121}, {"models": ["sns/*"], "max_dev": 60}]
    assert config_problems(config) == [
        "config key evaluation.lm_encoder names model alias 'nosuchmodel', not defined under 'models' (known aliases: minilm, tiny)",
        "config key training.learning_rate_range is reversed: [0.001, 1e-05] (write [low, high], e.g. [1e-05, 0.001])",
        "config key corpus.zh.years is reversed: [2016, 2014] (write [low, high], e.g. [2014, 2016])",
        "config key booqa.languages is empty: give at least one value",
        "config key booqa.frequency_buckets must be strictly increasing: 100 follows 300 (sorted without repeats: [60, 100, 300, 500])",
        "config key training.budgets[0].max_train is 121, above levyholt.max_train (120), which caps the subset files it "
        "samples from: raise levyholt.max_train or set it to null",
    ]


def test_the_authors_trials_and_the_published_mode_are_checked_naming_the_key():
    """Defaults: this workflow's seeded trials and the full search (no default number moves); paper scale takes the
    authors' trials. Published needs the authors' trials, the authors' trials their scripts and at most 500 trials."""
    from directional_inference.workflow.config_checks import config_problems

    default, paper = load_config(), load_config("paper.yaml")
    for config in (default, paper):
        validate(config, str(SCHEMA))
    assert (default["training"]["trial_source"], default["training"]["search"]) == ("seeded", "full")
    assert (paper["training"]["trial_source"], paper["training"]["search"]) == ("authors", "full")
    config = copy.deepcopy(default)
    config["training"]["search"] = "published"
    assert config_problems(config) == [
        "config key training.search is published, but training.trial_source is seeded: the published trials are the authors' (their "
        "trial k is the k-th set of their scripts); set training.trial_source: authors"
    ]
    config["training"].update(trial_source="authors", trials=501, budgets=[{"models": ["hyponly/*"], "trials": 600}])
    config["resources"]["datasets"] = [d for d in config["resources"]["datasets"] if d != "levyholt-authors"]
    assert config_problems(config) == [
        "config key training.trial_source is authors, but resources.datasets does not list levyholt-authors, the input that holds the "
        "authors' training scripts: add it, or set training.trial_source: seeded",
        "config key training.trials is 501, but the authors' scripts hold 500 hyper-parameter sets (training.trial_source: authors): "
        "ask for at most 500",
        "config key training.budgets[0].trials is 600, but the authors' scripts hold 500 hyper-parameter sets (training.trial_source: "
        "authors): ask for at most 500",
    ]


def test_paper_scale_table5_in_the_published_mode_trains_the_published_trials_and_searches_the_rest(workflow_copy, tmp_path):
    """Table 5 under paper.yaml with training.search: published: one trial for each published setting it reads
    (RoBERTa-base S&S Full 29, Directional 63, Symmetric 41; XLM-R Chinese Full 63, the README's checkpoint paths) and
    the full search of 100 for 'S&S Full, which has none: 104 trials instead of 500, each reading the authors' sets
    (results/models/authors_trials.csv, from their scripts; trials 29, 41 and 63 hold the values of
    tests/test_authors.py)."""
    from collections import Counter

    (tmp_path / "published.yaml").write_text("training: {search: published}\n")
    result = run_snakemake(
        workflow_copy,
        "-n",
        "--cores",
        "64",
        "results/table5.csv",
        "--configfile",
        "config/paper.yaml",
        str(paper_overlay(tmp_path)),
        str(tmp_path / "published.yaml"),
    )
    trials = re.findall(r"output: results/models/([\w-]+/\w+/\w+)/trial-(\d+)/dev_scores.parquet", result.stdout)
    planned = Counter(search for search, _ in trials)
    assert (
        planned
        == {
            "roberta-base/sns/full": 1,
            "roberta-base/sns/directional": 1,
            "roberta-base/sns/symmetric": 1,
            "xlm-roberta-base/sns/zh_full": 1,
            "roberta-base/sns_sym/full": 100,
        }
        and sum(planned.values()) == 104
    )
    assert {search: int(k) for search, k in trials if planned[search] == 1} == {
        "roberta-base/sns/full": 29,
        "roberta-base/sns/directional": 63,
        "roberta-base/sns/symmetric": 41,
        "xlm-roberta-base/sns/zh_full": 63,
    }
    assert sorted(int(k) for search, k in trials if search == "roberta-base/sns_sym/full") == list(range(100))
    jobs = re.split(r"^\[.*\]$", result.stdout, flags=re.M)  # a job's lines follow its time stamp
    training = [job for job in jobs if re.search(r"^rule train_sns_trial:", job, re.M)]
    assert len(training) == 104 and all("results/models/authors_trials.csv" in job for job in training)
    assert not re.search(r"^rule draw_hyperparameters:", result.stdout, re.M)
    assert re.search(r"^rule read_authors_trials:\n\s+input: resources/levyholt-authors\n", result.stdout, re.M)


def test_bad_config_stops_before_planning_with_one_line_per_problem(workflow_copy):
    bad = workflow_copy / "bad-values.yaml"
    bad.write_text(
        yaml.safe_dump(
            {
                "evaluation": {"lm_encoder": "nosuchmodel"},
                "booqa": {"wsd_encoder": "nope", "frequency_buckets": [60, 100, 90], "languages": []},
                "training": {"weight_decay_range": [0.1, 0.001], "grad_accumulation_range": [4, 1]},
            }
        )
    )
    result = run_snakemake(workflow_copy, "-n", "--configfile", str(bad), check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "MissingInputException" not in output and "Traceback" not in output
    problems = [line.strip() for line in output.splitlines() if line.startswith("  config key")]
    assert problems == [
        "config key evaluation.lm_encoder names model alias 'nosuchmodel', not defined under 'models' (known aliases: minilm)",
        "config key booqa.wsd_encoder names model alias 'nope', not defined under 'models' (known aliases: minilm)",
        "config key training.weight_decay_range is reversed: [0.1, 0.001] (write [low, high], e.g. [0.001, 0.1])",
        "config key training.grad_accumulation_range is reversed: [4, 1] (write [low, high], e.g. [1, 4])",
        "config key booqa.languages is empty: give at least one value",
        "config key booqa.frequency_buckets must be strictly increasing: 90 follows 100 (sorted without repeats: [60, 90, 100])",
    ]


def test_unknown_key_names_the_key_and_the_allowed_keys_not_the_schema(workflow_copy):
    result = run_snakemake(workflow_copy, "-n", "--config", "sead=3", check=False)
    output = result.stdout + result.stderr
    allowed = "booqa, corpus, evaluation, graphs, hypothesis_only, levyholt, llm, mirror, models, relations, request_node_scratch, resources, scale, scratch_root, seed, training"
    assert result.returncode != 0 and f"unknown config key sead; allowed at the top level: {allowed}" in output
    assert "description" not in output and len(output.splitlines()) < 10  # the schema printed 1,100 lines
    bad = workflow_copy / "bad-tiny.yaml"
    bad.write_text(yaml.safe_dump({"models": {"tiny2": {"tiny": {"layerz": 2}}}, "training": {"batch_size": "x"}}))
    result = run_snakemake(workflow_copy, "-n", "--configfile", str(bad), check=False)
    output = result.stdout + result.stderr
    assert (
        "unknown config key models.tiny2.tiny.layerz; allowed under 'models.tiny2.tiny': architecture, heads, hidden_size, language, layers, vocab_size"
        in output
    )
    assert "config key training.batch_size: 'x' is not of type 'integer'" in output


def test_missing_configfile_is_reported_by_snakemake_itself(workflow_copy):
    # Snakemake 9 reads --configfile before loading the Snakefile, so this workflow cannot shorten its message:
    # a FileNotFoundError traceback whose last line names the file (README, "Scales").
    result = run_snakemake(workflow_copy, "-n", "--configfile", "nope.yaml", check=False)
    assert result.returncode != 0 and "No such file or directory: 'nope.yaml'" in result.stdout.strip().splitlines()[-1]


def test_every_rule_a_profile_names_exists():
    """A rule named in a profile that the workflow does not have is silently ignored by Snakemake; the SLURM profile's
    example once named train_sns_model, which never existed. Every key that opens a block under set-resources or
    set-threads, commented out or not, must be a rule."""
    import re

    rules = {m for smk in (REPO / "rules").rglob("*.smk") for m in re.findall(r"^rule (\w+):", smk.read_text(), re.M)}
    assert {"train_sns_trial", "score_booqa"} <= rules
    for profile in ("default", "local", "slurm"):
        named, section = set(), None
        for line in (REPO / "profiles" / profile / "config.yaml").read_text().splitlines():
            if re.match(r"^[\w-]+:", line):
                section = line.split(":")[0]
            elif section in ("set-resources", "set-threads") and (m := re.match(r"^  #? ?(\w+):\s*(#.*)?$", line)):
                named.add(m.group(1))
        assert named <= rules, f"profiles/{profile}/config.yaml names {sorted(named - rules)}, not rules of the workflow"
        if profile == "slurm":  # GPU jobs are placed by their own request (partitions.yaml), not by a list of rules
            assert not named & {"train_sns_trial", "score_booqa", "score_booqa_part", "fetch_dataset"}


def test_default_profile_is_loaded_and_every_profile_reruns_incomplete_jobs(workflow_copy):
    result = run_snakemake(workflow_copy, "-n", "--configfile", "config/smoke.yaml")
    assert "Using workflow specific profile profiles/default" in result.stdout + result.stderr
    for profile in ("default", "local", "slurm"):
        settings = yaml.safe_load((REPO / "profiles" / profile / "config.yaml").read_text())
        assert settings["rerun-incomplete"] is True and settings["show-failed-logs"] is True, profile


def test_training_budgets_of_each_scale():
    """The default scale trains every model of Tables 1, 2 and 5 on its whole subset, with early stopping, Table 2's
    pairs (S&S and 'S&S alike) for longer, and cuts only the mesh (X-Unrelated edges, SherLIiC, the H-only models other
    than Directional); smoke and paper scale train every model alike. Expected values are read off config.yaml's budget
    list by hand (first matching entry wins)."""
    from directional_inference.levyholt.experiments import training_budget

    def budget(config, model):
        variant, subset = model.split("/")
        resolved = training_budget(config["training"], config["levyholt"], variant, subset)
        return resolved["trials"], resolved["epochs"], resolved["patience"], resolved["max_train"], resolved["max_dev"]

    default = load_config()
    for model in ("sns/directional", "sns/symmetric", "sns/full", "sns_sym/full", "hyponly/directional", "hyponly/booqa"):
        assert budget(default, model) == (1, 3, 3, None, None), model
    for model in ("sns/para_dirtrue", "sns_sym/para_dirtrue", "sns/para_dirfalse", "sns_sym/para_dirfalse"):
        assert budget(default, model) == (1, 8, 4, None, None), model
    assert default["training"]["min_delta"] == 0.005
    for model in (
        "sns/dirtrue_unrel",
        "sns/dirfalse_unrel",
        "sns/sherliic",
        "hyponly/full",
        "hyponly/symmetric",
        "hyponly/para_dirtrue",
        "hyponly/dirfalse_unrel",
    ):
        assert budget(default, model) == (1, 2, 3, 600, 200), model
    smoke, paper = load_config("smoke.yaml"), load_config("paper.yaml")
    for model in ("sns/directional", "sns_sym/full", "hyponly/booqa"):
        assert budget(smoke, model) == (1, 1, 3, 120, 60)  # patience from config.yaml; one evaluation an epoch never exhausts it
        assert budget(paper, model) == (100, 5, None, None, None)


def test_a_booqa_language_model_must_be_one_of_the_fine_tuned_ones():
    from directional_inference.workflow.config_checks import config_problems

    config = load_config()
    validate(config, str(SCHEMA))
    config["models"]["rb"] = "roberta-base"
    config["training"]["booqa_language_models"] = ["rb"]
    assert config_problems(config) == [
        "config key training.booqa_language_models names 'rb', not in training.language_models (minilm): only a model fine-tuned "
        "there has S&S models to answer BoOQA; add it to training.language_models"
    ]
    config["training"]["language_models"] = ["minilm", "rb"]
    assert config_problems(config) == []
    config["training"]["booqa_language_models"] = ["nope"]
    assert "config key training.booqa_language_models names model alias 'nope', not defined under 'models'" in config_problems(config)[0]


def test_booqa_language_models_all_is_every_fine_tuned_model_and_a_list_adds_to_the_first():
    from directional_inference.config_tree import booqa_language_models, used_aliases

    config = load_config()
    validate(config, str(SCHEMA))
    assert config["training"]["booqa_language_models"] == "all"  # the default
    config["models"]["rb"] = "roberta-base"
    config["training"]["language_models"] = ["minilm", "rb"]
    assert booqa_language_models(config) == ["minilm", "rb"]
    assert "all" not in used_aliases(config)
    config["training"]["booqa_language_models"] = []  # the paper's: the first alone
    assert booqa_language_models(config) == ["minilm"]
    config["training"]["booqa_language_models"] = ["rb", "minilm"]
    assert booqa_language_models(config) == ["minilm", "rb"]
    config["training"]["language_models"] = []
    assert booqa_language_models(config) == []
    config["training"]["booqa_language_models"] = "every"
    with pytest.raises(Exception, match="booqa_language_models"):
        validate(config, str(SCHEMA))


def test_models_a_table_compares_must_get_the_same_budget():
    from directional_inference.workflow.config_checks import config_problems

    config = load_config()
    validate(config, str(SCHEMA))
    config["training"]["budgets"] = [{"models": ["sns/full"], "epochs": 5}]
    assert config_problems(config) == [
        "config key training.budgets: Table 1 compares models trained with different budgets (sns/directional: epochs 3; "
        "sns/symmetric: epochs 3; sns/full: epochs 5): give them one training.budgets entry so that no comparison is decided by compute",
        "config key training.budgets: Table 5 compares models trained with different budgets (sns/full: epochs 5; sns_sym/full: epochs 3; "
        "sns/symmetric: epochs 3; sns/directional: epochs 3): give them one training.budgets entry so that no comparison is decided by compute",
    ]
    config["training"]["budgets"] = [{"models": ["sns_sym/para_dirtrue"], "max_train": 100, "patience": 1}]
    assert config_problems(config) == [
        "config key training.budgets: Table 2 (para_dirtrue) compares models trained with different budgets (sns/para_dirtrue: patience 3, "
        "max_train None; sns_sym/para_dirtrue: patience 1, max_train 100): give them one training.budgets entry so that no comparison "
        "is decided by compute",
    ]


def test_the_pins_and_the_checks_import_no_circle():
    """``resources.pins`` reads the model aliases from ``config_tree``, below the checks that import it: loading the pins
    alone loads no checks (the two imported each other before)."""
    import subprocess
    import sys

    code = (
        "import sys, directional_inference.resources.pins as pins; "
        "pins.unpinned_models({'models': {'a': 'org/x'}, 'training': {'language_models': ['a']}}); "
        "print('directional_inference.workflow.config_checks' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_trials_rank_by_the_pairs_they_train_on():
    """The paper's sub-group sizes (train: dirtrue 251, dirfalse 251, paraphrases 615, unrelated 3,255): Full (4,372
    pairs) ranks highest, Symmetric (3,870) next, then the unrelated pairs (3,506 each), the paraphrase pairs (866
    each), Directional (502) lowest; a Chinese subset as its English one; SherLIiC, whose size is not known here, 0."""
    from directional_inference.levyholt.entries import ALL_SUBSETS
    from directional_inference.levyholt.experiments import training_size_rank

    ranks = {subset: training_size_rank(subset) for subset in ALL_SUBSETS}
    assert sorted(ranks.values()) == list(range(1, len(ALL_SUBSETS) + 1))
    assert ranks["full"] > ranks["symmetric"] > max(ranks["dirtrue_unrel"], ranks["dirfalse_unrel"])
    assert min(ranks["dirtrue_unrel"], ranks["dirfalse_unrel"]) > max(ranks["para_dirtrue"], ranks["para_dirfalse"])
    assert min(ranks["para_dirtrue"], ranks["para_dirfalse"]) > ranks["directional"] == 1
    assert training_size_rank("zh_full") == ranks["full"] and training_size_rank("sherliic") == 0
