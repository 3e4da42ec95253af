# Helpers of the booqa_evaluation phase's rules (rules/booqa_evaluation.smk), and the phase's outputs (its DVC stage's targets).


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
