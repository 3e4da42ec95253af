# Helpers of the graphs phase's rules (rules/graphs.smk), and the phase's outputs (its DVC stage's targets).
import glob


def graph_parts(wildcards):
    """The part files of one graph, one per graph job (graphs.jobs)."""
    return [f"results/{wildcards.lang}/graphs/for_{wildcards.split}.part-{k}.parquet" for k in range(config["graphs"]["jobs"])]


def graph_files(wildcards):
    """The files of a graph made elsewhere (graphs.from_files.<name>.directory): one per type pair, local or global."""
    directory = config["graphs"]["from_files"][wildcards.graph_name]["directory"]
    return sorted(glob.glob(os.path.join(directory, "*_sim.txt")) + glob.glob(os.path.join(directory, "*_gsim.txt")))


def graphs_phase_targets():
    return ([f"results/{lang}/graphs/for_{split}.parquet" for lang in config["booqa"]["languages"] for split in ("dev", "test")]
            + [f"results/{lang}/graphs/files/{name}.parquet" for name, lang in FILE_GRAPHS.items()])


PHASE_TARGETS["graphs"] = graphs_phase_targets
