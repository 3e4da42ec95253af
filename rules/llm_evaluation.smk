# Phase "llm_evaluation": large language models on directional LevyHolt (McKenna, Li et al. 2023): the released
# predictions of the 2023 paper in the documented predictions format, and every predictions file joined by the pair to
# the test sets it covers.
# Its helpers and its outputs: rules/helpers/models.smk.


rule convert_released_predictions:
    input:
        released=layout.resource("llm-nli-analysis"),
        authors=layout.resource("levyholt-authors"),
    output:
        LLM_RELEASED,
    log:
        layout.job_log("llm_evaluation", "convert_released_predictions", "all"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "convert_released_predictions", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/convert_released_predictions.py"


rule join_llm_predictions:
    input:
        predictions=llm_prediction_files(),
        tests=list(LLM_TEST_FILES.values()),
        references=llm_reference_tests(whole=False),
    output:
        scores=expand(layout.llm_file("scores/{test}.parquet"), test=LLM_TEST_SETS),
        joins=layout.llm_file("scores/joins.json"),
    log:
        layout.job_log("llm_evaluation", "join_llm_predictions", "all"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "join_llm_predictions", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        tests=LLM_TEST_FILES,
        names=llm_prediction_names(),
        max_unmatched_share=config["llm"]["max_unmatched_share"],
    script:
        "../scripts/join_llm_predictions.py"


# A causal LM of llm.models made from local files, saved once (a GGUF file de-quantized, a local directory copied, or a
# tiny model built); a hub LLM is downloaded by fetch_llm (resources) and read where it lies.
rule prepare_llm:
    input:
        texts=layout.resource("levyholt"),
    output:
        directory(layout.llm_file("models/{llm}")),
    log:
        layout.job_log("llm_evaluation", "prepare_llm", "{llm}"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "prepare_llm", "{llm}")
    wildcard_constraints:
        llm=alias_pattern(DESIGN.local_llms),
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=60,
    params:
        spec=lambda wildcards: config["llm"]["models"][wildcards.llm],
        seed=config["seed"],
    script:
        "../scripts/prepare_llm.py"


# A causal LM of llm.scorers scores every pair of the whole Directional test with each prompt of llm.prompts.
rule score_llm_levyholt:
    input:
        model=lambda wildcards: DESIGN.llm_directory(wildcards.llm),
        test=layout.levyholt_file("whole/directional/test.tsv"),
    output:
        layout.llm_file("predictions/{llm}.tsv"),
    log:
        layout.job_log("llm_evaluation", "score_llm_levyholt", "{llm}"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "score_llm_levyholt", "{llm}")
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=8000,
        runtime=120,
        gpu=model_gpus,
    params:
        prompts=config["llm"]["prompts"],
        batch_size=config["llm"]["batch_size"],
        precision=config["llm"]["precision"],
        answer_rule=config["llm"]["answer_rule"],
        torch_threads=model_threads,
        checkpoints=".checkpoints/llm_scores/{llm}",  # a job stopped at its time limit resumes from its saved batches
    script:
        "../scripts/score_llm_levyholt.py"


# The same on this run's test sets of llm.test_sets (Full, Symmetric: Table 1; SherLIiC: Table 6).
rule score_llm_run_test:
    input:
        model=lambda wildcards: DESIGN.llm_directory(wildcards.llm),
        test=layout.levyholt_file("{test}/test.tsv"),
    output:
        layout.llm_file("run_predictions/{test}/{llm}.tsv"),
    log:
        layout.job_log("llm_evaluation", "score_llm_run_test", "{test}/{llm}"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "score_llm_run_test", "{test}/{llm}")
    wildcard_constraints:
        test="|".join(LLM_SCORED_RUN_TESTS) or "none",
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=8000,
        runtime=120,
        gpu=model_gpus,
    params:
        prompts=config["llm"]["prompts"],
        batch_size=config["llm"]["batch_size"],
        precision=config["llm"]["precision"],
        answer_rule=config["llm"]["answer_rule"],
        torch_threads=model_threads,
        checkpoints=".checkpoints/llm_scores/{test}/{llm}",
    script:
        "../scripts/score_llm_levyholt.py"


# One of this run's other test sets: the LLMs' scores of it (the pairs they were asked about) and the files of
# llm.predictions (scored where they cover it) joined to it.
rule join_llm_run_test:
    input:
        predictions=lambda wildcards: [path for path, _ in llm_run_test_predictions(wildcards.test)],
        test=layout.levyholt_file("{test}/test.tsv"),
        references=llm_reference_tests(),
    output:
        scores=layout.llm_file("scores/{test}_run.parquet"),
        joins=layout.llm_file("scores/{test}_run.joins.json"),
    log:
        layout.job_log("llm_evaluation", "join_llm_run_test", "{test}"),
    benchmark:
        layout.job_benchmark("llm_evaluation", "join_llm_run_test", "{test}")
    wildcard_constraints:
        test="|".join(LLM_RUN_TESTS) or "none",
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        names=lambda wildcards: [names for _, names in llm_run_test_predictions(wildcards.test)],
        max_unmatched_share=config["llm"]["max_unmatched_share"],
    script:
        "../scripts/join_llm_run_test.py"
