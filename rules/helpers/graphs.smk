# Helpers of the graphs phase's rules (rules/graphs.smk), and the phase's outputs (its DVC stage's targets).


def graph_parts(wildcards):
    """The part files of one graph, one per graph job (graphs.jobs)."""
    return [f"results/{wildcards.lang}/graphs/for_{wildcards.split}.part-{k}.parquet" for k in range(config["graphs"]["jobs"])]


def graphs_phase_targets():
    return [f"results/{lang}/graphs/for_{split}.parquet" for lang in config["booqa"]["languages"] for split in ("dev", "test")]


PHASE_TARGETS["graphs"] = graphs_phase_targets
