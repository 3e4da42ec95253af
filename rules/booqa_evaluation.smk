# Phase "booqa_evaluation": evidence retrieval and the scores of every BoOQA method.


include: "helpers/booqa_evaluation.smk"


rule retrieve_booqa_evidence:
    input:
        articles="results/{lang}/corpus/articles.parquet",
        relations=relation_shards,
        split="results/{lang}/booqa/{split}.parquet",
        wordnet="resources/nltk_data",  # the entry's predicate is excluded up to voice (passive participles -> verbs)
    output:
        "results/{lang}/evidence/{split}.parquet",
    params:
        cap=config["evaluation"]["evidence_cap"],
        seed=config["seed"],
    log:
        phase_log("booqa_evaluation", "retrieve_booqa_evidence", "{lang}/{split}"),
    benchmark:
        phase_benchmark("booqa_evaluation", "retrieve_booqa_evidence", "{lang}/{split}")
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/retrieve_booqa_evidence.py"


rule retrieve_tfidf_evidence:
    input:
        articles="results/{lang}/corpus/articles.parquet",
        relations=relation_shards,
        split="results/{lang}/booqa/{split}.parquet",
    output:
        "results/{lang}/evidence/{split}.tfidf.parquet",
    params:
        # named, as in build_entailment_graph: a swap of the two numbers must re-run the job
        settings={"top_articles": config["evaluation"]["tfidf_top_articles"],
                  "sentences_per_article": config["evaluation"]["tfidf_sentences_per_article"]},
    log:
        phase_log("booqa_evaluation", "retrieve_tfidf_evidence", "{lang}/{split}"),
    benchmark:
        phase_benchmark("booqa_evaluation", "retrieve_tfidf_evidence", "{lang}/{split}")
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/retrieve_tfidf_evidence.py"


rule score_booqa:
    input:
        unpack(booqa_method_inputs),
        split="results/{lang}/booqa/{split}.parquet",
    output:
        "results/booqa_scores/{lang}/{split}/{method}.parquet",
    params:
        settings=booqa_scoring_settings,
        torch_threads=config["training"]["threads"],
    log:
        phase_log("booqa_evaluation", "score_booqa", "{lang}/{split}/{method}"),
    benchmark:
        phase_benchmark("booqa_evaluation", "score_booqa", "{lang}/{split}/{method}")
    threads: config["training"]["threads"]
    resources:
        mem_mb=6000,
        runtime=240,
        gpu=config["training"]["gpus"],
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/score_booqa.py"
