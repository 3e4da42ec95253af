# Helpers of the levyholt phase's rules (rules/levyholt.smk), and the phase's outputs (its DVC stage's targets).


# the whole test sets of the LLM table: Directional, and Full where llm.predictions has files (which may cover it)
LEVYHOLT_WHOLE_TESTS = ("directional", "full") if config["llm"]["predictions"] else ("directional",)


def levyholt_data_files():
    """Every TSV the LevyHolt phase writes: subsets, their hypothesis-only variants, SherLIiC."""
    names = [n for s in ALL_SUBSETS for n in (s, f"{s}_hyponly")] + ["sherliic"]
    return [layout.levyholt_file(f"{name}/{split}.tsv") for name in names for split in SPLITS]


def chinese_levyholt_files():
    """Every TSV of the Chinese LevyHolt sets (when Chinese S&S models are configured)."""
    if "zh" not in DESIGN.sns_languages:
        return []
    names = [n for s in DESIGN.chinese_levyholt_sets for n in (s, f"{s}_hyponly")]
    return [layout.levyholt_file("zh_subsets.csv")] + [layout.levyholt_file(f"{name}/{split}.tsv") for name in names for split in SPLITS]


def levyholt_phase_targets():
    whole = expand(layout.levyholt_file("whole/{subset}/test.tsv"), subset=LEVYHOLT_WHOLE_TESTS) if llm_predictions() else []
    return [layout.levyholt_file("subgroups.csv"), layout.levyholt_file("subsets.csv")] + levyholt_data_files() + chinese_levyholt_files() + whole


PHASE_TARGETS["levyholt"] = levyholt_phase_targets
