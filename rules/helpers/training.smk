# Helpers of the training phase's rules (rules/training.smk), and the phase's outputs (its DVC stage's targets).


def levyholt_train_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "train")


def levyholt_dev_file(wildcards):
    return levyholt_file(wildcards.variant, wildcards.subset, "dev")


def training_priority(wildcards):
    """The longest trials start first, before the inputs and the corpus-to-BoOQA chain (CHAIN_PRIORITY), so that the
    other jobs fill the remaining cores around them and none runs alone at the end: a 'S&S trial (every pair in both
    prompt orders, twice the S&S trial of its subset) and the S&S trial on Full (the largest training set). Measured on
    the default Table 5 at 0c60918, where only 'S&S went first: the S&S Full trial (29 min on 2 AMD EPYC cores) started
    after the chain and ran alone for its last 16 minutes, 85% of the cores busy."""
    return LONGEST_FIRST if is_symmetric(wildcards) or (wildcards.variant == "sns" and wildcards.subset == "full") else 0


def drawn_trials():
    """Trials drawn for the search: enough for the largest budget."""
    return max([config["training"]["trials"]] + [b.get("trials", 0) for b in config["training"]["budgets"]])


def trial_outputs(wildcards):
    return trial_files(model_run(wildcards), search_trial_ids(wildcards))


def trained_model_files():
    """selection.csv and best/ of every search, and the sanity check of every selected model that reads premises (S&S
    and 'S&S)."""
    return [
        f"results/models/{lm}/{v}/{s}/{name}"
        for lm, v, s in trained_searches()
        for name in ("selection.csv", "best") + (("sanity.csv",) if v != "hyponly" else ())
    ]


def training_phase_targets():
    return [TRIALS_FILE] + trained_model_files()


PHASE_TARGETS["training"] = training_phase_targets
