# Helpers of the rules of the phases training, levyholt_evaluation, robustness, booqa_evaluation, llm_evaluation (rules/<phase>.smk): the models trained and scored. Each phase's
# section ends with its outputs (its DVC stage's targets), registered in PHASE_TARGETS. Snakemake's lint keeps
# functions out of files with rules; the phase files are included after these.
from directional_inference.evaluation.methods import method_alias, method_spec
from directional_inference.levyholt.experiments import LEVYHOLT_TABLES, training_size_rank
from directional_inference.llm.predictions import configured_file

# ---- training (rules/training.smk)


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


# ---- levyholt_evaluation (rules/levyholt_evaluation.smk)


def levyholt_test_files(wildcards):
    """The test files one model scores, by test set."""
    return {test: levyholt_file(wildcards.variant, test, "test") for test in scored_models()[(wildcards.variant, wildcards.subset)]}


def all_levyholt_scores(wildcards=None):
    """Score directories of every model the LevyHolt tables and figures show, for each language model they show it of."""
    return sorted({directory for table in LEVYHOLT_TABLES for directory in DESIGN.levyholt_scores_for(table)})


def levyholt_evaluation_phase_targets():
    return all_levyholt_scores()


PHASE_TARGETS["levyholt_evaluation"] = levyholt_evaluation_phase_targets


# ---- robustness (rules/robustness.smk)


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


# ---- booqa_evaluation (rules/booqa_evaluation.smk)


def booqa_scoring_settings(wildcards):
    """The config values one BoOQA method reads (LM: its variant's pooling and the language's sentence window; S&S:
    token limit, number format, 'S&S's prompts, and the seeded Chinese evidence cap; graphs: the lookup and its
    back-off; a score file: nothing), so that changing one re-runs only the methods that read it."""
    family, detail = method_spec(wildcards.method)
    if family == "lm":
        return {
            "lm_pooling": config["evaluation"]["lm_pooling"][detail],
            "lm_window": config["evaluation"]["lm_window"][wildcards.lang],
            "threads": model_threads(),
        }
    if family == "sns":
        settings = {"max_length": config["training"]["max_length"], "precision": config["training"]["precision"], "threads": model_threads()}
        if detail[0] == "sns_sym":
            settings["sym_sns_prompts"] = config["evaluation"]["sym_sns_prompts"]
        if wildcards.lang == "zh":
            settings |= {"evidence_cap_ss_zh": config["evaluation"]["evidence_cap_ss_zh"], "seed": config["seed"]}
        return settings
    if family == "llm":
        return {
            "prompt": detail,
            "batch_size": config["llm"]["batch_size"],
            "precision": config["llm"]["precision"],
            "answer_rule": config["llm"]["answer_rule"],
            "threads": model_threads(),
        }
    if family == "file":
        return {}
    return {"lookup": DESIGN.graph_lookup()}


def booqa_method_inputs(wildcards):
    """What one BoOQA method needs besides the split: its evidence, and an encoder, an S&S model, an LLM or a graph."""
    family, detail = method_spec(wildcards.method)
    evidence = layout.evidence(wildcards.lang, wildcards.split, tfidf=detail == "tfidf")
    if family == "lm":
        inputs = {"evidence": evidence, "model": layout.model_directory(DESIGN.lm_encoder(wildcards.lang))}
        if detail == "sent" and wildcards.lang == "en":
            inputs["wordnet"] = layout.resource("nltk_data")  # the authors match argument mentions through WordNet lemmas
        return inputs
    if family == "sns":
        variant, subset = detail
        lang_subset = language_subset(subset, wildcards.lang)
        alias = method_alias(wildcards.method) or DESIGN.main_lms[wildcards.lang]
        return {"evidence": evidence, "model": layout.search_file(alias, variant, lang_subset, "best")}
    if family == "llm":
        return {"evidence": evidence, "model": DESIGN.llm_directory(DESIGN.booqa_llm)}
    if family == "file":  # scores made elsewhere (evaluation.booqa_predictions): the file, and both splits' ids to check it
        return {
            "predictions": config["evaluation"]["booqa_predictions"][method_alias(wildcards.method)]["file"],
            "splits": [layout.booqa_split(wildcards.lang, split) for split in ("dev", "test")],
        }
    if name := method_alias(wildcards.method):  # a graph made elsewhere (graphs.from_files)
        return {"evidence": evidence, "graph": layout.graph_file(wildcards.lang, name)}
    return {"evidence": evidence, "graph": layout.graph(wildcards.lang, wildcards.split)}


# LM and S&S methods are scored by evaluation.scoring_jobs jobs each (a chunk of the entries each, then gathered) when
# that is more than one; graph methods, score files, and every method when it is one, by one job
SPLIT_SCORING_METHODS = (
    "|".join(m for m in DESIGN.booqa_method_names if method_spec(m)[0] in ("lm", "sns", "llm"))
    if config["evaluation"]["scoring_jobs"] > 1
    else "NO_METHOD"
)
WHOLE_SCORING_METHODS = "|".join(m for m in DESIGN.booqa_method_names if m not in SPLIT_SCORING_METHODS.split("|"))


