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
