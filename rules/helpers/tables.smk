# Helpers of the rules of the phase tables (rules/tables.smk): the tables and figures. The phase's
# section ends with its outputs (its DVC stage's targets), registered in PHASE_TARGETS. Snakemake's lint keeps
# functions out of files with rules; the phase files are included after these.
import dataclasses

from directional_inference.evaluation.methods import BOOQA_TABLES, sns_models
from directional_inference.levyholt.english import subset_conventions
from directional_inference.levyholt.experiments import BOOQA_MODELS, levyholt_table_models, model_record_files
from directional_inference.resources.models import model_kind
from directional_inference.tables.findings import CLAIMS, runnable_claims
from directional_inference.tables.findings import score_path as claim_score_path
from directional_inference.workflow.phases import MODEL_CARDS

# ---- tables (rules/tables.smk)


def levyholt_table_scores(wildcards):
    return DESIGN.levyholt_scores_for(wildcards.table)


def levyholt_table_records(wildcards):
    """Selection and sanity files of the models one LevyHolt table or figure shows (its precision, training and sanity
    columns)."""
    return [f for lm in DESIGN.table_models(wildcards.table) for v, s in levyholt_table_models(wildcards.table) for f in model_record_files(lm, v, s)]


def booqa_model_records(wildcards=None):
    """Selection and sanity files of the S&S models of the BoOQA tables, per language that has them."""
    models = {"en": BOOQA_MODELS, "zh": sns_models(DESIGN.sns_methods_zh)}
    aliases = {"en": DESIGN.english_booqa_lms, "zh": [DESIGN.main_lms.get("zh")]}
    return sorted(
        {
            f
            for lang in DESIGN.sns_languages
            if lang in config["booqa"]["languages"]
            for v, s in models[lang]
            for lm in aliases[lang]
            for f in model_record_files(lm, v, language_subset(s, lang))
        }
    )


def levyholt_model_infos(wildcards=None):
    """(alias, name) of every fine-tuned language model a LevyHolt table shows (all of them without a table), in config
    order (the first is the main model)."""
    names = {a: (s if isinstance(s, str) else f"tiny-{s['tiny'].get('architecture', 'bert')}") for a, s in config["models"].items()}
    aliases = DESIGN.table_models(wildcards.table) if wildcards is not None and "table" in wildcards.keys() else config["training"]["language_models"]
    return [[alias, names[alias]] for alias in aliases]


def booqa_models():
    """Model of each method family per language, as the BoOQA tables print them."""
    return {
        "lm": {lang: DESIGN.lm_encoder(lang) for lang in ("en", "zh")},
        "sns": DESIGN.main_lms,
        "llm": {lang: DESIGN.booqa_llm for lang in DESIGN.llm_languages},
    }


def lm_encoder_kinds():
    """What each LM encoder alias is (a sentence encoder trained on NLI pairs is not the paper's unsupervised LM)."""
    return {alias: model_kind(config["models"][alias]) for alias in sorted({DESIGN.lm_encoder(lang) for lang in ("en", "zh")})}


def table_evaluation():
    """How table numbers are computed: the AUC50 precision floor and the bootstrap of their intervals."""
    return {
        "auc_floor": config["evaluation"]["auc_precision_floor"],
        "resamples": config["evaluation"]["bootstrap_resamples"],
        "seed": config["seed"],
    }


def booqa_table_scores(wildcards):
    return DESIGN.booqa_score_files(wildcards.booqa_table)


def model_card_files():
    """The card of every selected model: the LevyHolt searches and Table 3's H-only models trained on BoOQA dev."""
    cards = [layout.model_card(lm, v, s) for lm, v, s in DESIGN.trained_searches()]
    return cards + [layout.model_card(lm, "hyponly", f"booqa_{lang}") for lang, lms in DESIGN.table3_models.items() for lm in lms]


