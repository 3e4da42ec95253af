# Helpers of the training phase's rules (rules/training.smk), and the phase's outputs (its DVC stage's targets).


def levyholt_train_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "train")


def levyholt_dev_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "dev")


def training_priority(wildcards):
    """Longest first (TOP_PRIORITY for 'S&S, every pair in both prompt orders; the other trials by their training
    pairs), and the corpus-to-BoOQA chain after every trial, its short jobs filling both cores at the end, so that no
    long trial starts last and runs alone (docs/operations.md times this order against the chain first)."""
    return TOP_PRIORITY if DESIGN.is_symmetric(wildcards) else training_size_rank(wildcards.subset)


def drawn_trials():
    """Trials drawn for the search: enough for the largest budget."""
    return max([config["training"]["trials"]] + [b.get("trials", 0) for b in config["training"]["budgets"]])


def trial_outputs(wildcards):
    return trial_files(model_run(wildcards), DESIGN.search_trial_ids(wildcards))


def trained_model_files():
    """selection.csv and best/ of every search, and the sanity check of every selected model that reads premises (S&S
    and 'S&S)."""
    return [
        layout.search_file(lm, v, s, name)
        for lm, v, s in DESIGN.trained_searches()
        for name in ("selection.csv", "best") + (("sanity.csv",) if v != "hyponly" else ())
    ]


def training_phase_targets():
    return [DESIGN.trials_file] + trained_model_files()


PHASE_TARGETS["training"] = training_phase_targets
