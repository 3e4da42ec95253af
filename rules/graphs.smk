# Phase "graphs": local entailment graphs from the corpus relations, cross-fitted: the graph that scores a
# BoOQA split is induced from every window outside that split.


include: "helpers/graphs.smk"


rule build_entailment_graph:
    input:
        articles="results/{lang}/corpus/articles.parquet",
        relations=relation_shards,
        split="results/{lang}/booqa/{split}.parquet",
    output:
        "results/{lang}/graphs/for_{split}.parquet",
    params:
        # named: Snakemake compares params as a set of value reprs, so two unnamed cut-offs that swap would go unnoticed
        cutoffs={"min_arg_pairs": config["graphs"]["min_arg_pairs_per_predicate"],
                 "min_predicates": config["graphs"]["min_predicates_per_arg_pair"]},
    log:
        phase_log("graphs", "build_entailment_graph", "{lang}/{split}"),
    benchmark:
        phase_benchmark("graphs", "build_entailment_graph", "{lang}/{split}")
    threads: 1
    resources:
        mem_mb=8000,
        runtime=120,
    conda:
        "../envs/workflow.yaml"
    script:
        "../scripts/build_entailment_graph.py"
