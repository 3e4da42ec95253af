# Helpers of the levyholt_evaluation phase's rules (rules/levyholt_evaluation.smk), and the phase's outputs (its DVC stage's targets).


def levyholt_test_files(wildcards):
    """The test files one model scores, by test set."""
    return {test: levyholt_file(wildcards.variant, test, "test") for test in scored_models()[(wildcards.variant, wildcards.subset)]}


def all_levyholt_scores(wildcards=None):
    """Score directories of every model the LevyHolt tables and figures show, for each language model they show it of."""
    return sorted({directory for table in LEVYHOLT_TABLES for directory in DESIGN.levyholt_scores_for(table)})


def levyholt_evaluation_phase_targets():
    return all_levyholt_scores()


PHASE_TARGETS["levyholt_evaluation"] = levyholt_evaluation_phase_targets
