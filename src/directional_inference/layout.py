"""Where every artefact of a run lives: one function per kind of file or folder, for the rules, their scripts and the
package. Each takes the names the path varies by and works for both a concrete path (``booqa_split("en", "dev")``) and
a Snakemake pattern (``booqa_split("{lang}", "{split}")``). tests/test_layout.py checks that every input, output, log
and benchmark of the dry runs of the default, smoke and paper configs is a path one of these functions gives, and that
no rule, script or module writes a path of results/, resources/ or logs/ out by hand.
"""

from __future__ import annotations

RESULTS, RESOURCES, LOGS = "results", "resources", "logs"


# Inputs: resources/ (downloads, models, WordNet)


def resource(name: str) -> str:
    """A downloaded dataset, or what the resources phase builds from downloads (``nltk_data``, ``newscrawl``)."""
    return f"{RESOURCES}/{name}"


def newscrawl_year(year: str) -> str:
    return f"{RESOURCES}/newscrawl-years/{year}"


def model_directory(alias: str) -> str:
    """The weights and tokenizer of a model alias of ``models``."""
    return f"{RESOURCES}/models/{alias}"


def hub_llm_directory(alias: str) -> str:
    """The download of an LLM of ``llm.models`` from the hub."""
    return f"{RESOURCES}/llms/{alias}"


# Logs and benchmarks


def job_log(phase: str, rule: str, pattern: str | None = None) -> str:
    """Log path of one job: logs/<phase>/<rule>/<wildcards>.log (a rule of one job: logs/<phase>/<rule>.log)."""
    return f"{LOGS}/{phase}/{rule}{'' if pattern is None else f'/{pattern}'}.log"


def job_benchmark(phase: str, rule: str, pattern: str | None = None) -> str:
    """Benchmark TSV of one job (time, memory), beside its log."""
    return f"{LOGS}/{phase}/{rule}{'' if pattern is None else f'/{pattern}'}.benchmark.tsv"


# The corpus, its relations and BoOQA, per language


def language_results(lang: str, name: str) -> str:
    """A phase's folder of one language's results (``corpus``, ``relations``, ``booqa``, ``evidence``, ``graphs``)."""
    return f"{RESULTS}/{lang}/{name}"


def corpus_file(lang: str, name: str) -> str:
    """``articles.parquet`` (the corpus table) or ``reading.json`` (what the reader skipped)."""
    return f"{RESULTS}/{lang}/corpus/{name}"


def relation_shard(lang: str, shard: str) -> str:
    return f"{RESULTS}/{lang}/relations/{shard}.parquet"


def merged_relations(lang: str) -> str:
    """Every relation of a language, in corpus order, each sentence once."""
    return f"{RESULTS}/{lang}/relations/merged.parquet"


def booqa_file(lang: str, name: str) -> str:
    """A file of BoOQA's build (positives, negatives, counts, validation, the release's splits and card)."""
    return f"{RESULTS}/{lang}/booqa/{name}"


def booqa_split(lang: str, split: str) -> str:
    return booqa_file(lang, f"{split}.parquet")


def booqa_hyponly_split(lang: str, split: str) -> str:
    """BoOQA as a hypothesis-only training set (Table 3)."""
    return f"{RESULTS}/{lang}/booqa_hyponly/{split}.tsv"


def evidence(lang: str, split: str, tfidf: bool = False) -> str:
    """The evidence of a BoOQA split (``tfidf``: sentences ranked by TF-IDF, the LM's tfidf variant)."""
    return f"{RESULTS}/{lang}/evidence/{split}{'.tfidf' if tfidf else ''}.parquet"


def graph(lang: str, split: str, part: str | None = None) -> str:
    """The entailment graph built for a BoOQA split's scoring (one part of it)."""
    return f"{RESULTS}/{lang}/graphs/for_{split}{'' if part is None else f'.part-{part}'}.parquet"


def graph_file(lang: str, name: str) -> str:
    """A graph made elsewhere (graphs.from_files), imported."""
    return f"{RESULTS}/{lang}/graphs/files/{name}.parquet"


def booqa_scores(lang: str, split: str, method: str, part: str | None = None) -> str:
    """Scores of one BoOQA method on one split (one part of them)."""
    return f"{RESULTS}/booqa_scores/{lang}/{split}/{method}{'' if part is None else f'.part-{part}'}.parquet"


# LevyHolt, the S&S models and their scores


def levyholt_file(relative_path: str) -> str:
    """A LevyHolt data file or folder: ``<subset>/<split>.tsv``, ``whole/<test>/test.tsv``, the subsets' tables."""
    return f"{RESULTS}/levyholt/{relative_path}"


def drawn_trials_file() -> str:
    """The hyper-parameters of every trial, this workflow's seeded draw (training.trial_source: drawn)."""
    return f"{RESULTS}/models/hyperparameters.csv"


def authors_trials_file() -> str:
    """The hyper-parameters of every trial, the authors' (training.trial_source: authors)."""
    return f"{RESULTS}/models/authors_trials.csv"


def search_directory(lm: str, variant: str, subset: str) -> str:
    """One (language model, variant, training subset) search: its trials, selection and best weights."""
    return f"{RESULTS}/models/{lm}/{variant}/{subset}"


def search_file(lm: str, variant: str, subset: str, name: str) -> str:
    """A file of a search: ``selection.csv``, ``best`` (the chosen trial's weights), ``sanity.csv``."""
    return f"{search_directory(lm, variant, subset)}/{name}"


def trial_file(lm: str, variant: str, subset: str, trial: str, name: str) -> str:
    """A file of one trial of a search: its dev scores, evaluations, training record, weights."""
    return f"{search_directory(lm, variant, subset)}/trial-{trial}/{name}"


def robustness_directory(lang: str, lm: str) -> str:
    """The search of Table 3's H-only model trained on BoOQA dev of a language."""
    return f"{RESULTS}/robustness/{lang}/{lm}"


def robustness_file(lang: str, lm: str, name: str) -> str:
    return f"{robustness_directory(lang, lm)}/{name}"


def robustness_trial_file(lang: str, lm: str, trial: str, name: str) -> str:
    return f"{robustness_directory(lang, lm)}/trial-{trial}/{name}"


def levyholt_score_directory(lm: str, variant: str, subset: str) -> str:
    """A selected model's LevyHolt scores."""
    return f"{RESULTS}/scores/levyholt/{lm}/{variant}/{subset}"


def robustness_score_path(lang: str, lm: str, trained_on: str) -> str:
    """Table 3's scores of an H-only model on BoOQA test."""
    return f"{RESULTS}/robustness/{lang}/scores/{lm}/{trained_on}.parquet"


def model_card(lm: str, variant: str, subset: str) -> str:
    return f"{RESULTS}/model_cards/{lm}/{variant}/{subset}/README.md"


# LLMs


def llm_file(relative_path: str) -> str:
    """A file of the LLM phase: a made model, predictions, scores, joins."""
    return f"{RESULTS}/llm/{relative_path}"


# The tables, figures and what they rest on


def result(name: str) -> str:
    """A file at the top of results/: a table, a figure, the findings, the metrics."""
    return f"{RESULTS}/{name}"
