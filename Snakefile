# Reproduction workflow of Li et al. (Findings of EMNLP 2022),
# "Language Models Are Poor Learners of Directional Inference".
# Scale lives in config only: config/config.yaml (default), config/smoke.yaml, config/paper.yaml.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "report/workflow.rst"


include: "rules/setup.smk"
include: "rules/common.smk"
include: "rules/helpers/data.smk"
include: "rules/helpers/models.smk"
include: "rules/helpers/tables.smk"
include: "rules/resources.smk"
include: "rules/corpus.smk"
include: "rules/relations.smk"
include: "rules/booqa.smk"
include: "rules/levyholt.smk"
include: "rules/training.smk"
include: "rules/graphs.smk"
include: "rules/levyholt_evaluation.smk"
include: "rules/robustness.smk"
include: "rules/booqa_evaluation.smk"
include: "rules/llm_evaluation.smk"
include: "rules/tables.smk"
include: "rules/phases.smk"
include: "rules/report.smk"


rule all:
    default_target: True
    input:
        [phase_targets(p.name) for p in PHASES],


# last: it needs every rule (the outputs it judges are matched against them)
include: "rules/recovery.smk"
