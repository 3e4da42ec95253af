"""The authors' hyper-parameter trials (sns/authors.py): read from their training scripts (input levyholt-authors), the
values checked against numbers typed by hand from the files; the large models' batching against training.model_batching."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from directional_inference.errors import InputFormatError, WorkflowError
from directional_inference.sns.authors import BASE_SCRIPT, SCRIPTS, SETS, authors_scripts, authors_trials, parse_script, script_for
from directional_inference.sns.training import Hyperparameters, TrainingSettings, model_batching


@pytest.fixture(scope="module")
def authors_dir(mirrors) -> Path:
    """The dataset levyholt-authors as fetch_dataset leaves it (its scripts under discrete_prompt_model/), from a mirror."""
    for mirror in mirrors:
        if (mirror.root / "levyholt-authors" / "discrete_prompt_model" / BASE_SCRIPT).is_file():
            return mirror.root / "levyholt-authors"
    pytest.fail("no mirror holds levyholt-authors/discrete_prompt_model")


def test_trials_take_the_base_scripts_elements_typed_from_the_file(authors_dir):
    """Typed from generic_train_enr_base.sh (0-based elements of lrs, lambdas, steps): element 0 is 0.000007961045,
    0.0029833056, 6; element 29 0.000022321402, 0.0789954262, 7; 41 0.000056121678, 0.0009554886, 2; 63 0.000033229294,
    0.0033858220, 4."""
    trials = authors_trials(authors_dir, 100)
    assert len(trials) == 100 and [t.trial for t in trials] == list(range(100))
    assert trials[0] == Hyperparameters(0, 7.961045e-06, 0.0029833056, 6)
    assert trials[29] == Hyperparameters(29, 2.2321402e-05, 0.0789954262, 7)
    assert trials[41] == Hyperparameters(41, 5.6121678e-05, 0.0009554886, 2)
    assert trials[63] == Hyperparameters(63, 3.3229294e-05, 0.003385822, 4)
    assert len(authors_trials(authors_dir, SETS)) == 500
    with pytest.raises(WorkflowError, match="501 trials asked for"):
        authors_trials(authors_dir, 501)


def test_each_script_trains_what_the_table_says_read_from_its_command(authors_dir):
    """The command, not the comments: generic_symmetric_train_enr_large.sh's comment says batch 4 and floor(1.5 s), its
    command runs batch 1 with the steps array that holds 6 s (element 29: 42)."""
    scripts = authors_scripts(authors_dir)
    assert set(scripts) == set(SCRIPTS)
    batches = {name: script.batch_size for name, script in scripts.items()}
    assert batches == {
        "generic_train_enr_base.sh": 6,
        "generic_train_enr_large.sh": 4,
        "generic_train_enbert_base.sh": 6,
        "generic_train_enbert_large.sh": 6,
        "generic_symmetric_train_enr_base.sh": 6,
        "generic_symmetric_train_enr_large.sh": 1,
        "generic_symmetric_train_enbert_base.sh": 6,
        "generic_symmetric_train_enbert_large.sh": 2,
        "generic_flm_train_enr_base.sh": 6,
    }
    assert "batch_size is scaled down from 6 to 4" in Path(scripts["generic_symmetric_train_enr_large.sh"].path).read_text()
    # element 29 of each large script's steps, typed from the files: directional 10 (both), symmetric RoBERTa-large 42, BERT-large 21
    assert {name: script.accumulations[29] for name, script in scripts.items() if "large" in name} == {
        "generic_train_enr_large.sh": 10,
        "generic_train_enbert_large.sh": 10,
        "generic_symmetric_train_enr_large.sh": 42,
        "generic_symmetric_train_enbert_large.sh": 21,
    }
    assert scripts["generic_flm_train_enr_base.sh"].frozen and not scripts[BASE_SCRIPT].frozen
    assert script_for("roberta-base", "sns") == BASE_SCRIPT and script_for("roberta-large", "sns_sym") == "generic_symmetric_train_enr_large.sh"
    assert script_for("bert-base-uncased", "hyponly") == "generic_train_enbert_base.sh" and script_for("xlm-roberta-base", "sns") is None


def test_the_paper_configs_model_batching_gives_the_large_scripts_batches_and_steps_exactly(authors_dir):
    """One source of truth: training.model_batching of config/paper.yaml, through the code that sets a trial's batch
    and accumulation (model_batching, TrainingSettings.accumulation), gives over all 500 sets the large scripts' batch
    sizes and steps from the base steps; element 29 (base 7) hand-checked: floor(1.5 x 7) = 10, 6 x 7 = 42, 3 x 7 = 21."""
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text(encoding="utf-8"))
    batching, models = paper["training"]["model_batching"], paper["models"]
    scripts = authors_scripts(authors_dir)
    base = scripts[BASE_SCRIPT]
    checked = set()
    for name, script in scripts.items():
        if script.model in ("roberta-base", "bert-base-uncased"):
            continue
        alias = next(alias for alias, spec in models.items() if spec == script.model)
        batch_size, factor = model_batching(batching, alias, not script.directional, paper["training"]["batch_size"])
        settings = TrainingSettings(
            epochs=5, batch_size=batch_size, max_length=128, seed=0, symmetric=not script.directional, accumulation_factor=factor
        )
        assert batch_size == script.batch_size, name
        assert [settings.accumulation(base.trial(k)) for k in range(SETS)] == list(script.accumulations), name
        assert (
            settings.accumulation(base.trial(29))
            == {
                "generic_train_enr_large.sh": 10,
                "generic_train_enbert_large.sh": 10,
                "generic_symmetric_train_enr_large.sh": 42,
                "generic_symmetric_train_enbert_large.sh": 21,
            }[name]
        )
        checked.add(name)
    assert len(checked) == 4


def test_a_script_changed_after_the_fetch_stops_the_run_naming_it(authors_dir, tmp_path):
    copy = tmp_path / "levyholt-authors"
    shutil.copytree(authors_dir / "discrete_prompt_model", copy / "discrete_prompt_model")
    script = copy / "discrete_prompt_model" / "generic_train_enbert_large.sh"
    script.write_text(script.read_text(encoding="utf-8").replace("steps=(9 24", "steps=(9 25", 1), encoding="utf-8")
    with pytest.raises(
        WorkflowError, match=r"generic_train_enbert_large.sh: sha256 [0-9a-f]{64}, not the input table's .* remove .*levyholt-authors"
    ):
        authors_trials(copy, 100)
    script.unlink()
    with pytest.raises(WorkflowError, match="generic_train_enbert_large.sh: missing from the fetched dataset"):
        authors_trials(copy, 100)


SCRIPT = """#!/bin/bash
lrs=(0.1 0.2 0.3)
lambdas=(0.01 0.02 0.03)
# a comment is not read: steps=(x y z)
steps=(1 2 3)

