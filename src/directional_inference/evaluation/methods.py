"""The BoOQA methods of Table 5 (and 15-16): names, what each needs, and the paper's numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

# method -> (family, detail): lm -> retrieval variant; sns -> (variant, LevyHolt training subset); graph -> measure;
# llm -> the prompt of McKenna, Li et al. 2023 that the first LLM of llm.scorers is asked with (not in the paper)
METHODS = {
    "lm_rel": ("lm", "rel"),
    "lm_sent": ("lm", "sent"),
    "lm_tfidf": ("lm", "tfidf"),
    "sns_full": ("sns", ("sns", "full")),
    "sym_sns_full": ("sns", ("sns_sym", "full")),
    "sns_symmetric": ("sns", ("sns", "symmetric")),
    "sns_directional": ("sns", ("sns", "directional")),
    "graph_binc": ("graph", "binc"),
    "graph_weeds": ("graph", "weeds"),
    "graph_lin": ("graph", "lin"),
    "graph_cosine": ("graph", "cosine"),
    "llm": ("llm", "zero-shot"),
}
LABELS = {
    "lm_rel": "LM cosine (rel)",
    "lm_sent": "LM cosine (sent)",
    "lm_tfidf": "LM cosine (tfidf)",  # the paper: "LM unsupervised"
    "sns_full": "S&S Full",
    "sym_sns_full": "'S&S Full",
    "sns_symmetric": "S&S Symmetric",
    "sns_directional": "S&S Directional",
    "graph_binc": "EG BInc (local, this corpus)",
    "graph_weeds": "EG Weeds (local)",
    "graph_lin": "EG Lin (local)",
    "graph_cosine": "EG cosine (local)",
    "llm": "LLM zero-shot (McKenna et al. 2023 prompt)",
}
# An S&S method of a further language model (training.booqa_language_models) is the method's name, this mark, the alias:
# "sns_full@rb" is S&S Full fine-tuned from the model alias rb (the plain names are the first language model's); a graph
# made elsewhere (graphs.from_files) is FILE_GRAPH, the mark, its name: "graph_files@cnce"; per-entry scores of a system
# run elsewhere (evaluation.booqa_predictions) are FILE_SCORES, the mark, their name: "scores@mine"
ALIAS_MARK = "@"
FILE_GRAPH = "graph_files"
FILE_SCORES = "scores"
_NO_GRAPH = "not run: the published graph is not reachable offline (graphs.graph_from_files reads its _sim.txt/_gsim.txt files)"
_NO_ENCODER = "not run: needs {} weights as the LM encoder (evaluation.lm_encoder) in a separate run"


@dataclass(frozen=True)
class BooqaTable:
    """A BoOQA results table: the split it scores, the methods it computes, the paper's AUCnorm (%) per method as
    (en, zh) with None where the paper has no number, and rows the paper reports that cannot run here
    (key, label, en, zh, why)."""

    split: str
    methods: tuple[str, ...]
    paper: dict
    paper_only: tuple = ()


BOOQA_TABLES = {
    "table5": BooqaTable(
        "test",
        ("lm_rel", "sns_full", "sym_sns_full", "sns_symmetric", "sns_directional", "graph_binc", "graph_weeds", "graph_lin", "graph_cosine", "llm"),
        {
            "lm_rel": (15.9, 30.6),
            "sns_full": (25.6, 23.1),
            "sym_sns_full": (26.2, None),
            "sns_symmetric": (25.1, None),
            "sns_directional": (15.1, None),
            "graph_binc": (29.8, 39.5),
        },
        (
            ("graph_cnce", "EG CNCE (Hosseini et al. 2021)", 34.5, None, _NO_GRAPH),
            ("graph_egt2", "EG EGT2 (Chen et al. 2022)", 26.8, None, _NO_GRAPH),
        ),
    ),
    "table15": BooqaTable(
        "dev",
        tuple(m for m in METHODS if METHODS[m][0] != "llm"),  # the paper's methods (an LLM is Table 5's alone)
        {"lm_tfidf": (0.00, 12.3), "lm_sent": (0.3, 9.8), "lm_rel": (15.3, 31.2), "sns_full": (25.7, 21.5), "graph_binc": (29.9, 39.6)},
        (
            ("lm_rel_roberta", "LM unsupervised (rel), RoBERTa-base", 5.0, 9.1, _NO_ENCODER.format("RoBERTa-base")),
            ("lm_rel_large", "LM unsupervised (rel), BERT-large", 16.9, 26.9, _NO_ENCODER.format("BERT-large")),
            ("sns_full_large", "S&S Full, RoBERTa-large", 24.9, None, "not run: set training.language_models to roberta-large (paper scale)"),
            ("graph_cnce", "EG CNCE (Hosseini et al. 2021)", 33.6, None, _NO_GRAPH),
            ("graph_egt2", "EG EGT2 (Chen et al. 2022)", 25.9, None, _NO_GRAPH),
        ),
    ),
    "table16": BooqaTable(
        "test",
        ("lm_tfidf", "lm_sent", "lm_rel", "sns_full"),
        {"lm_tfidf": (0.01, 11.5), "lm_sent": (0.08, 10.8), "lm_rel": (15.9, 30.6), "sns_full": (25.6, 23.1)},
        (
            ("lm_rel_roberta", "LM unsupervised (rel), RoBERTa-base", 4.8, 8.5, _NO_ENCODER.format("RoBERTa-base")),
            ("lm_rel_large", "LM unsupervised (rel), BERT-large", 17.7, 26.0, _NO_ENCODER.format("BERT-large")),
            ("sns_full_large", "S&S Full, RoBERTa-large", 24.8, None, "not run: set training.language_models to roberta-large (paper scale)"),
        ),
    ),
}


def method_spec(method: str) -> tuple[str, object]:
    """(family, detail) of a method (``METHODS``), an S&S method of a further language model (``sns_full@rb``), a
    graph from files (``graph_files@cnce``: its edge weights are the column ``binc`` of graphs.graph_from_files) and
    per-entry scores from a file (``scores@mine``: family "file") included."""
    base = method.partition(ALIAS_MARK)[0]
    if base == FILE_SCORES:
        return ("file", "scores")
    return ("graph", "binc") if base == FILE_GRAPH else METHODS[base]


def method_alias(method: str) -> str:
    """What follows the mark: a further language model's alias (``sns_full@rb``), a graph's name (``graph_files@cnce``)
    or a score file's (``scores@mine``); "" for the methods of ``METHODS``."""
    return method.partition(ALIAS_MARK)[2]


