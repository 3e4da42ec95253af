# Helpers of the graphs phase's rules (rules/graphs.smk), and the phase's outputs (its DVC stage's targets).
from directional_inference.graphs.published import graph_file_paths


def graph_parts(wildcards):
    """The part files of one graph, one per graph job (graphs.jobs)."""
    return [layout.graph(wildcards.lang, wildcards.split, part=k) for k in range(config["graphs"]["jobs"])]


def graph_files(wildcards):
    """The files of a graph made elsewhere (graphs.from_files.<name>.directory): one per type pair, local or global."""
    return [str(path) for path in graph_file_paths(config["graphs"]["from_files"][wildcards.graph_name]["directory"])]


def graphs_phase_targets():
    return [layout.graph(lang, split) for lang in config["booqa"]["languages"] for split in ("dev", "test")] + [
        layout.graph_file(lang, name) for name, lang in DESIGN.file_graphs.items()
    ]


PHASE_TARGETS["graphs"] = graphs_phase_targets
