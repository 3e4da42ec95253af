# One target rule per phase (src/directional_inference/phases.py): each DVC stage runs Snakemake on one of them.


rule resources_phase:
    input:
        phase_targets("resources"),


rule corpus_phase:
    input:
        phase_targets("corpus"),


rule relations_phase:
    input:
        phase_targets("relations"),


rule booqa_phase:
    input:
        phase_targets("booqa"),


rule levyholt_phase:
    input:
        phase_targets("levyholt"),


rule training_phase:
    input:
        phase_targets("training"),


rule graphs_phase:
    input:
        phase_targets("graphs"),


rule evaluation_phase:
    input:
        phase_targets("evaluation"),


rule robustness_phase:
    input:
        phase_targets("robustness"),


rule booqa_evaluation_phase:
    input:
        phase_targets("booqa_evaluation"),


rule tables_phase:
    input:
        phase_targets("tables"),