def score_parts(wildcards):
    return [layout.booqa_scores(wildcards.lang, wildcards.split, wildcards.method, part=k) for k in range(config["evaluation"]["scoring_jobs"])]


def scoring_gpus(wildcards):
    """A GPU for the methods that run a neural model (LM, S&S, LLM); none for a graph lookup or a score file."""
    return model_gpus() if method_spec(wildcards.method)[0] in ("lm", "sns", "llm") else 0


def booqa_evaluation_phase_targets():
    return DESIGN.booqa_score_files()


PHASE_TARGETS["booqa_evaluation"] = booqa_evaluation_phase_targets


# ---- llm_evaluation (rules/llm_evaluation.smk)


LLM_RELEASED = layout.llm_file("released_predictions.tsv")
# the test sets join_llm_predictions joins every predictions file to (name -> its file): the whole Directional test and
# this run's, and the whole Full test where llm.predictions has files (which may cover more than Directional)
LLM_TEST_FILES = {
    "directional_whole": layout.levyholt_file("whole/directional/test.tsv"),
    "directional_run": layout.levyholt_file("directional/test.tsv"),
    **{f"{test}_whole": layout.levyholt_file(f"whole/{test}/test.tsv") for test in LEVYHOLT_WHOLE_TESTS if test != "directional"},
}
LLM_TEST_SETS = list(LLM_TEST_FILES)
LLM_SCORED_RUN_TESTS = config["llm"]["test_sets"] if config["llm"]["scorers"] else []  # this run's other test sets the LLMs score
# this run's other test sets joined by join_llm_run_test: those the LLMs score, and every one where llm.predictions has files
LLM_RUN_TESTS = [test for test in DESIGN.levyholt_sets if test != "directional" and (test in LLM_SCORED_RUN_TESTS or config["llm"]["predictions"])]
RELEASED_SOURCE = "released with McKenna, Li et al. 2023"


def llm_predictions():
    """(path, model, setting, source) of every predictions file the LLM table scores: the released predictions of the
    2023 paper (llm.released_predictions), those of the LLMs the workflow runs (llm.scorers) and the files of
    llm.predictions (their model and setting names are the
    defaults of rows that do not name their own)."""
    files = [(LLM_RELEASED, "", "", RELEASED_SOURCE)] if config["llm"]["released_predictions"] else []
    files += [
        (layout.llm_file(f"predictions/{alias}.tsv"), alias, "", f"this workflow ({llm_description(alias)})") for alias in config["llm"]["scorers"]
    ]
    return files + user_predictions()


def llm_description(alias):
    """What a scoring LLM is, as the LLM table's source column says it."""
    spec = config["llm"]["models"][alias]
    if isinstance(spec, dict) and "tiny" in spec:
        return "a tiny random Llama built offline"
    if isinstance(spec, dict) and "package" in spec:
        return f"{spec['file']} from the package {spec['package']}"
    return str(spec)


def user_predictions():
    """(file, model, setting, source) of the files of llm.predictions."""
    return [(configured_file(f), f.get("model", ""), f.get("setting", ""), f.get("source", "llm.predictions")) for f in config["llm"]["predictions"]]


def llm_prediction_files():
    return [path for path, *_ in llm_predictions()]


def llm_prediction_names():
    return [[model, setting, source] for _, model, setting, source in llm_predictions()]


def llm_run_test_predictions(test):
    """(path, [model, setting, source]) of each predictions file joined to this run's test set ``test``: the LLMs'
    scores where llm.test_sets asks them, and the files of llm.predictions."""
    scored = [
        (layout.llm_file(f"run_predictions/{test}/{alias}.tsv"), [alias, "", f"this workflow ({llm_description(alias)})"])
        for alias in config["llm"]["scorers"]
        if test in LLM_SCORED_RUN_TESTS
    ]
    return scored + [(path, [model, setting, source]) for path, model, setting, source in user_predictions()]


def llm_reference_tests(whole=True):
    """The test sets a file of llm.predictions may cover beyond those a join job writes (with ``whole``, the whole
    tests too): every row of such a file must match a pair of one of them or of the job's own."""
    if not config["llm"]["predictions"]:
        return []
    tests = expand(layout.levyholt_file("whole/{subset}/test.tsv"), subset=LEVYHOLT_WHOLE_TESTS) if whole else []
    return [*tests, layout.levyholt_file("sherliic/test.tsv")]


def llm_run_test_scores():
    """The joined scores of this run's other test sets (llm.test_sets), and their joins' counts."""
    return expand(layout.llm_file("scores/{test}_run.{ext}"), test=LLM_RUN_TESTS, ext=("parquet", "joins.json"))


def llm_evaluation_phase_targets():
    if not llm_predictions():
        return []
    return [*expand(layout.llm_file("scores/{test}.parquet"), test=LLM_TEST_SETS), layout.llm_file("scores/joins.json"), *llm_run_test_scores()]


PHASE_TARGETS["llm_evaluation"] = llm_evaluation_phase_targets
