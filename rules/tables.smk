# Phase "tables": tables and figures of the paper from the scores, each beside the paper's numbers.
# Its helpers and its outputs: rules/helpers/tables.smk.


rule make_levyholt_table:
    input:
        scores=levyholt_table_scores,
        records=levyholt_table_records,
    output:
        report(layout.result("{table}.csv"), caption="../report/levyholt_table.rst", category="LevyHolt", labels={"table": "{table}"}),
    log:
        layout.job_log("tables", "make_levyholt_table", "{table}"),
    benchmark:
        layout.job_benchmark("tables", "make_levyholt_table", "{table}")
    wildcard_constraints:
        table="table1|table2|table6|figure1|figure2",
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        models=levyholt_model_infos,
        scale=config["scale"],
        evaluation=table_evaluation(),
        conventions=subset_conventions(config["levyholt"]["source"], config["levyholt"]["authors_files_for"]),
    script:
        "../scripts/make_levyholt_table.py"


rule plot_mesh_figure:
    input:
        layout.result("{figure}.csv"),
    output:
        png=report(layout.result("{figure}.png"), caption="../report/mesh_figure.rst", category="LevyHolt", labels={"figure": "{figure}"}),
        svg=layout.result("{figure}.svg"),
    log:
        layout.job_log("tables", "plot_mesh_figure", "{figure}"),
    benchmark:
        layout.job_benchmark("tables", "plot_mesh_figure", "{figure}")
    wildcard_constraints:
        figure="figure1|figure2",
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/plot_mesh_figure.py"


