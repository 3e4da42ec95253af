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
    return {name: {"splits": {"en/test": {"entries": entries, "evidence_median": median, "evidence_mean": mean}}}
            for name, (entries, median, mean) in tests.items()}


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


def test_a_point_overlay_sets_both_languages_and_imports_the_runs_relations(tmp_path):
    module = density_module()
    overlay = module.overlay({"en": (30, 5, 5), "zh": (183, 5, 3)}, tmp_path)
    assert overlay["corpus"] == {"en": {"window_days": 30}, "zh": {"window_days": 183}}
    assert overlay["booqa"]["starring_min_articles"] == 5 and overlay["booqa"]["overrides"]["zh"] == {"starring_min_articles": 5, "starring_min_predicates": 3}
    assert overlay["relations"]["imported"] == {"en": str(tmp_path / "relations" / "en"), "zh": str(tmp_path / "relations" / "zh")}


def test_the_grids_default_point_is_the_default_config():
    import yaml

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    name, point = density_module().GRID[0]
    booqa, zh = config["booqa"], config["booqa"]["overrides"]["zh"]
    assert name == "default"
    assert point["en"] == (config["corpus"]["en"]["window_days"], booqa["starring_min_articles"], booqa["starring_min_predicates"])
    assert point["zh"] == (config["corpus"]["zh"]["window_days"], zh.get("starring_min_articles", booqa["starring_min_articles"]),
                           zh.get("starring_min_predicates", booqa["starring_min_predicates"]))


def test_the_records_choice_is_the_rule_applied_to_its_points_and_the_results_page_shows_the_record():
    import json

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    for lang in module.LANGUAGES:
        assert record["choice"][lang] == module.choose(record["points"], lang), lang
        assert set(record["points"]) <= {name for name, _ in module.GRID}
    assert "default" in record["points"]
    page = (REPO / "docs" / "results.md").read_text()
    start, end = module.BLOCK
    assert page.split(start)[1].split(end)[0].strip() == module.density_markdown(record).strip(), (
        "docs/results.md's sweep block is stale: run `benchmarks/booqa_density.py markdown --markdown docs/results.md`")


def test_the_dense_overlay_holds_the_sweeps_choice_and_validates():
    """config/booqa-dense.yaml, laid over the default, sets each language's window and thresholds to the setting the
    record chose, and nothing else of BoOQA moves."""
    import json

    import yaml
    from snakemake.utils import update_config, validate

    from directional_inference.booqa.settings import booqa_settings

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    config: dict = {}
    for name in ("config.yaml", "booqa-dense.yaml"):
        update_config(config, yaml.safe_load((REPO / "config" / name).read_text()))
    validate(config, str(REPO / "config" / "schema.yaml"))
    default = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for lang in module.LANGUAGES:
        chosen = record["points"][record["choice"][lang]["point"]]["settings"][lang]
        settings = {"window_days": config["corpus"][lang]["window_days"], **booqa_settings(config["booqa"], lang)}
        assert {key: settings[key] for key in chosen} == chosen, lang
        unchanged = {k: v for k, v in booqa_settings(default["booqa"], lang).items() if k not in chosen}
        assert {k: settings[k] for k in unchanged} == unchanged, lang


def test_the_method_notes_quote_the_records_choice():
    import json

    module = density_module()
    record = json.loads(module.RECORD.read_text())
    notes = " ".join((REPO / "docs" / "method-notes.md").read_text().split())
    for lang in module.LANGUAGES:
        test = record["choice"][lang]["test"]
        quoted = f"(test: {test['entries']:,} entries, evidence median {test['evidence_median']:g}, mean {test['evidence_mean']:.1f}"
        assert quoted in notes, (lang, quoted)
