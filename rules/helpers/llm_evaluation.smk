# Helpers of the llm_evaluation phase's rules (rules/llm_evaluation.smk), and the phase's outputs.

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