rule make_llm_table:
    input:
        scores=expand(layout.llm_file("scores/{test}.parquet"), test=LLM_TEST_SETS),
        joins=layout.llm_file("scores/joins.json"),
        run_tests=llm_run_test_scores(),
        sns=[layout.levyholt_score_directory(lm, "sns", subset) for lm in DESIGN.english_booqa_lms for subset in ("directional", "full")],
    output:
        csv=report(layout.result("table_llm.csv"), caption="../report/table_llm.rst", category="LLMs"),
        png=report(layout.result("figure_llm.png"), caption="../report/table_llm.rst", category="LLMs"),
        svg=layout.result("figure_llm.svg"),
    log:
        layout.job_log("tables", "make_llm_table", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_llm_table", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        lms=DESIGN.english_booqa_lms,  # the S&S rows: the main model's and those of training.booqa_language_models
        scale=config["scale"],
        evaluation=table_evaluation(),
        tests=LLM_TEST_SETS,
        run_tests=[f"{test}_run" for test in LLM_RUN_TESTS],
    script:
        "../scripts/make_llm_table.py"


rule make_findings:
    input:
        unpack(findings_inputs),
    output:
        csv=report(layout.result("findings.csv"), caption="../report/findings.rst", category="Findings"),
        markdown=layout.result("findings.md"),
    log:
        layout.job_log("tables", "make_findings", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_findings", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        claims=findings_claims(),
        lm=DESIGN.main_lm,
        scale=config["scale"],
        evaluation=table_evaluation(),
    script:
        "../scripts/make_findings.py"


rule collect_metrics:
    input:
        expand(
            layout.result("{table}.csv"),
            table=[
                "table1",
                "table2",
                "table3",
                "table3_generality",
                "table4",
                "table5",
                "table6",
                "table15",
                "table16",
                "table17",
                "table_llm",
                "figure1",
                "figure2",
            ],
        ),
    output:
        layout.result("metrics.json"),
    log:
        layout.job_log("tables", "collect_metrics", "all"),
    benchmark:
        layout.job_benchmark("tables", "collect_metrics", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/collect_metrics.py"


rule write_pr_points:
    input:
        # the PR curves of Table 1
        DESIGN.levyholt_scores_for("table1"),
    output:
        layout.result("pr_curves.csv"),
    log:
        layout.job_log("tables", "write_pr_points", "all"),
    benchmark:
        layout.job_benchmark("tables", "write_pr_points", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        models=levyholt_model_infos,
    script:
        "../scripts/write_pr_points.py"


rule make_table4:
    input:
        splits=expand(layout.booqa_split("{lang}", "{split}"), lang=config["booqa"]["languages"], split=["dev", "test"]),
        validations=expand(layout.booqa_file("{lang}", "validation.json"), lang=config["booqa"]["languages"]),
        densities=expand(layout.booqa_file("{lang}", "evidence_density.csv"), lang=config["booqa"]["languages"]),
    output:
        report(layout.result("table4.csv"), caption="../report/table4.rst", category="BoOQA"),
    log:
        layout.job_log("tables", "make_table4", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_table4", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        languages=config["booqa"]["languages"],
        scale=config["scale"],
        sources={lang: config["corpus"][lang]["source"] for lang in config["booqa"]["languages"]},
    script:
        "../scripts/make_table4.py"


rule make_booqa_table:
    input:
        scores=booqa_table_scores,
        records=booqa_model_records,
        validations=expand(layout.booqa_file("{lang}", "validation.json"), lang=config["booqa"]["languages"]),
    output:
        report(layout.result("{booqa_table}.csv"), caption="../report/booqa_table.rst", category="BoOQA", labels={"table": "{booqa_table}"}),
    log:
        layout.job_log("tables", "make_booqa_table", "{booqa_table}"),
    benchmark:
        layout.job_benchmark("tables", "make_booqa_table", "{booqa_table}")
    wildcard_constraints:
        booqa_table="|".join(BOOQA_TABLES),
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        languages=config["booqa"]["languages"],
        runnable={lang: DESIGN.runnable_methods(lang) for lang in ["en", "zh"]},
        methods=lambda wildcards: DESIGN.booqa_table_methods(wildcards.booqa_table),
        models=booqa_models(),
        model_kinds=lm_encoder_kinds(),
        booqa_methods=dataclasses.asdict(DESIGN.booqa_methods),
        scale=config["scale"],
        evaluation=table_evaluation(),
    script:
        "../scripts/make_booqa_table.py"


rule make_table3:
    input:
        DESIGN.robustness_score_files(),
    output:
        report(layout.result("table3.csv"), caption="../report/table3.rst", category="BoOQA"),
    log:
        layout.job_log("tables", "make_table3", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_table3", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        languages=DESIGN.table3_languages,
        models=DESIGN.table3_models,
        scale=config["scale"],
        evaluation=table_evaluation(),
    script:
        "../scripts/make_table3.py"


rule make_table3_generality:
    input:
        unpack(table3_generality_inputs),
    output:
        report(layout.result("table3_generality.csv"), caption="../report/table3_generality.rst", category="BoOQA"),
    log:
        layout.job_log("tables", "make_table3_generality", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_table3_generality", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        trained_on=TABLE3_TRAINED_ON,
        models=DESIGN.table3_models.get("en", []),
        scale=config["scale"],
    script:
        "../scripts/make_table3_generality.py"


rule plot_figure3:
    input:
        DESIGN.booqa_score_files("table5"),
    output:
        png=report(layout.result("figure3.png"), caption="../report/figure3.rst", category="BoOQA"),
        svg=layout.result("figure3.svg"),
        points=layout.result("booqa_pr_curves.csv"),
    log:
        layout.job_log("tables", "plot_figure3", "all"),
    benchmark:
        layout.job_benchmark("tables", "plot_figure3", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    params:
        runnable={lang: DESIGN.runnable_methods(lang) for lang in config["booqa"]["languages"]},
        model=DESIGN.main_lm,
        scale=config["scale"],
    script:
        "../scripts/plot_figure3.py"


rule make_table17:
    input:
        levyholt=layout.resource("levyholt"),
        graph=[layout.graph("en", "test")] if "en" in config["booqa"]["languages"] else [],
    output:
        report(layout.result("table17.csv"), caption="../report/table17.rst", category="LevyHolt"),
    log:
        layout.job_log("tables", "make_table17", "all"),
    benchmark:
        layout.job_benchmark("tables", "make_table17", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        measures=config["graphs"]["measures"],
        lookup=DESIGN.graph_lookup(),
        spacy_model=config["relations"]["spacy_model"],
        graph_name="local graph from the English corpus windows outside BoOQA test",
        scale=config["scale"],
        evaluation=table_evaluation(),
    script:
        "../scripts/make_table17.py"


rule write_model_card:
    input:
        unpack(model_card_inputs),
    output:
        layout.model_card("{lm}", "{variant}", "{subset}"),
    log:
        layout.job_log("tables", "write_model_card", "{lm}/{variant}/{subset}"),
    benchmark:
        layout.job_benchmark("tables", "write_model_card", "{lm}/{variant}/{subset}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        scale=config["scale"],
        evaluation=table_evaluation(),
        trained_on=lambda wildcards: f"LevyHolt `{wildcards.subset}`",
        dataset="levyholt",
        score_files=model_card_scores,
    script:
        "../scripts/write_model_card.py"


rule write_booqa_hyponly_card:
    input:
        unpack(booqa_hyponly_card_inputs),
    output:
        layout.model_card("{lm}", "hyponly", "booqa_{lang}"),
    log:
        layout.job_log("tables", "write_booqa_hyponly_card", "{lm}/{lang}"),
    benchmark:
        layout.job_benchmark("tables", "write_booqa_hyponly_card", "{lm}/{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        scale=config["scale"],
        evaluation=table_evaluation(),
        trained_on=lambda wildcards: f"BoOQA dev ({'English' if wildcards.lang == 'en' else 'Chinese'}, arguments masked by their types)",
        dataset="booqa",
        score_files=lambda wildcards, input: {"BoOQA test (hypothesis-only)": input.scores},
    script:
        "../scripts/write_model_card.py"
