# Phase "training": S&S, 'S&S and hypothesis-only S&S fine-tuned on LevyHolt subsets with a
# hyper-parameter search; every trial is its own job, the best by dev AUC (precision >= 0.51) is kept.
# Its helpers and its outputs: rules/helpers/models.smk.


rule draw_hyperparameters:
    output:
        layout.drawn_trials_file(),
    log:
        layout.job_log("training", "draw_hyperparameters", "all"),
    benchmark:
        layout.job_benchmark("training", "draw_hyperparameters", "all")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    params:
        trials=drawn_trials(),
        seed=config["seed"],
        learning_rate_range=config["training"]["learning_rate_range"],
        weight_decay_range=config["training"]["weight_decay_range"],
        grad_accumulation_range=config["training"]["grad_accumulation_range"],
    script:
        "../scripts/draw_hyperparameters.py"


rule read_authors_trials:
    input:
        scripts=layout.resource("levyholt-authors"),
    output:
        layout.authors_trials_file(),
    log:
        layout.job_log("training", "read_authors_trials", "all"),
    benchmark:
        layout.job_benchmark("training", "read_authors_trials", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/read_authors_trials.py"


rule train_sns_trial:
    input:
        model=layout.model_directory("{lm}"),
        hyperparameters=DESIGN.trials_file,
        train=levyholt_train_file,
        dev=levyholt_dev_file,
    output:
        dev_scores=layout.trial_file("{lm}", "{variant}", "{subset}", "{trial}", "dev_scores.parquet"),
        evaluations=layout.trial_file("{lm}", "{variant}", "{subset}", "{trial}", "evaluations.csv"),
        record=layout.trial_file("{lm}", "{variant}", "{subset}", "{trial}", "training.json"),
        # emptied (a note left) once a finished trial of the search ranks above it; removed after the selection
        weights=temp(directory(layout.trial_file("{lm}", "{variant}", "{subset}", "{trial}", "model"))),
    log:
        layout.job_log("training", "train_sns_trial", "{lm}/{variant}/{subset}/trial-{trial}"),
    benchmark:
        layout.job_benchmark("training", "train_sns_trial", "{lm}/{variant}/{subset}/trial-{trial}")
    priority: training_priority
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=6000,
        runtime=lambda wildcards, attempt: 240 * attempt,  # a retry resumes from the checkpoint, with more time
        gpu=model_gpus,
    params:
        # resumable state lives outside the declared outputs, which Snakemake deletes before a re-run
        checkpoint_dir=".checkpoints/{lm}/{variant}/{subset}/trial-{trial}",
        settings=trial_settings,
        samples=DESIGN.trial_samples,
        search=layout.search_directory("{lm}", "{variant}", "{subset}"),
        search_trials=DESIGN.search_trial_ids,
        selection_floor=config["training"]["selection_precision_floor"],
    script:
        "../scripts/train_sns_trial.py"


rule select_sns_model:
    input:
        unpack(trial_outputs),
        hyperparameters=DESIGN.trials_file,
    output:
        selection=layout.search_file("{lm}", "{variant}", "{subset}", "selection.csv"),
        best=directory(layout.search_file("{lm}", "{variant}", "{subset}", "best")),
    log:
        layout.job_log("training", "select_sns_model", "{lm}/{variant}/{subset}"),
    benchmark:
        layout.job_benchmark("training", "select_sns_model", "{lm}/{variant}/{subset}")
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


rule check_sns_model:
    input:
        model=layout.search_file("{lm}", "{variant}", "{subset}", "best"),
    output:
        layout.search_file("{lm}", "{variant}", "{subset}", "sanity.csv"),
    log:
        layout.job_log("training", "check_sns_model", "{lm}/{variant}/{subset}"),
    benchmark:
        layout.job_benchmark("training", "check_sns_model", "{lm}/{variant}/{subset}")
    wildcard_constraints:
        variant="sns|sns_sym",  # H-only models never see the premise
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=2000,
        runtime=10,
        gpu=model_gpus,
    params:
        scorer=DESIGN.prompt_scorer_settings,
        torch_threads=model_threads,
    script:
        "../scripts/check_sns_model.py"
