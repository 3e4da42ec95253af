# Helpers of the training phase's rules (rules/training.smk), and the phase's outputs (its DVC stage's targets).


def levyholt_train_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "train")


def levyholt_dev_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "dev")


def training_priority(wildcards):
    """A 'S&S trial reads every pair in both prompt orders, so it runs twice as long as the S&S trial of its subset and
    is the longest job of the workflow: it starts first, before the inputs and the corpus-to-BoOQA chain
    (CHAIN_PRIORITY), so that the other jobs fill the remaining cores around it."""
    return LONGEST_FIRST if is_symmetric(wildcards) else 0


def drawn_trials():
    """Trials drawn for the search: enough for the largest budget."""
    return max([config["training"]["trials"]] + [b.get("trials", 0) for b in config["training"]["budgets"]])


def trial_outputs(wildcards):
    return trial_files(model_run(wildcards), search_trial_ids(wildcards))


def trained_model_files():
    """selection.csv and best/ of every search, and the sanity check of every selected model that reads premises (S&S
    and 'S&S)."""
    return [f"results/models/{lm}/{v}/{s}/{name}" for lm, v, s in trained_searches()
            for name in ("selection.csv", "best") + (("sanity.csv",) if v != "hyponly" else ())]


def training_phase_targets():
    return [TRIALS_FILE] + trained_model_files()


PHASE_TARGETS["training"] = training_phase_targets
