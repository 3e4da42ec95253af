# Phase "levyholt_evaluation": each selected model scores the entries of all its test sets once (subset tests are cuts of Full).
# Its helpers and its outputs: rules/helpers/models.smk.


rule score_levyholt:
    input:
        unpack(levyholt_test_files),
        model=layout.search_file("{lm}", "{variant}", "{subset}", "best"),
    output:
        directory(layout.levyholt_score_directory("{lm}", "{variant}", "{subset}")),
    log:
        layout.job_log("levyholt_evaluation", "score_levyholt", "{lm}/{variant}/{subset}"),
    benchmark:
        layout.job_benchmark("levyholt_evaluation", "score_levyholt", "{lm}/{variant}/{subset}")
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=4000,
        runtime=lambda wildcards, attempt: 120 * attempt,
        gpu=model_gpus,
    params:
        scorer=DESIGN.prompt_scorer_settings,
        torch_threads=model_threads,
    script:
        "../scripts/score_levyholt.py"
