# Phase "booqa": positives, WordNet negatives and frequency-matched bundle sampling per language.
# Its helpers and its outputs: rules/helpers/data.smk.


rule select_booqa_positives:
    input:
        relations=merged_relations,
    output:
        positives=layout.booqa_file("{lang}", "positives.parquet"),
        counts=layout.booqa_file("{lang}", "predicate_counts.parquet"),
    log:
        layout.job_log("booqa", "select_booqa_positives", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "select_booqa_positives", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=5.5, seconds_per_mb=0.2)),
    params:
        settings=booqa_params("starring_min_articles", "starring_min_predicates", "felicity_min_pairs", "felicity_count", "max_positives"),
        seed=config["seed"],
    script:
        "../scripts/select_booqa_positives.py"


rule generate_booqa_negatives:
    input:
        positives=layout.booqa_file("{lang}", "positives.parquet"),
        counts=layout.booqa_file("{lang}", "predicate_counts.parquet"),
        relations=merged_relations,
        wordnet=layout.resource("nltk_data"),
        encoder=wsd_encoder_directory,
    output:
        layout.booqa_file("{lang}", "negatives.parquet"),
    log:
        layout.job_log("booqa", "generate_booqa_negatives", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "generate_booqa_negatives", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=1.0, seconds_per_mb=0.17)),
    params:
        settings=negative_settings,  # the encoder is an input: its alias is in the path
    script:
        "../scripts/generate_booqa_negatives.py"


rule sample_booqa:
    input:
        positives=layout.booqa_file("{lang}", "positives.parquet"),
        negatives=layout.booqa_file("{lang}", "negatives.parquet"),
        articles=layout.corpus_file("{lang}", "articles.parquet"),
    output:
        dev=layout.booqa_split("{lang}", "dev"),
        test=layout.booqa_split("{lang}", "test"),
        dev_jsonl=layout.booqa_file("{lang}", "dev.jsonl"),
        test_jsonl=layout.booqa_file("{lang}", "test.jsonl"),
        reserved=layout.booqa_file("{lang}", "graph_windows.csv"),
    log:
        layout.job_log("booqa", "sample_booqa", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "sample_booqa", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        settings=booqa_params("positive_budget", "max_negatives_per_positive", "frequency_buckets", "dev_share", "graph_window_share"),
        seed=config["seed"],
    script:
        "../scripts/sample_booqa.py"


rule write_booqa_card:
    input:
        dev=layout.booqa_split("{lang}", "dev"),
        test=layout.booqa_split("{lang}", "test"),
        reading=layout.corpus_file("{lang}", "reading.json"),
        # evidence per entry, retrieved as retrieve_booqa_evidence does (its files are of a later phase)
        relations=merged_relations,
        wordnet=layout.resource("nltk_data"),
    output:
        card=layout.booqa_file("{lang}", "README.md"),
        density=layout.booqa_file("{lang}", "evidence_density.csv"),
    log:
        layout.job_log("booqa", "write_booqa_card", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "write_booqa_card", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=1.5, seconds_per_mb=0.09)),
    params:
        parameters=card_parameters,
        source=lambda wildcards: config["corpus"][wildcards.lang]["source"],
        scale=config["scale"],
        cap=config["evaluation"]["evidence_cap"],
        seed=config["seed"],
    script:
        "../scripts/write_booqa_card.py"


rule build_booqa_hyponly:
    input:
        dev=layout.booqa_split("{lang}", "dev"),
        test=layout.booqa_split("{lang}", "test"),
    output:
        train=layout.booqa_hyponly_split("{lang}", "train"),
        dev=layout.booqa_hyponly_split("{lang}", "dev"),
        test=layout.booqa_hyponly_split("{lang}", "test"),
    log:
        layout.job_log("booqa", "build_booqa_hyponly", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "build_booqa_hyponly", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        settings=config["hypothesis_only"],
        seed=config["seed"],
    script:
        "../scripts/build_booqa_hyponly.py"


rule validate_booqa:
    input:
        dev=layout.booqa_split("{lang}", "dev"),
        test=layout.booqa_split("{lang}", "test"),
        negatives=layout.booqa_file("{lang}", "negatives.parquet"),
        counts=layout.booqa_file("{lang}", "predicate_counts.parquet"),
        reserved=layout.booqa_file("{lang}", "graph_windows.csv"),
        relations=merged_relations,
        wordnet=layout.resource("nltk_data"),
    output:
        layout.booqa_file("{lang}", "validation.json"),
    log:
        layout.job_log("booqa", "validate_booqa", "{lang}"),
    benchmark:
        layout.job_benchmark("booqa", "validate_booqa", "{lang}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=4000, disk_per_input_mb=1.0, seconds_per_mb=0.03)),
    params:
        settings=booqa_params("felicity_min_pairs", "max_negatives_per_positive"),
    script:
        "../scripts/validate_booqa.py"