def method_label(method: str) -> str:
    """A method's row label: ``LABELS``'s, with the alias of a further language model (``S&S Full, rb``)."""
    base, _, alias = method.partition(ALIAS_MARK)
    if base == FILE_GRAPH:
        return f"EG {alias} (from files, graphs.from_files)"
    if base == FILE_SCORES:
        return f"{alias} (scores from a file, evaluation.booqa_predictions)"
    return LABELS[base] + (f", {alias}" if alias else "")


def further_model_methods(methods: Sequence[str], aliases: Sequence[str]) -> list[str]:
    """The S&S methods among ``methods`` for each further language model in ``aliases`` (``sns_full@rb`` ...)."""
    return [f"{method}{ALIAS_MARK}{alias}" for alias in aliases for method in methods if METHODS[method][0] == "sns"]


def file_graph_methods(graphs: Sequence[str]) -> list[str]:
    """The method of each graph made elsewhere (graphs.from_files), by its name."""
    return [f"{FILE_GRAPH}{ALIAS_MARK}{name}" for name in graphs]


def file_score_methods(names: Sequence[str]) -> list[str]:
    """The method of each per-entry score file (evaluation.booqa_predictions), by its name."""
    return [f"{FILE_SCORES}{ALIAS_MARK}{name}" for name in names]


def method_names(further_models: Sequence[str] = (), file_graphs: Sequence[str] = (), score_files: Sequence[str] = ()) -> list[str]:
    """Every method a config can score: ``METHODS``, the S&S methods of the further language models, the graphs from
    files and the score files."""
    return [*METHODS, *further_model_methods(list(METHODS), further_models), *file_graph_methods(file_graphs), *file_score_methods(score_files)]


def table_methods(table: str, aliases: Sequence[str] = (), graphs: Sequence[str] = (), score_files: Sequence[str] = ()) -> list[str]:
    """The methods one BoOQA table computes: its own, then its S&S methods for every further language model of
    ``aliases`` (training.booqa_language_models), and in Table 5 the graphs made elsewhere (``graphs``:
    graphs.from_files) and the per-entry score files (``score_files``: evaluation.booqa_predictions)."""
    methods = list(BOOQA_TABLES[table].methods)
    return (
        methods
        + further_model_methods(methods, aliases)
        + (file_graph_methods(graphs) + file_score_methods(score_files) if table == "table5" else [])
    )


