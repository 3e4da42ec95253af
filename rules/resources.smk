# Phase "resources": every external input, sha256-verified, from the mirror or its canonical URL.
# Its helpers and its outputs: rules/helpers/data.smk.


# Downloads and copies of user files run where Snakemake runs (on a cluster: the login or submit node, which reaches
# the network and the user's directories), never as cluster jobs: compute nodes often have no internet. Every download
# of the workflow is one of these rules (tests/test_cluster_jobs.py finds the rules whose scripts reach network code).
localrules:
    fetch_dataset,
    fetch_newscrawl_year,
    gather_newscrawl,
    fetch_model,
    fetch_llm,
    collect_clue_news,
    collect_chinese_levyholt,


# Where a file comes from (mirror, URL, credentials) is read from config in the script, not declared as a param: it
# does not change the verified content, so it must not trigger re-runs.
rule fetch_dataset:
    output:
        directory(layout.resource("{dataset}")),
    log:
        layout.job_log("resources", "fetch_dataset", "{dataset}"),
    benchmark:
        layout.job_benchmark("resources", "fetch_dataset", "{dataset}")
    wildcard_constraints:
        dataset=DATASETS_IN_ONE_JOB,
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=240,
    script:
        "../scripts/fetch_dataset.py"


# News Crawl: a job per year (gigabytes each, so that a failed year is fetched again alone), gathered into one dataset.
rule fetch_newscrawl_year:
    output:
        temp(directory(layout.newscrawl_year("{year}"))),
    log:
        layout.job_log("resources", "fetch_newscrawl_year", "{year}"),
    benchmark:
        layout.job_benchmark("resources", "fetch_newscrawl_year", "{year}")
    wildcard_constraints:
        year=r"\d{4}",
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=240,
    script:
        "../scripts/fetch_dataset.py"


rule gather_newscrawl:
    input:
        expand(layout.newscrawl_year("{year}"), year=config["resources"]["newscrawl"]["years"]),
    output:
        directory(layout.resource("newscrawl")),
    log:
        layout.job_log("resources", "gather_newscrawl", "newscrawl"),
    benchmark:
        layout.job_benchmark("resources", "gather_newscrawl", "newscrawl")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    script:
        "../scripts/gather_newscrawl.py"


rule build_wordnet:
    input:
        sdist=layout.resource("wordnet-3.0"),
        cmn=layout.resource("omw-cmn"),
    output:
        directory(layout.resource("nltk_data")),
    log:
        layout.job_log("resources", "build_wordnet", "nltk_data"),
    benchmark:
        layout.job_benchmark("resources", "build_wordnet", "nltk_data")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/build_wordnet.py"


rule collect_clue_news:
    output:
        directory(layout.resource("clue-news2016zh")),
    log:
        layout.job_log("resources", "collect_clue_news", "clue-news2016zh"),
    benchmark:
        layout.job_benchmark("resources", "collect_clue_news", "clue-news2016zh")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=60,
    params:
        source=config["resources"]["clue_news2016zh"],
    script:
        "../scripts/collect_clue_news.py"


rule collect_chinese_levyholt:
    output:
        directory(layout.resource("levyholt-zh")),
    log:
        layout.job_log("resources", "collect_chinese_levyholt", "levyholt-zh"),
    benchmark:
        layout.job_benchmark("resources", "collect_chinese_levyholt", "levyholt-zh")
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        source=config["resources"]["levyholt_zh"],
    script:
        "../scripts/collect_chinese_levyholt.py"


rule fetch_model:
    output:
        directory(layout.model_directory("{model}")),
    log:
        layout.job_log("resources", "fetch_model", "{model}"),
    benchmark:
        layout.job_benchmark("resources", "fetch_model", "{model}")
    wildcard_constraints:
        model="|".join(DESIGN.pretrained_models) or "NO_MODEL",
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        name=model_spec,
    script:
        "../scripts/fetch_model.py"


# A hub LLM of llm.scorers, downloaded straight into its place (no hub cache, no second copy); the scoring jobs read it
# there. The LLMs made from local files (a GGUF file, a directory, a tiny model) are prepare_llm's (llm_evaluation).
rule fetch_llm:
    output:
        directory(layout.hub_llm_directory("{llm}")),
    log:
        layout.job_log("resources", "fetch_llm", "{llm}"),
    benchmark:
        layout.job_benchmark("resources", "fetch_llm", "{llm}")
    wildcard_constraints:
        llm=alias_pattern(DESIGN.hub_llms),
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=240,
    params:
        name=lambda wildcards: config["llm"]["models"][wildcards.llm],
    script:
        "../scripts/fetch_llm.py"


rule build_tiny_model:
    input:
        texts=tiny_model_texts,
    output:
        directory(layout.model_directory("{model}")),
    log:
        layout.job_log("resources", "build_tiny_model", "{model}"),
    benchmark:
        layout.job_benchmark("resources", "build_tiny_model", "{model}")
    wildcard_constraints:
        model="|".join(DESIGN.tiny_models) or "NO_MODEL",
    priority: TOP_PRIORITY
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        spec=model_spec,
        seed=config["seed"],
    script:
        "../scripts/build_tiny_model.py"
