# Phase "llm_evaluation": large language models on directional LevyHolt (McKenna, Li et al. 2023): the released
# predictions of the 2023 paper in the documented predictions format, and every predictions file joined to the
# Directional test sets by the pair.


include: "helpers/llm_evaluation.smk"


rule convert_released_predictions:
    input:
        released="resources/llm-nli-analysis",
        authors="resources/levyholt-authors",
    output:
        LLM_RELEASED,
    log:
        phase_log("llm_evaluation", "convert_released_predictions", "all"),
    benchmark:
        phase_benchmark("llm_evaluation", "convert_released_predictions", "all")
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/convert_released_predictions.py"


rule join_llm_predictions:
    input:
        predictions=llm_prediction_files(),
        whole="results/levyholt/whole/directional/test.tsv",
        run="results/levyholt/directional/test.tsv",
    output:
        scores=expand("results/llm/scores/{test}.parquet", test=LLM_TEST_SETS),
        joins="results/llm/scores/joins.json",
    params:
        names=llm_prediction_names(),
        max_unmatched_share=config["llm"]["max_unmatched_share"],
    log:
        phase_log("llm_evaluation", "join_llm_predictions", "all"),
    benchmark:
        phase_benchmark("llm_evaluation", "join_llm_predictions", "all")
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/join_llm_predictions.py"
