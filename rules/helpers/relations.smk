# Helpers of the relations phase's rules (rules/relations.smk), and the phase's outputs (its DVC stage's targets).


def english_only(value):
    """A param of English jobs only (None for Chinese ones), so that changing it re-runs no Chinese job."""
    return lambda wildcards: value if wildcards.lang == "en" else None


def relations_phase_targets():
    shards = range(config["relations"]["shards"])
    return [f"results/{lang}/relations/{k}.parquet" for lang in config["booqa"]["languages"] for k in shards]


PHASE_TARGETS["relations"] = relations_phase_targets
