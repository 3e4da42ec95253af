# Helpers of the relations phase's rules (rules/relations.smk), and the phase's outputs (its DVC stage's targets).


def english_only(value):
    """A param of English jobs only (None for Chinese ones), so that changing it re-runs no Chinese job."""
    return lambda wildcards: value if wildcards.lang == "en" else None


def imported_relation_file(wildcards):
    """The relation file made elsewhere that becomes shard ``shard`` of an imported language."""
    return str(DESIGN.imported_files[wildcards.lang][int(wildcards.shard)])


def relations_phase_targets():
    return [f for lang in config["booqa"]["languages"] for f in relation_shards(lang) + [merged_relations(lang)]]


PHASE_TARGETS["relations"] = relations_phase_targets
