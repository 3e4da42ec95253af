"""The rule that picks the default BoOQA density from the sweep (method notes; benchmarks/booqa_density.py)."""

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def density_module():
    spec = importlib.util.spec_from_file_location("booqa_density", REPO / "benchmarks" / "booqa_density.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def points(**tests):
    return {
        name: {"splits": {"en/test": {"entries": entries, "evidence_median": median, "evidence_mean": mean}}}
        for name, (entries, median, mean) in tests.items()
    }


def test_the_closest_median_to_the_papers_among_settings_with_300_test_entries():
    choose = density_module().choose
    # sparse: far from 14; dense: median 18 is closest (|18-14| = 4) but only 250 entries; b and d both 3 from 14,
    # and b's mean (16.1) is closer to 14 than d's (20.0)
    grid = points(sparse=(812, 1, 1.87), b=(400, 11, 16.1), dense=(250, 18, 23.1), d=(350, 17, 20.0))
    assert choose(grid, "en")["point"] == "b"
    # the same median and mean: more test entries wins
    assert choose(points(x=(310, 12, 13.0), y=(420, 16, 15.0)), "en")["point"] == "y"
    # exactly 300 entries is enough
    assert choose(points(a=(300, 14, 14.0), b=(900, 2, 3.0)), "en")["point"] == "a"


def test_without_300_test_entries_the_setting_with_most():
    choice = density_module().choose(points(a=(120, 14, 14.0), b=(299, 3, 4.0)), "en")
    assert choice["point"] == "b" and "no setting" in choice["reason"]


def test_the_signal_summary_counts_settings_whose_interval_is_above_chance_among_those_with_300_test_entries():
    module = density_module()
    grid = points(a=(800, 1, 2.0), b=(310, 5, 6.0), c=(40, 9, 9.0))
    verdicts = {"a": ("above chance", "NO SIGNAL"), "b": ("above chance", "above chance"), "c": ("NO SIGNAL", "above chance")}
    for name, (graph, sns) in verdicts.items():
        grid[name]["table5_en"] = {"graph": {"label": "EG", "signal": graph}, "sns": {"label": "S&S", "signal": sns}}
    summary = module.signal_summary(grid, ["a", "b", "c"], ["graph", "sns"])
    # EG above chance at a and b (both keep 300 test entries), not at c; S&S at b (300) and c (40 entries)
    assert "EG 2 of 2 (2 of 3)" in summary and "S&S 1 of 2 (2 of 3)" in summary


def test_a_point_overlay_sets_both_languages_and_imports_the_runs_relations(tmp_path):
    module = density_module()
    overlay = module.overlay({"en": (30, 5, 5), "zh": (183, 5, 3)}, tmp_path)
    assert overlay["corpus"] == {"en": {"window_days": 30}, "zh": {"window_days": 183}}
    assert overlay["booqa"]["starring_min_articles"] == 5 and overlay["booqa"]["overrides"]["zh"] == {
        "starring_min_articles": 5,
        "starring_min_predicates": 3,
    }
    assert overlay["relations"]["imported"] == {"en": str(tmp_path / "relations" / "en"), "zh": str(tmp_path / "relations" / "zh")}


def layered(*names: str) -> dict:
    """The config files of config/, each laid over the ones before it, as Snakemake lays --configfile overlays."""
    import yaml
    from snakemake.utils import update_config, validate

    config: dict = {}
    for name in names:
        update_config(config, yaml.safe_load((REPO / "config" / name).read_text()))
    validate(config, str(REPO / "config" / "schema.yaml"))
    return config


def settings_of(config: dict, lang: str) -> dict:
    from directional_inference.booqa.settings import booqa_settings

    return {"window_days": config["corpus"][lang]["window_days"], **booqa_settings(config["booqa"], lang)}


def test_the_sparse_overlay_is_the_grids_first_point():
    """config/booqa-sparse.yaml, laid over the default, gives the settings before the sweep: the grid's first point,
    which the record compares with the Table 4 of the default run made at them."""
    module = density_module()
    name, point = module.GRID[0]
    assert name == "sparse"
    config = layered("config.yaml", "booqa-sparse.yaml")
    for lang in module.LANGUAGES:
        settings = settings_of(config, lang)
        assert tuple(settings[key] for key in module.SETTING_KEYS) == point[lang], lang


def test_the_records_choice_is_the_rule_applied_to_its_points_and_the_results_page_shows_the_record():
    import json

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    for lang in module.LANGUAGES:
        assert record["choice"][lang] == module.choose(record["points"], lang), lang
        assert set(record["points"]) <= {name for name, _ in module.GRID}
    assert "sparse" in record["points"]
    page = (REPO / "docs" / "results.md").read_text()
    start, end = module.BLOCK
    assert page.split(start)[1].split(end)[0].strip() == module.density_markdown(record).strip(), (
        "docs/results.md's sweep block is stale: run `benchmarks/booqa_density.py markdown --markdown docs/results.md`"
    )


def test_the_default_config_holds_the_sweeps_choice_and_the_sparse_overlay_moves_only_the_swept_settings():
    """config/config.yaml sets each language's window and thresholds to the setting the record chose; the sparse
    overlay moves those and nothing else of BoOQA."""
    import json

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    default, sparse = layered("config.yaml"), layered("config.yaml", "booqa-sparse.yaml")
    for lang in module.LANGUAGES:
        chosen = record["points"][record["choice"][lang]["point"]]["settings"][lang]
        settings, before = settings_of(default, lang), settings_of(sparse, lang)
        assert {key: settings[key] for key in module.SETTING_KEYS} == chosen, lang
        assert {k: v for k, v in settings.items() if k not in module.SETTING_KEYS} == {
            k: v for k, v in before.items() if k not in module.SETTING_KEYS
        }, lang


def test_the_method_notes_quote_the_records_choice():
    import json

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    notes = " ".join((REPO / "docs" / "method-notes.md").read_text().split())
    for lang in module.LANGUAGES:
        test = record["choice"][lang]["test"]
        quoted = f"(test: {test['entries']:,} entries, evidence median {test['evidence_median']:g}, mean {test['evidence_mean']:.1f}"
        assert quoted in notes, (lang, quoted)


def test_a_points_copy_links_the_runs_files_but_copies_wordnet_which_nltk_refuses_linked(tmp_path):
    """copy_run and sync_run: results and resources hard-linked (two links), resources/nltk_data copied (one link:
    NLTK refuses a multiply-linked file), the environment a symbolic link; a model the run adds later is linked in."""
    module = density_module()
    run = tmp_path / "run"
    for relative in ("results/en/booqa/test.parquet", "resources/nltk_data/corpora/wordnet/lexnames", "resources/levyholt/a.txt"):
        (run / relative).parent.mkdir(parents=True, exist_ok=True)
        (run / relative).write_text(relative)
    (run / ".venv").mkdir()
    point = tmp_path / "point"
    module.copy_run(run, point)
    assert (point / "results/en/booqa/test.parquet").stat().st_nlink == 2 and (point / "resources/levyholt/a.txt").stat().st_nlink == 2
    assert (point / "resources/nltk_data/corpora/wordnet/lexnames").stat().st_nlink == 1
    assert (point / ".venv").is_symlink()
    (run / "resources/nltk_data/corpora/omw").mkdir(parents=True)
    (run / "resources/nltk_data/corpora/omw/cmn.tab").write_text("cmn")
    (run / "results/models/minilm").mkdir(parents=True)
    (run / "results/models/minilm/weights").write_text("w")
    module.sync_run(run, point)
    assert (point / "results/models/minilm/weights").stat().st_nlink == 2
    assert (point / "resources/nltk_data/corpora/omw/cmn.tab").read_text() == "cmn"
    assert (point / "resources/nltk_data/corpora/omw/cmn.tab").stat().st_nlink == 1
