# Phase "graphs": local entailment graphs from the corpus relations, cross-fitted: the graph that scores a
# BoOQA split is induced from every window outside that split. A graph is built by graphs.jobs jobs, each for its
# share of the type pairs, and gathered into one file.
# Its helpers and its outputs: rules/helpers/data.smk.


# A graph made elsewhere is read from the user's directory where Snakemake runs (as the other user inputs are).
localrules:
    import_graph_files,


rule build_entailment_graph:
    input:
        relations=merged_relations,
        split=layout.booqa_split("{lang}", "{split}"),
    output:
        layout.graph("{lang}", "{split}", part="{part}"),
    log:
        layout.job_log("graphs", "build_entailment_graph", "{lang}/{split}.part-{part}"),
    benchmark:
        layout.job_benchmark("graphs", "build_entailment_graph", "{lang}/{split}.part-{part}")
    conda:
        "../envs/workflow.yaml"
    threads: engine_threads
    resources:
        **corpus_job(Demand(mem_mb=6000, disk_per_input_mb=5.5, seconds_per_mb=0.15), share=lambda wildcards: 1 / config["graphs"]["jobs"]),
    params:
        # named: Snakemake compares params as a set of value reprs, so two unnamed cut-offs that swap would go unnoticed
        cutoffs={"min_arg_pairs": config["graphs"]["min_arg_pairs_per_predicate"], "min_predicates": config["graphs"]["min_predicates_per_arg_pair"]},
        parts=config["graphs"]["jobs"],
    script:
        "../scripts/build_entailment_graph.py"


rule gather_entailment_graph:
    input:
        parts=graph_parts,
    output:
        layout.graph("{lang}", "{split}"),
    log:
        layout.job_log("graphs", "gather_entailment_graph", "{lang}/{split}"),
    benchmark:
        layout.job_benchmark("graphs", "gather_entailment_graph", "{lang}/{split}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        **corpus_job(Demand(mem_mb=2000, disk_per_input_mb=1.1, seconds_per_mb=0.02)),
    script:
        "../scripts/gather_entailment_graph.py"


# A graph made elsewhere (graphs.from_files.<name>): its files, one per type pair, as one graph table, scored like the
# local graphs (evaluation.scoring.graph_scores) as Table 5's row graph_files@<name>.
rule import_graph_files:
    input:
        graph_files,
    output:
        layout.graph_file("{lang}", "{graph_name}"),
    log:
        layout.job_log("graphs", "import_graph_files", "{lang}/{graph_name}"),
    benchmark:
        layout.job_benchmark("graphs", "import_graph_files", "{lang}/{graph_name}")
    conda:
        "../envs/workflow.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        section=lambda wildcards: config["graphs"]["from_files"][wildcards.graph_name].get("section", "BInc sims"),
    script:
        "../scripts/import_graph_files.py"