def search_card_inputs(run, lm, trials):
    """What every model card reads of a search in directory ``run``: its selection, the selected model, its trials' dev
    scores and the base model (its SOURCE.json)."""
    return {
        "selection": f"{run}/selection.csv",
        "best": f"{run}/best",
        "base": layout.model_directory(lm),
        "dev_scores": trial_files(run, trials)["dev_scores"],
    }


def model_card_inputs(wildcards):
    """What a model card reads: the search's selection, the selected model and its trials' dev scores, its sanity
    check, the base model's SOURCE.json and, for a model scored on LevyHolt test sets, its scores."""
    run = model_run(wildcards)
    inputs = search_card_inputs(run, wildcards.lm, DESIGN.search_trial_ids(wildcards))
    if wildcards.variant != "hyponly":
        inputs["sanity"] = f"{run}/sanity.csv"
    if (wildcards.variant, wildcards.subset) in scored_models():
        inputs["scores"] = layout.levyholt_score_directory(wildcards.lm, wildcards.variant, wildcards.subset)
    return inputs


def model_card_scores(wildcards):
    """Test set -> score file of the LevyHolt test sets a model is scored on (files of its score directory)."""
    directory = layout.levyholt_score_directory(wildcards.lm, wildcards.variant, wildcards.subset)
    return {test: f"{directory}/{test}.parquet" for test in scored_models().get((wildcards.variant, wildcards.subset), [])}


def booqa_hyponly_card_inputs(wildcards):
    """What the card of Table 3's BoOQA-trained H-only model reads: its search and its score on BoOQA test."""
    inputs = search_card_inputs(layout.robustness_directory(wildcards.lang, wildcards.lm), wildcards.lm, DESIGN.search_trial_ids(wildcards))
    return inputs | {"scores": layout.robustness_score_path(wildcards.lang, wildcards.lm, "booqa")}


def table3_generality_inputs(wildcards=None):
    """English BoOQA's type-masked test set, its benchmark rows (frequencies), WordNet and Table 3's English H-only
    scores; nothing where English BoOQA has no H-only models (the file then says so)."""
    if "en" not in DESIGN.table3_languages:
        return {}
    return {
        "hypotheses": layout.booqa_hyponly_split("en", "test"),
        "benchmark": layout.booqa_split("en", "test"),
        "wordnet": layout.resource("nltk_data"),
        "scores": DESIGN.robustness_score_files("en"),
    }


def findings_claims():
    """Numbers of the paper's claims this config can test (tables.findings.CLAIMS)."""
    english = DESIGN.runnable_methods("en") if "en" in config["booqa"]["languages"] else []
    return runnable_claims(english, DESIGN.table3_languages, config["llm"]["released_predictions"])


def findings_inputs(wildcards=None):
    """Score sets and model records of the testable claims, and the English evidence density (thin-evidence reasons)."""
    used = [s for k in findings_claims() for s in (CLAIMS[k].a, CLAIMS[k].b) if s is not None]
    scores = {
        layout.levyholt_score_directory(DESIGN.main_lm, *s.key[:2]) if s.kind == "levyholt" else claim_score_path(s, DESIGN.main_lm) for s in used
    }
    records = {f for s in used if s.model for f in model_record_files(DESIGN.main_lm, *s.model)}
    inputs = {"scores": sorted(scores), "records": sorted(records)}
    if "en" in config["booqa"]["languages"]:
        inputs["density"] = layout.booqa_file("en", "evidence_density.csv")
    return inputs


LLM_TABLE_FILES = (layout.result("table_llm.csv"), layout.result("figure_llm.png"), layout.result("figure_llm.svg"))


def tables_phase_targets():
    tables = phase("tables")
    skipped = {MODEL_CARDS} | (set() if llm_predictions() else set(LLM_TABLE_FILES))
    return [f for f in tables.outs if f not in skipped] + model_card_files() + list(tables.metrics + tables.plots)


PHASE_TARGETS["tables"] = tables_phase_targets
