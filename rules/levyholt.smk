# Phase "levyholt": the S&S split, sub-groups, the six pair subsets + Full, hypothesis-only variants, SherLIiC.
# Its helpers and its outputs: rules/helpers/data.smk.


rule build_levyholt_subsets:
    input:
        raw=layout.resource("levyholt"),
        authors=layout.resource("levyholt-authors"),
    output:
        subgroups=report(
            layout.levyholt_file("subgroups.csv"), caption="../report/subgroups.rst", category="LevyHolt", labels={"table": "sub-groups"}
        ),
        subsets=layout.levyholt_file("subsets.csv"),
        files=levyholt_data_files(),
    log:
        layout.job_log("levyholt", "build_levyholt_subsets", "all"),
    benchmark:
        layout.job_benchmark("levyholt", "build_levyholt_subsets", "all")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        source=config["levyholt"]["source"],
        seed=config["levyholt"]["split_seed"],
        authors_subsets=config["levyholt"]["authors_files_for"],
        resplit=config["levyholt"]["directional_resplit"],
        dev_pairs=config["levyholt"]["directional_dev_pairs"],
        premise=config["hypothesis_only"]["premise"]["en"],
        limits={
            "train": config["levyholt"]["max_train"],
            "dev": config["levyholt"]["max_dev"],
            "test": config["levyholt"]["max_test"],
        },
    script:
        "../scripts/build_levyholt_subsets.py"


# The whole test sets that predictions made elsewhere cover (the LLM table): as build_levyholt_subsets builds them,
# never subsampled.
rule build_levyholt_whole_tests:
    input:
        raw=layout.resource("levyholt"),
        authors=layout.resource("levyholt-authors"),
    output:
        expand(layout.levyholt_file("whole/{subset}/test.tsv"), subset=LEVYHOLT_WHOLE_TESTS),
    log:
        layout.job_log("levyholt", "build_levyholt_whole_tests", "all"),
    benchmark:
        layout.job_benchmark("levyholt", "build_levyholt_whole_tests", "all")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        source=config["levyholt"]["source"],
        seed=config["levyholt"]["split_seed"],
        authors_subsets=config["levyholt"]["authors_files_for"],
        resplit=config["levyholt"]["directional_resplit"],
        dev_pairs=config["levyholt"]["directional_dev_pairs"],
    script:
        "../scripts/build_levyholt_whole_tests.py"


rule build_chinese_levyholt_subsets:
    input:
        layout.resource("levyholt-zh"),
    output:
        table=layout.levyholt_file("zh_subsets.csv"),
        files=[f for f in chinese_levyholt_files() if f.endswith(".tsv")],
    log:
        layout.job_log("levyholt", "build_chinese_levyholt_subsets", "all"),
    benchmark:
        layout.job_benchmark("levyholt", "build_chinese_levyholt_subsets", "all")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        seed=config["levyholt"]["split_seed"],
        limits={
            "train": config["levyholt"]["max_train"],
            "dev": config["levyholt"]["max_dev"],
            "test": config["levyholt"]["max_test"],
        },
        dev_pairs=config["levyholt"]["directional_dev_pairs"],
        premise=config["hypothesis_only"]["premise"]["zh"],
    script:
        "../scripts/build_chinese_levyholt_subsets.py"
