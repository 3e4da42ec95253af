# Phase "evaluation": the selected models score the test sets.


rule score_levyholt:
    input:
        model="results/models/{lm}/{variant}/{subset}/best",
        test=levyholt_test_file,
    output:
        "results/scores/levyholt/{test}/{lm}/{variant}/{subset}.parquet",
    params:
        max_length=config["training"]["max_length"],
        symmetric=is_symmetric,
        lang="en",
        precision=config["training"]["precision"],
        torch_threads=config["training"]["threads"],
    log:
        phase_log("evaluation", "score_levyholt", "{test}/{lm}/{variant}/{subset}"),
    benchmark:
        phase_benchmark("evaluation", "score_levyholt", "{test}/{lm}/{variant}/{subset}")
    threads: config["training"]["threads"]
    resources:
        mem_mb=4000,
        runtime=120,
        gpu=config["training"]["gpus"],
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/score_levyholt.py"