python src/train/multnat_model.py --model_name_or_path ../../lms/roberta-base --gradient_accumulation_steps "${steps["$SLURM_ARRAY_TASK_ID"]}" --learning_rate "${lrs["$SLURM_ARRAY_TASK_ID"]}" --train_batch_size 6 --weight_decay "${lambdas["$SLURM_ARRAY_TASK_ID"]}" --is_directional
"""


@pytest.mark.parametrize(
    "change, where",
    [
        (("steps=(1 2 3)", "steps=(1 two 3)"), r"s\.sh, line 5, field 'steps': element 1 is 'two', not an integer"),
        (("lambdas=(0.01 0.02 0.03)", "lambdas=(0.01 0.02)"), r"s\.sh, line 3, field 'lambdas': 2 elements, but lrs has 3"),
        (("lrs=(0.1 0.2 0.3)\n", ""), r"s\.sh, field 'lrs': no bash array lrs=\( \.\.\. \)"),
        (
            ('--learning_rate "${lrs["$SLURM_ARRAY_TASK_ID"]}"', "--learning_rate 0.1"),
            r"s\.sh, line 7, field '--learning_rate': expected an element of lrs, lambdas, steps indexed by \$SLURM_ARRAY_TASK_ID, found '0.1'",
        ),
        (("--train_batch_size 6 ", ""), r"s\.sh, line 7, field '--train_batch_size': the command does not set it"),
        (("python src", "echo src"), r"s\.sh: no python command"),
    ],
)
def test_a_script_that_cannot_be_read_is_named_with_its_line_and_field(tmp_path, change, where):
    path = tmp_path / "s.sh"
    path.write_text(SCRIPT, encoding="utf-8")
    script = parse_script(path)
    assert (script.model, script.batch_size, script.directional, script.accumulations) == ("roberta-base", 6, True, (1, 2, 3))
    assert script.trial(2) == Hyperparameters(2, 0.3, 0.03, 3)
    path.write_text(SCRIPT.replace(*change), encoding="utf-8")
    with pytest.raises(InputFormatError, match=where):
        parse_script(path)


def test_the_command_binds_each_option_to_its_array_whatever_the_order(tmp_path):
    """Values follow the command's binding, not the arrays' names in the text: here --learning_rate reads lambdas."""
    path = tmp_path / "s.sh"
    path.write_text(
        SCRIPT.replace('--learning_rate "${lrs[', '--learning_rate "${lambdas[').replace('--weight_decay "${lambdas[', '--weight_decay "${lrs['),
        encoding="utf-8",
    )
    assert parse_script(path).trial(0) == Hyperparameters(0, 0.01, 0.1, 1)


def test_a_smoke_run_trains_the_authors_trial_29_and_the_published_trial_alone(tmp_path):
    """At smoke scale, tiny models under the authors' aliases: in the published mode RoBERTa-base S&S Full trains trial
    29 alone, with learning rate 2.2321402e-05, weight decay 0.0789954262 and accumulation 7 (generic_train_enr_base.sh,
    typed), and its selection says it is the authors' published choice (published epoch 4; the smoke run's one epoch
    holds its best point, so not the published epoch); RoBERTa-large 'S&S Full (no published choice: its search of 30)
    trains trial 29 with paper.yaml's batching, batch 1 and accumulation 42 (generic_symmetric_train_enr_large.sh)."""
    import json

    import pandas as pd

    from conftest import copy_workflow, run_snakemake

    workdir = copy_workflow(tmp_path / "workflow")
    tiny = {"tiny": {"architecture": "bert", "hidden_size": 32, "layers": 2, "heads": 2, "vocab_size": 2000}}
    paper = yaml.safe_load((REPO / "config" / "paper.yaml").read_text(encoding="utf-8"))
    overlay = {
        "models": {"roberta-base": tiny, "roberta-large": tiny},
        "training": {
            "language_models": ["roberta-base", "roberta-large"],
            "trial_source": "authors",
            "search": "published",
            "trials": 30,
            "model_batching": {"roberta-large": paper["training"]["model_batching"]["roberta-large"]},
        },
    }
    (workdir / "authors.yaml").write_text(yaml.safe_dump(overlay), encoding="utf-8")
    targets = ["results/models/roberta-base/sns/full/selection.csv", "results/models/roberta-large/sns_sym/full/trial-29/training.json"]
    args = ["--configfile", "config/smoke.yaml", "authors.yaml", "--cores", "2"]
    planned = run_snakemake(workdir, "-n", *targets, *args).stdout
    assert re.findall(r"output: results/models/roberta-base/sns/full/trial-(\d+)/dev_scores", planned) == ["29"]
    run_snakemake(workdir, *targets, *args)
    models = workdir / "results" / "models"
    assert [p.name for p in sorted((models / "roberta-base" / "sns" / "full").glob("trial-*"))] == ["trial-29"]
    for search, batch, accumulation in (("roberta-base/sns/full", 16, 7), ("roberta-large/sns_sym/full", 1, 42)):
        record = json.loads((models / search / "trial-29" / "training.json").read_text(encoding="utf-8"))
        hp, settings = Hyperparameters(**record["hp"]), record["settings"]
        assert hp == Hyperparameters(29, 2.2321402e-05, 0.0789954262, 7), search
        assert settings["batch_size"] == batch and TrainingSettings(**settings).accumulation(hp) == accumulation, search
    selection = pd.read_csv(models / "roberta-base" / "sns" / "full" / "selection.csv")
    assert selection[
        ["trial", "chosen_by", "published_search", "published_epoch", "epochs", "best_epoch", "best_in_published_epoch"]
    ].values.tolist() == [[29, "published", "levyholt_en_dirp", 4, 1, 0, 0]]
    log = (workdir / "logs" / "training" / "select_sns_model" / "roberta-base" / "sns" / "full.log").read_text(encoding="utf-8")
    assert "the authors' published trial 29 of levyholt_en_dirp: best dev point in epoch 1, NOT the published epoch" in log
