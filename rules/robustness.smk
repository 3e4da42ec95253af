# Phase "robustness" (Table 3): hypothesis-only S&S trained on type-masked BoOQA dev (train / dev2) and
# tested on BoOQA test, beside the LevyHolt hypothesis-only models applied to the same test.


include: "helpers/robustness.smk"


rule train_booqa_hyponly_trial:
    input:
        model="resources/models/{lm}",
        hyperparameters=DESIGN.trials_file,
        train="results/{lang}/booqa_hyponly/train.tsv",
        dev="results/{lang}/booqa_hyponly/dev.tsv",
    output:
        dev_scores="results/robustness/{lang}/{lm}/trial-{trial}/dev_scores.parquet",
        evaluations="results/robustness/{lang}/{lm}/trial-{trial}/evaluations.csv",
        record="results/robustness/{lang}/{lm}/trial-{trial}/training.json",
        # emptied (a note left) once a finished trial of the search ranks above it; removed after the selection
        weights=temp(directory("results/robustness/{lang}/{lm}/trial-{trial}/model")),
    log:
        phase_log("robustness", "train_booqa_hyponly_trial", "{lang}/{lm}/trial-{trial}"),
    benchmark:
        phase_benchmark("robustness", "train_booqa_hyponly_trial", "{lang}/{lm}/trial-{trial}")
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
        search="results/robustness/{lang}/{lm}",
        search_trials=DESIGN.search_trial_ids,
        selection_floor=config["training"]["selection_precision_floor"],
    script:
        "../scripts/train_sns_trial.py"


rule select_booqa_hyponly_model:
    input:
        unpack(robustness_trial_outputs),
        hyperparameters=DESIGN.trials_file,
    output:
        selection="results/robustness/{lang}/{lm}/selection.csv",
        best=directory("results/robustness/{lang}/{lm}/best"),
    log:
        phase_log("robustness", "select_booqa_hyponly_model", "{lang}/{lm}"),
    benchmark:
        phase_benchmark("robustness", "select_booqa_hyponly_model", "{lang}/{lm}")
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
        test="results/{lang}/booqa_hyponly/test.tsv",
    output:
        "results/robustness/{lang}/scores/{lm}/{trained_on}.parquet",
    log:
        phase_log("robustness", "score_booqa_hyponly", "{lang}/{lm}/{trained_on}"),
    benchmark:
        phase_benchmark("robustness", "score_booqa_hyponly", "{lang}/{lm}/{trained_on}")
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
