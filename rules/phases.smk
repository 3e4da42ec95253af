# One target rule per phase of src/directional_inference/workflow/phases.py, generated: <phase>_phase has every output of the
# phase as its input (the <phase>_phase_targets its phase file registers); each DVC stage runs Snakemake on one.
for _phase in PHASES:

    rule:
        name:
            _phase.target_rule
        input:
            phase_targets(_phase.name),
