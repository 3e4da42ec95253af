# Phase "booqa_evaluation": evidence retrieval and the scores of every BoOQA method.
# Its helpers and its outputs: rules/helpers/models.smk.


rule retrieve_booqa_evidence:
    input:
        relations=merged_relations,
        split=layout.booqa_split("{lang}", "{split}"),
        wordnet=layout.resource("nltk_data"),  # the entry's predicate is excluded up to voice (passive participles -> verbs)
    output:
        layout.evidence("{lang}", "{split}"),
    log:
        layout.job_log("booqa_evaluation", "retrieve_booqa_evidence", "{lang}/{split}"),
    benchmark:
        layout.job_benchmark("booqa_evaluation", "retrieve_booqa_evidence", "{lang}/{split}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=1.5, seconds_per_mb=0.13)),
    params:
        cap=config["evaluation"]["evidence_cap"],
        seed=config["seed"],
    script:
        "../scripts/retrieve_booqa_evidence.py"


rule retrieve_tfidf_evidence:
    input:
        articles=layout.corpus_file("{lang}", "articles.parquet"),
        relations=merged_relations,
        split=layout.booqa_split("{lang}", "{split}"),
    output:
        layout.evidence("{lang}", "{split}", tfidf=True),
    log:
        layout.job_log("booqa_evaluation", "retrieve_tfidf_evidence", "{lang}/{split}"),
    benchmark:
        layout.job_benchmark("booqa_evaluation", "retrieve_tfidf_evidence", "{lang}/{split}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=0.5, seconds_per_mb=1.0)),
    params:
        # named, as in build_entailment_graph: a swap of the two numbers must re-run the job
        settings={
            "top_articles": config["evaluation"]["tfidf_top_articles"],
            "sentences_per_article": config["evaluation"]["tfidf_sentences_per_article"],
        },
    script:
        "../scripts/retrieve_tfidf_evidence.py"


rule score_booqa:
    input:
        unpack(booqa_method_inputs),
        split=layout.booqa_split("{lang}", "{split}"),
    output:
        layout.booqa_scores("{lang}", "{split}", "{method}"),
    log:
        layout.job_log("booqa_evaluation", "score_booqa", "{lang}/{split}/{method}"),
    benchmark:
        layout.job_benchmark("booqa_evaluation", "score_booqa", "{lang}/{split}/{method}")
    wildcard_constraints:
        method=WHOLE_SCORING_METHODS,
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=6000,
        runtime=lambda wildcards, attempt: 240 * attempt,  # a retry resumes from the progress file, with more time
        gpu=scoring_gpus,
    params:
        settings=booqa_scoring_settings,
        torch_threads=model_threads,
        part=0,
        parts=1,
        progress=".checkpoints/booqa_scores/{lang}/{split}/{method}.npz",
    script:
        "../scripts/score_booqa.py"


rule score_booqa_part:
    input:
        unpack(booqa_method_inputs),
        split=layout.booqa_split("{lang}", "{split}"),
    output:
        layout.booqa_scores("{lang}", "{split}", "{method}", part="{part}"),
    log:
        layout.job_log("booqa_evaluation", "score_booqa_part", "{lang}/{split}/{method}.part-{part}"),
    benchmark:
        layout.job_benchmark("booqa_evaluation", "score_booqa_part", "{lang}/{split}/{method}.part-{part}")
    wildcard_constraints:
        method=SPLIT_SCORING_METHODS,
    conda:
        "../envs/workflow.yaml"
    threads: model_threads
    resources:
        mem_mb=6000,
        runtime=lambda wildcards, attempt: 120 * attempt,  # a retry resumes from the progress file, with more time
        gpu=scoring_gpus,
    params:
        settings=booqa_scoring_settings,
        torch_threads=model_threads,
        part=lambda wildcards: int(wildcards.part),
        parts=config["evaluation"]["scoring_jobs"],
        progress=".checkpoints/booqa_scores/{lang}/{split}/{method}.part-{part}.npz",
    script:
        "../scripts/score_booqa.py"


rule gather_booqa_scores:
    input:
        parts=score_parts,
    output:
        layout.booqa_scores("{lang}", "{split}", "{method}"),
    log:
        layout.job_log("booqa_evaluation", "gather_booqa_scores", "{lang}/{split}/{method}"),
    benchmark:
        layout.job_benchmark("booqa_evaluation", "gather_booqa_scores", "{lang}/{split}/{method}")
    wildcard_constraints:
        method=SPLIT_SCORING_METHODS,
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/gather_booqa_scores.py"