@dataclass(frozen=True)
class BooqaMethods:
    """What a config lets the BoOQA methods run with, and so which run for a language (the others get a note in
    Table 5, ``why_not``).

    ``model_languages``: the languages the LM encoder reads (evaluation.model_languages); ``measures``: the graph
    measures (graphs.measures); ``retrievals``: the LM retrieval variants (evaluation.lm_retrieval);
    ``sns_languages``: the languages with fine-tuned S&S models (English LevyHolt; Chinese LevyHolt);
    ``sns_methods_zh``: the S&S methods fine-tuned on the Chinese LevyHolt (None: every one);
    ``imported_languages``: languages whose relations come from files made elsewhere (relations.imported), which carry
    no article text (TF-IDF retrieval) and need not carry sentences (the LM ``sent`` variant); ``llm_languages``: the
    languages an LLM of ``llm.scorers`` is asked in (English: the 2023 prompts are English); ``further_models``: the
    language models past the first whose S&S methods answer English BoOQA (training.booqa_language_models);
    ``file_graphs``: each graph made elsewhere (graphs.from_files) -> its language; ``score_files``: each per-entry
    score file (evaluation.booqa_predictions) -> its language.
    """

    model_languages: Sequence[str]
    measures: Sequence[str]
    retrievals: Sequence[str]
    sns_languages: Sequence[str] = ("en",)
    sns_methods_zh: Sequence[str] | None = None
    imported_languages: Sequence[str] = ()
    llm_languages: Sequence[str] = ()
    further_models: Sequence[str] = ()
    file_graphs: Mapping[str, str] = field(default_factory=dict)
    score_files: Mapping[str, str] = field(default_factory=dict)

    def why_not(self, method: str, lang: str) -> str:
        """Why ``method`` cannot run for ``lang`` ("" when it can); Table 5 prints the reason. A further language
        model's S&S method (``sns_full@rb``) answers English BoOQA only, a graph or score file that of its language."""
        family, detail = method_spec(method)
        if method.startswith(FILE_GRAPH + ALIAS_MARK):
            graph_lang = self.file_graphs.get(method_alias(method))
            return "" if graph_lang == lang else f"a graph of {graph_lang or 'no'} predicates (graphs.from_files)"
        if family == "file":
            file_lang = self.score_files.get(method_alias(method))
            return "" if file_lang == lang else f"scores of {file_lang or 'no'} BoOQA entries (evaluation.booqa_predictions)"
        if method_alias(method) and lang != "en":
            return "an S&S model of training.booqa_language_models, fine-tuned on the English LevyHolt: English BoOQA only"
        if family == "llm" and lang not in self.llm_languages:
            return (
                "no LLM in llm.scorers"
                if not self.llm_languages
                else "the LLM is asked with the English prompts of McKenna et al. 2023; Chinese prompts are not configured"
            )
        if family == "graph":
            return "" if detail in self.measures else "measure not in graphs.measures"
        if family == "lm":
            return self._why_not_lm(detail, lang)
        if family == "sns" and lang not in self.sns_languages:
            return (
                "no S&S model fine-tuned on a LevyHolt of this language (needs a multilingual model in "
                "training.language_models_zh and the Chinese LevyHolt, resources.levyholt_zh)"
            )
        if family == "sns" and lang == "zh" and self.sns_methods_zh is not None and method not in self.sns_methods_zh:
            return "not fine-tuned on the Chinese LevyHolt: not in training.sns_methods_zh (the paper's Chinese column has S&S Full only)"
        return ""

    def _why_not_lm(self, retrieval: str, lang: str) -> str:
        if retrieval not in self.retrievals:
            return "retrieval variant not in evaluation.lm_retrieval"
        if retrieval in ("tfidf", "sent") and lang in self.imported_languages:
            return "relations imported from files (relations.imported), which carry no article text to retrieve sentences from"
        if lang not in self.model_languages:
            return (
                "the configured encoder cannot read this language (no Chinese or multilingual weights offline; "
                "evaluation.lm_encoder_zh, evaluation.model_languages)"
            )
        return ""

    def runnable(self, lang: str) -> list[str]:
        """The methods that run for ``lang``: of ``METHODS``, the further models' S&S methods, the graphs from files
        and the score files, those with no reason not to."""
        names = method_names(self.further_models, sorted(self.file_graphs), sorted(self.score_files))
        return [method for method in names if not self.why_not(method, lang)]


def sns_models(methods: Sequence[str]) -> list[tuple[str, str]]:
    """The (variant, training subset) S&S models that the given Table 5 methods score with."""
    return [METHODS[method][1] for method in methods if METHODS[method][0] == "sns"]


# Table 3 (AUCnorm %, lower is better): (trained on, tested on) -> value
PAPER_TABLE3 = {
    ("booqa", "en"): 51.0,
    ("booqa", "zh"): 84.2,
    ("full", "en"): 2.8,
    ("directional", "en"): 1.1,
    ("symmetric", "en"): 0.8,
    ("full", "zh"): 4.0,
    ("directional", "zh"): 1.2,
    ("symmetric", "zh"): 2.4,
}
TABLE3_NAMES = {"booqa": "BoOQA (dev)", "full": "LevyHolt Full", "directional": "LevyHolt Directional", "symmetric": "LevyHolt Symmetric"}


FIGURE3_METHODS = ("lm_rel", "sns_full", "graph_binc")  # the representative method of each class (paper, Figure 3)


def figure3_methods(runnable: Sequence[str]) -> list[str]:
    """The curves of Figure 3 among a language's ``runnable`` methods: the representative method of each class
    (``FIGURE3_METHODS``, in its order), then S&S Full of every further language model (``sns_full@rb``)."""
    further = [m for m in runnable if method_alias(m) and m.partition(ALIAS_MARK)[0] in FIGURE3_METHODS]
    return [m for m in FIGURE3_METHODS if m in runnable] + further
