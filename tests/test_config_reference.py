"""config/README.md is generated from config/schema.yaml and the scale files, and checked for staleness."""

from __future__ import annotations

from directional_inference.workflow import config_reference


def test_committed_config_reference_is_current():
    assert config_reference.REFERENCE.read_text(encoding="utf-8") == config_reference.render(), (
        "config/README.md is stale: run .venv/bin/python -m directional_inference.workflow.config_reference"
    )
    assert config_reference.main(["--check"]) == 0


def test_reference_walks_objects_and_shows_each_scale_value():
    schema = {
        "description": "Test | schema.",
        "properties": {
            "seed": {"type": "integer", "default": 1, "description": "Master\n  seed."},
            "training": {
                "type": "object",
                "properties": {
                    "epochs": {"type": "integer", "default": 3, "description": "At most | this many."},
                    "precision": {"type": "string", "enum": ["auto", "fp32"], "default": "auto"},
                },
            },
            "models": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"m": "x"}},
        },
    }
    scales = {"config.yaml": {"seed": 5, "training": {"epochs": 2}}, "smoke.yaml": {"training": {"precision": "fp32"}}}
    text = config_reference.config_reference(schema, scales)
    # a mapping of free names (models) is one key; pipes in descriptions are escaped; unset cells are empty
    assert "| `seed` | integer | `1` | `5` |  | Master seed. |" in text
    assert '| `models` | object | `{"m": "x"}` |  |  |  |' in text
    assert "| `training.epochs` | integer | `3` | `2` |  | At most \\| this many. |" in text
    assert '| `training.precision` | string (auto, fp32) | `"auto"` |  | `"fp32"` |  |' in text
    assert text.index("## top level") < text.index("## `training`")


def test_check_fails_on_a_stale_reference(tmp_path, monkeypatch):
    stale = tmp_path / "README.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(config_reference, "REFERENCE", stale)
    assert config_reference.main(["--check"]) == 1
    assert config_reference.main([]) == 0 and config_reference.main(["--check"]) == 0


def test_every_key_of_the_schema_is_described():
    """A key without a description leaves its row of config/README.md blank: every key that has a row (every key that is
    not a section of named keys) has one."""
    import yaml

    schema = yaml.safe_load((config_reference.REFERENCE.parent / "schema.yaml").read_text(encoding="utf-8"))
    blank = []

    def walk(node: dict, prefix: str) -> None:
        for name, child in (node.get("properties") or {}).items():
            if isinstance(child, dict):
                if "properties" not in child and not str(child.get("description", "")).strip():
                    blank.append(prefix + name)
                walk(child, f"{prefix}{name}.")

    walk(schema, "")
    assert not blank, f"keys without a description: {', '.join(blank)}"
