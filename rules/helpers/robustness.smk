# Helpers of the robustness phase's rules (rules/robustness.smk), and the phase's outputs (its DVC stage's targets).


def robustness_trial_outputs(wildcards):
    return trial_files(layout.robustness_directory(wildcards.lang, wildcards.lm), DESIGN.search_trial_ids(wildcards))


def wildcard_lang(wildcards):
    return wildcards.lang


def robustness_model(wildcards):
    """Table 3: the H-only model trained on BoOQA dev, or a LevyHolt H-only model."""
    if wildcards.trained_on == "booqa":
        return layout.robustness_file(wildcards.lang, wildcards.lm, "best")
    return layout.search_file(wildcards.lm, "hyponly", language_subset(wildcards.trained_on, wildcards.lang), "best")


def robustness_phase_targets():
    selections = [layout.robustness_file(lang, lm, n) for lang, lms in DESIGN.table3_models.items() for lm in lms for n in ("selection.csv", "best")]
    return selections + DESIGN.robustness_score_files()


PHASE_TARGETS["robustness"] = robustness_phase_targets
