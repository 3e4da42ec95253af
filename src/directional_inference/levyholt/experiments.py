"""Which LevyHolt models are trained and which test sets each one scores, per table and figure of the paper.

Shared by the Snakefile (to expand jobs) and the table builders, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..layout import levyholt_score_directory, search_directory

MESH_SUBSETS = ("directional", "symmetric", "para_dirtrue", "para_dirfalse", "dirtrue_unrel", "dirfalse_unrel")
TABLE1_SUBSETS = ("directional", "symmetric", "full")  # paper Table 1 (and 8, 10, 12): train x test
TABLE2_SUBSETS = ("para_dirtrue", "para_dirfalse")  # paper Table 2 (and 9, 11, 13): S&S vs 'S&S
TABLE6_SETS = ("full", "sherliic")  # paper Table 6: LevyHolt <-> SherLIiC
BOOQA_MODELS = (("sns", "full"), ("sns_sym", "full"), ("sns", "symmetric"), ("sns", "directional"))  # Table 5
BOOQA_HYPONLY_MODELS = (("hyponly", "full"), ("hyponly", "directional"), ("hyponly", "symmetric"))  # Table 3
# Models that a table sets side by side: each must be trained alike (same budget), or compute decides the comparison.
COMPARED_MODELS = {
    "Table 1": tuple(("sns", subset) for subset in TABLE1_SUBSETS),
    **{f"Table 2 ({subset})": (("sns", subset), ("sns_sym", subset)) for subset in TABLE2_SUBSETS},
    "Table 5": BOOQA_MODELS,
}
BUDGET_KEYS = ("trials", "epochs", "patience", "max_train", "max_dev", "evaluations_per_epoch")


LEVYHOLT_TABLES = ("table1", "table2", "table6", "figure1", "figure2")
# The tables the paper reports for every English language model: Tables 1 and 2 (for RoBERTa-large, BERT-base and
# BERT-large its Tables 8-13, seven settings each). Table 6, the mesh of Figures 1 and 2 and BoOQA's models are its main
# model's only (RoBERTa-base: 18 settings); training.every_setting_for_every_model trains them for every model.
EVERY_MODEL_TABLES = ("table1", "table2")


def training_size_rank(subset: str) -> int:
    """Where a subset's trials fall when ordered by the pairs they train on (the paper's LevyHolt sub-group sizes, §3;
    a Chinese subset as its English one): 1 for the smallest of ``ALL_SUBSETS`` up to ``len(ALL_SUBSETS)`` for Full;
    0 for a set whose size is not known here (SherLIiC). The longer trial starts first (the workflow's priorities)."""
    from .chinese import CHINESE_PREFIX
    from .english import PAPER_SUBGROUP_SIZES
    from .entries import ALL_SUBSETS, SUBSETS

    def pairs(name: str) -> int:
        return sum(PAPER_SUBGROUP_SIZES[group][0] for group in SUBSETS.get(name, PAPER_SUBGROUP_SIZES))

    order = sorted(ALL_SUBSETS, key=lambda name: (pairs(name), name))
    subset = subset.removeprefix(CHINESE_PREFIX)
    return order.index(subset) + 1 if subset in order else 0


def levyholt_table_scorings(table: str) -> list[tuple[str, str, str]]:
    """The (variant, train subset, test set) scorings one LevyHolt table or figure reads, sorted."""
    mesh = MESH_SUBSETS + ("full",)
    scorings = {
        "table1": [("sns", train, test) for train in TABLE1_SUBSETS for test in TABLE1_SUBSETS],
        "table2": [(variant, subset, subset) for subset in TABLE2_SUBSETS for variant in ("sns", "sns_sym")],
        "table6": [("sns", train, test) for train in TABLE6_SETS for test in TABLE6_SETS],
        "figure1": [("sns", subset, subset) for subset in mesh],
        # the hypothesis-only models on the hypothesis-only files, and S&S on the same subsets for the S&S / H-only ratio
        "figure2": [(variant, subset, subset) for subset in mesh for variant in ("hyponly", "sns")],
    }
    if table not in scorings:
        raise ValueError(f"{table!r} is not a LevyHolt table or figure (one of {', '.join(LEVYHOLT_TABLES)})")
    return sorted(set(scorings[table]))


def levyholt_table_models(table: str) -> list[tuple[str, str]]:
    """The (variant, training subset) models whose scores one LevyHolt table or figure reads."""
    return sorted({(variant, train) for variant, train, _ in levyholt_table_scorings(table)})


def levyholt_scorings() -> list[tuple[str, str, str]]:
    """Every (variant, train subset, test set) the LevyHolt tables and figures need, sorted, no repeats."""
    return sorted({scoring for table in LEVYHOLT_TABLES for scoring in levyholt_table_scorings(table)})


def scored_models() -> dict[tuple[str, str], list[str]]:
    """Every (variant, training subset) model that scores LevyHolt test sets, with the test sets it scores: each model
    scores the entries of all its test sets in one job, each pair once (the subsets' test sets are cuts of Full's)."""
    tests: dict[tuple[str, str], list[str]] = {}
    for variant, subset, test in levyholt_scorings():
        tests.setdefault((variant, subset), []).append(test)
    return tests


def trained_models(main: bool = True) -> list[tuple[str, str]]:
    """Every (variant, training subset) that is fine-tuned with the hyper-parameter search: of the main language model
    (``main``), or of the others (the models of ``EVERY_MODEL_TABLES``)."""
    if not main:
        return sorted({model for table in EVERY_MODEL_TABLES for model in levyholt_table_models(table)})
    models = {(variant, train) for variant, train, _ in levyholt_scorings()}
    models |= set(BOOQA_MODELS) | set(BOOQA_HYPONLY_MODELS)
    return sorted(models)


def table_language_models(table: str, language_models: Sequence[str], every_setting: bool = False) -> list[str]:
    """The English language models (aliases, the main one first) whose models one LevyHolt table or figure shows."""
    return list(language_models) if every_setting or table in EVERY_MODEL_TABLES else list(language_models[:1])


def chinese_trained_models(sns_models: Iterable[tuple[str, str]] = BOOQA_MODELS) -> list[tuple[str, str]]:
    """(variant, Chinese subset) fine-tuned on the Chinese LevyHolt: the S&S models of Table 5 that
    ``training.sns_methods_zh`` names (``sns_models``; the paper: S&S Full only) and the H-only models of Table 3, for
    Chinese BoOQA."""
    from .chinese import CHINESE_PREFIX

    return sorted({(variant, CHINESE_PREFIX + subset) for variant, subset in tuple(sns_models) + BOOQA_HYPONLY_MODELS})


def language_subset(subset: str, lang: str) -> str:
    """The LevyHolt subset name of a language's models (Chinese ones carry the zh_ prefix)."""
    from .chinese import CHINESE_PREFIX

    return CHINESE_PREFIX + subset if lang == "zh" else subset


def data_directory(variant: str, subset: str) -> str:
    """Directory name under results/levyholt/ of a subset as a given variant reads it."""
    return f"{subset}_hyponly" if variant == "hyponly" else subset


TABLE3_LEVYHOLT_MODELS = ("full", "directional", "symmetric")  # H-only models applied to BoOQA (Table 3)
TABLE3_TRAINED_ON = ("booqa",) + TABLE3_LEVYHOLT_MODELS


def model_record_files(lm: str, variant: str, subset: str) -> list[str]:
    """What the tables read of a selected model besides its scores: its selection and, if it reads premises, its sanity
    check (H-only models never see the premise)."""
    names = ("selection.csv",) if variant == "hyponly" else ("selection.csv", "sanity.csv")
    return [f"{search_directory(lm, variant, subset)}/{name}" for name in names]


def levyholt_score_path(lm: str, variant: str, subset: str, test: str) -> str:
    """Scores of the model (lm, variant, trained on subset) on a test set."""
    return f"{levyholt_score_directory(lm, variant, subset)}/{test}.parquet"


def unequal_budgets(training: dict, levyholt: dict) -> list[str]:
    """One message per table whose compared models get different budgets (``COMPARED_MODELS``)."""
    problems = []
    for table, models in COMPARED_MODELS.items():
        budgets = {f"{v}/{s}": training_budget(training, levyholt, v, s) for v, s in models}
        differing = [key for key in BUDGET_KEYS if len({b[key] for b in budgets.values()}) > 1]
        if differing:
            detail = "; ".join(f"{name}: " + ", ".join(f"{k} {b[k]}" for k in differing) for name, b in budgets.items())
            problems.append(
                f"{table} compares models trained with different budgets ({detail}): give them one training.budgets "
                f"entry so that no comparison is decided by compute"
            )
    return problems


def training_budget(training: dict, levyholt: dict, variant: str, subset: str) -> dict:
    """Trials, epochs (the maximum when ``patience`` is set), patience, training / dev sample sizes and dev evaluations
    per epoch of the model ``variant/subset``: the first entry of ``training["budgets"]`` whose patterns match (fnmatch),
    completed by the global settings."""
    from fnmatch import fnmatchcase

    name = f"{variant}/{subset}"
    budget = next((b for b in training.get("budgets", []) if any(fnmatchcase(name, pattern) for pattern in b["models"])), {})
    return {
        "trials": budget.get("trials", training["trials"]),
        "epochs": budget.get("epochs", training["epochs"]),
        "patience": budget.get("patience", training.get("patience")),
        "max_train": budget.get("max_train", levyholt.get("max_train")),
        "max_dev": budget.get("max_dev", levyholt.get("max_dev")),
        "evaluations_per_epoch": budget.get("evaluations_per_epoch", training["evaluations_per_epoch"]),
    }
