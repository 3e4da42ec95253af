# Reproduction workflow of Li et al. (Findings of EMNLP 2022),
# "Language Models Are Poor Learners of Directional Inference".
# Scale lives in config only: config/config.yaml (default), config/smoke.yaml, config/paper.yaml.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


include: "rules/common.smk"
include: "rules/resources.smk"
include: "rules/levyholt.smk"
include: "rules/training.smk"
include: "rules/tables.smk"


rule all:
    default_target: True
    input:
        all_resources(),
        "results/levyholt/subgroups.csv",
        expand("results/{table}.csv", table=["table1", "table2", "table6"]),
        expand("results/{figure}.{ext}", figure=["figure1", "figure2"], ext=["png", "svg"]),
