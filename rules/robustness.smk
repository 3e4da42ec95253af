# Phase "robustness" (Table 3): hypothesis-only S&S trained on type-masked BoOQA dev (train / dev2) and
# tested on BoOQA test, beside the LevyHolt hypothesis-only models applied to the same test.
# Its helpers and its outputs: rules/helpers/models.smk.


rule train_booqa_hyponly_trial:
    input:
        model=layout.model_directory("{lm}"),
        hyperparameters=DESIGN.trials_file,
        train=layout.booqa_hyponly_split("{lang}", "train"),
        dev=layout.booqa_hyponly_split("{lang}", "dev"),
    output:
        dev_scores=layout.robustness_trial_file("{lang}", "{lm}", "{trial}", "dev_scores.parquet"),
        evaluations=layout.robustness_trial_file("{lang}", "{lm}", "{trial}", "evaluations.csv"),
        record=layout.robustness_trial_file("{lang}", "{lm}", "{trial}", "training.json"),
        # emptied (a note left) once a finished trial of the search ranks above it; removed after the selection
        weights=temp(directory(layout.robustness_trial_file("{lang}", "{lm}", "{trial}", "model"))),
    log:
        layout.job_log("robustness", "train_booqa_hyponly_trial", "{lang}/{lm}/trial-{trial}"),
    benchmark:
        layout.job_benchmark("robustness", "train_booqa_hyponly_trial", "{lang}/{lm}/trial-{trial}")
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=6000,
        runtime=lambda wildcards, attempt: 240 * attempt,  # a retry resumes from the checkpoint, with more time
        gpu=model_gpus,
    params:
        checkpoint_dir=".checkpoints/robustness/{lang}/{lm}/trial-{trial}",
        settings=trial_settings,
        samples=DESIGN.trial_samples,
        search=layout.robustness_directory("{lang}", "{lm}"),
        search_trials=DESIGN.search_trial_ids,
        selection_floor=config["training"]["selection_precision_floor"],
    script:
        "../scripts/train_sns_trial.py"


rule select_booqa_hyponly_model:
    input:
        unpack(robustness_trial_outputs),
        hyperparameters=DESIGN.trials_file,
    output:
        selection=layout.robustness_file("{lang}", "{lm}", "selection.csv"),
        best=directory(layout.robustness_file("{lang}", "{lm}", "best")),
    log:
        layout.job_log("robustness", "select_booqa_hyponly_model", "{lang}/{lm}"),
    benchmark:
        layout.job_benchmark("robustness", "select_booqa_hyponly_model", "{lang}/{lm}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        floor=config["training"]["selection_precision_floor"],
        trials=DESIGN.search_trial_ids,
        origin=DESIGN.search_origin,
    script:
        "../scripts/select_sns_model.py"


rule score_booqa_hyponly:
    input:
        model=robustness_model,
        test=layout.booqa_hyponly_split("{lang}", "test"),
    output:
        layout.robustness_score_path("{lang}", "{lm}", "{trained_on}"),
    log:
        layout.job_log("robustness", "score_booqa_hyponly", "{lang}/{lm}/{trained_on}"),
    benchmark:
        layout.job_benchmark("robustness", "score_booqa_hyponly", "{lang}/{lm}/{trained_on}")
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=4000,
        runtime=lambda wildcards, attempt: 120 * attempt,
        gpu=model_gpus,
    params:
        max_length=config["training"]["max_length"],
        lang=wildcard_lang,
        precision=config["training"]["precision"],
        torch_threads=model_threads,
    script:
        "../scripts/score_booqa_hyponly.py"
