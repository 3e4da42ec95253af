"""The docs are checked against the code: every rule name, config key, repository path, script flag and cross-reference
that README.md, config/README.md and docs/*.md mention exists. (CHANGELOG.md is history: it names what once was.)

What counts as a mention:
* a rule: ``rule `name` `` or ``rule name``, and every backticked snake_case name that is not a config key, a Python
  name, a column or another word of the code (it must appear in the code or config at least once);
* a config key: a backticked dotted name whose first part is a top-level key of config/schema.yaml (``training.epochs``),
  or a backticked ``key: value`` whose key is one;
* a path: a backticked name that starts with a folder of the repository (``src/``, ``rules/``, ``docs/`` ...), without
  placeholders (``{lang}``, ``<k>``, ``*``, ``...``);
* a flag: a ``--flag`` on a line that runs one of this repository's programs (``bin/plan``, ``benchmarks/*.py``,
  ``python -m directional_inference...``), which must appear in that program's source;
* a cross-reference: a Markdown link to a file of the repository, and its ``#anchor`` to a heading of that file.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

from conftest import REPO

DOCS = [REPO / "README.md", REPO / "config" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
REPO_FOLDERS = ("src/", "rules/", "scripts/", "config/", "docs/", "benchmarks/", "bin/", "profiles/", "tests/", "envs/", "report/", ".ci/")
CODE_FOLDERS = ("src", "rules", "scripts", "config", "benchmarks", "bin", "profiles", "report", "envs", ".ci")


def rule_names() -> set[str]:
    names = set()
    for path in [REPO / "Snakefile", *sorted((REPO / "rules").rglob("*.smk"))]:
        names.update(re.findall(r"^(?:local)?rule (\w+):", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def schema_keys() -> set[str]:
    """Every dotted key of config/schema.yaml (``training``, ``training.epochs``, ``models.<alias>`` as ``models``)."""
    keys: set[str] = set()

    def walk(node: dict, prefix: str) -> None:
        for name, child in (node.get("properties") or {}).items():
            keys.add(prefix + name)
            if isinstance(child, dict):
                walk(child, f"{prefix}{name}.")
                for branch in child.get("oneOf", []) + child.get("anyOf", []):
                    if isinstance(branch, dict):
                        walk(branch, f"{prefix}{name}.")
                if isinstance(child.get("items"), dict):
                    walk(child["items"], f"{prefix}{name}.")

    walk(yaml.safe_load((REPO / "config" / "schema.yaml").read_text(encoding="utf-8")), "")
    return keys


# measurements, not code: their names are those of the commit that recorded them (old rule names included)
RECORDS = REPO / "benchmarks" / "results"


IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def python_words(source: str) -> set[str]:
    """The identifier-like words of Python (or Snakemake) code, its comments and docstrings left out: names, and the
    words of its other strings (column names, keys, messages)."""
    import io
    import tokenize

    words: set[str] = set()
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            words.add(token.string)
        elif token.type == tokenize.STRING and previous not in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
            words.update(IDENTIFIER.findall(token.string))  # a string that opens a statement is a docstring (or prose)
        elif token.type in (getattr(tokenize, "FSTRING_MIDDLE", -1), getattr(tokenize, "TSTRING_MIDDLE", -1)):  # Python 3.12 on
            words.update(IDENTIFIER.findall(token.string))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return words


def code_words() -> set[str]:
    """Every identifier-like word of the code and config (the names a doc may mention in backticks), without their
    comments and docstrings; the benchmarks' records are not code and do not count."""
    words: set[str] = set()
    for path in [p for folder in CODE_FOLDERS for p in (REPO / folder).rglob("*")] + [REPO / "Snakefile"]:
        if path.is_relative_to(RECORDS) or not path.is_file() or path.stat().st_size >= 2_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix in (".py", ".smk") or path.name == "Snakefile" or text.startswith("#!/usr/bin/env python"):
            words |= python_words(text)
        elif path.suffix in (".yaml", ".yml", ".sh", "") or path.name.endswith(".tsv"):
            words.update(IDENTIFIER.findall(re.sub(r"(?m)(^|\s)#.*$", "", text)))  # without comments
        elif path.suffix in (".json", ".rst", ".tsv"):
            words.update(IDENTIFIER.findall(text))
    return words


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.M)}


def program_source(command: str) -> Path | None:
    """The source of one of this repository's programs named at the start of a command line."""
    if found := re.search(r"(?:^|[\s`])(?:\.venv/bin/python\s+|python\s+)?((?:bin|benchmarks)/[\w-]+(?:\.py)?)", command):
        return REPO / found.group(1)
    if found := re.search(r"python -m (directional_inference(?:\.\w+)+)", command):
        module = REPO / "src" / Path(*found.group(1).split("."))
        return module.with_suffix(".py") if module.with_suffix(".py").is_file() else module / "__main__.py"
    return None


# the programs that pass the arguments they do not read to Snakemake
SNAKEMAKE_WRAPPERS = {"plan", "doctor", "sync-after-pull", "snakemake"}


def program_code(program: Path) -> str:
    """A program's source, with the module it runs (``python -m directional_inference...``) where it is a wrapper."""
    code = program.read_text(encoding="utf-8")
    for module in re.findall(r"-m (directional_inference(?:\.\w+)+)", code):
        path = REPO / "src" / Path(*module.split("."))
        code += path.with_suffix(".py").read_text(encoding="utf-8") if path.with_suffix(".py").is_file() else ""
    return code


FLAG = r"(?<![\w-])(--[a-z][a-z0-9-]*)"
SHORT_FLAG = r"(?<![\w-])(-[a-zA-Z])(?![\w-])"
# Snakemake and DVC as the docs name them: in a command (`.venv/bin/snakemake ...`) or in prose (`snakemake --touch`)
SNAKEMAKE_COMMAND = re.compile(r"(?<![\w/.-])(?:\.venv/bin/)?snakemake(?=\s)([^`]*)")
DVC_COMMAND = re.compile(r"(?<![\w/.-])(?:\.venv/bin/)?dvc\s+((?:exp|remote|cache|config)\s+)?([a-z][a-z-]*)([^`]*)")


def flags_in(text: str) -> list[str]:
    """The options a command line names, long (``--cores``) and short (``-n``)."""
    return re.findall(FLAG, text) + re.findall(SHORT_FLAG, text)


def help_flags(*command: str) -> frozenset[str]:
    """Every flag a pinned program's --help lists."""
    import subprocess
    import sys

    shown = subprocess.run(
        [str(Path(sys.executable).with_name(command[0])), *command[1:], "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**__import__("os").environ, "DVC_NO_ANALYTICS": "1"},
    ).stdout
    return frozenset(flags_in(shown))


@functools.lru_cache(maxsize=1)
def snakemake_flags() -> frozenset[str]:
    """Every flag of the pinned Snakemake, as its --help lists them (its executor plugins' included)."""
    return help_flags("snakemake")


@functools.lru_cache(maxsize=None)
def dvc_flags(subcommand: str) -> frozenset[str]:
    """Every flag of one command of the pinned DVC (``exp run``, ``push``), as its --help lists them."""
    return help_flags("dvc", *subcommand.split())


def defines_flag(code: str, flag: str) -> bool:
    """Whether a program's source defines ``flag`` as a whole option: a string literal (argparse's ``"--flag"``) or a
    shell ``case`` pattern (``--flag)``, ``--flag=*``), never a longer flag that begins with it."""
    return re.search(rf"""["'(|\s]{re.escape(flag)}(?:["'=)|]|\s)""", code) is not None


# names of things outside the repository that the docs quote (CPU flags), and the Chinese subsets' names, which the code
# makes from levyholt.chinese.CHINESE_PREFIX
EXTERNAL = {"avx512_vnni"}
PACKAGE = REPO / "src" / "directional_inference"


def python_name(token: str) -> bool:
    """Whether a dotted name is a module of the package or a name defined in one (``evaluation.evidence.retrieve_evidence``,
    ``graphs.graph_from_files``), not a config key."""
    parts = token.split(".")
    for end in range(len(parts), 0, -1):
        base = PACKAGE.joinpath(*parts[:end])
        module = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py" if base.is_dir() else None
        if module is None:
            continue
        rest = parts[end:]
        return not rest or (
            len(rest) == 1
            and re.search(
                rf"^(?:def|class) {rest[0]}\b|^{rest[0]} =|\b{rest[0]}\b.*import|import.*\b{rest[0]}\b",
                module.read_text(encoding="utf-8"),
                flags=re.M,
            )
            is not None
        )
    return False


def problems(text: str, source: Path, *, rules: set[str], keys: set[str], words: set[str]) -> list[str]:
    """What one document mentions that does not exist."""
    found = []
    top = {key for key in keys if "." not in key}
    placeholder = re.compile(r"[{}<>*]|\.\.\.|\[|\]")
    for name in re.findall(r"\brule `?(\w+)`?", text):
        if name not in rules and name.islower() and "_" in name:
            found.append(f"{source.name}: rule {name!r} is not a rule of the workflow")
    for token in re.findall(r"`([^`\n]+)`", text):
        token = token.strip()
        if re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", token) and token not in words | EXTERNAL and token.removeprefix("zh_") not in words:
            found.append(f"{source.name}: `{token}` is named nowhere in the code or config")
        dotted = re.fullmatch(r"([a-z_]+)((?:\.[a-z_0-9]+)+)(?::.*)?", token)
        if dotted and dotted.group(1) in top and not placeholder.search(token) and not python_name(dotted.group(1) + dotted.group(2)):
            key = dotted.group(1) + dotted.group(2)
            if key not in keys and not any(key.startswith(k + ".") for k in keys if k.split(".")[-1] in ("models", "overrides", "imported")):
                found.append(f"{source.name}: config key `{key}` is not in config/schema.yaml")
        if token.startswith(REPO_FOLDERS) and not placeholder.search(token) and " " not in token:
            path = token.split(":")[0].split("#")[0].rstrip("/")
            if not (REPO / path).exists():
                found.append(f"{source.name}: path `{token}` does not exist")
    for command in (part for line in text.splitlines() for part in re.split(r"&&|;|\|", line.split(" #")[0])):
        for snakemake in SNAKEMAKE_COMMAND.finditer(command):
            found += [f"{source.name}: snakemake has no flag {flag}" for flag in flags_in(snakemake.group(1)) if flag not in snakemake_flags()]
        for dvc in DVC_COMMAND.finditer(command):
            subcommand = ((dvc.group(1) or "") + dvc.group(2)).strip()
            if flags := flags_in(dvc.group(3)):
                found += [f"{source.name}: dvc {subcommand} has no flag {flag}" for flag in flags if flag not in dvc_flags(subcommand)]
        program = program_source(command)
        if program is None or not program.is_file():
            continue
        code = program_code(program)
        named = re.search(re.escape(str(program.relative_to(REPO)).removesuffix("/__main__.py").removesuffix(".py")), command)
        for flag in re.findall(FLAG, command[named.end() if named else 0 :]):
            # bin/plan, bin/doctor, bin/sync-after-pull and bin/snakemake pass every other flag to Snakemake
            if not defines_flag(code, flag) and not (program.name in SNAKEMAKE_WRAPPERS and flag in snakemake_flags()):
                found.append(f"{source.name}: {program.relative_to(REPO)} has no flag {flag}")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
            continue
        file, _, anchor = target.partition("#")
        path = (source.parent / file).resolve() if file else source
        if not path.exists():
            found.append(f"{source.name}: link to {target} leads nowhere")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            found.append(f"{source.name}: link to {target}: no heading with that anchor")
    return found


@pytest.fixture(scope="module")
def code():
    return {"rules": rule_names(), "keys": schema_keys(), "words": code_words()}


def test_every_name_the_docs_mention_exists(code):
    found = [p for doc in DOCS for p in problems(doc.read_text(encoding="utf-8"), doc, **code)]
    assert not found, "\n".join(found)


def test_the_check_catches_a_planted_unknown_rule_key_path_flag_and_link(code):
    planted = (
        "The articles come from rule `build_articles`; set `training.epochz`; see `src/directional_inference/nothing.py`, "
        "run `bin/setup --fast` and .venv/bin/python benchmarks/paper_scale.py --multipel 3, and read "
        "[operations](operations.md#no-such-section)."
    )
    found = problems(planted, REPO / "docs" / "planted.md", **code)
    assert any("build_articles" in p for p in found)
    assert any("training.epochz" in p for p in found)
    assert any("nothing.py" in p for p in found)
    assert any("--multipel" in p for p in found) and any("--fast" in p for p in found)
    assert any("--device-chek" in p for p in problems("`bin/doctor --device-chek`", REPO / "docs" / "planted.md", **code))
    assert any("--coers" in p for p in problems("`.venv/bin/snakemake --coers 2`", REPO / "docs" / "planted.md", **code))
    # a flag is a whole option: --mark is not --markdown, --run-table is not --run-table4
    assert any(
        "--mark " in p + " "
        for p in problems("`benchmarks/run_footprint.py markdown --mark docs/run-times.md`", REPO / "docs" / "planted.md", **code)
    )
    assert any("--run-table" in p for p in problems("`benchmarks/booqa_density.py record --run-table t.csv`", REPO / "docs" / "planted.md", **code))
    # DVC's options, per command, as the pinned DVC lists them
    assert any(
        "dvc exp run has no flag --set-params-x" in p
        for p in problems("`.venv/bin/dvc exp run --set-params-x a=1`", REPO / "docs" / "planted.md", **code)
    )
    assert not problems(
        "`.venv/bin/dvc exp run -S a=1 --queue`; `.venv/bin/dvc push --remote lab`; `.venv/bin/dvc commit -f`", REPO / "docs" / "planted.md", **code
    )
    # Snakemake and DVC named in prose, not only as the venv's commands; short options too
    prose = problems("re-run with `snakemake --touchh`, or `dvc exp run --tempp`; `.venv/bin/snakemake -Q`", REPO / "docs" / "planted.md", **code)
    assert {"snakemake has no flag --touchh", "dvc exp run has no flag --tempp", "snakemake has no flag -Q"} <= {
        p.split(": ", 1)[1] for p in prose
    }, prose
    assert not problems("`snakemake --touch`, `snakemake -n`, `dvc exp run --temp`, `dvc exp run -S a=1`", REPO / "docs" / "planted.md", **code)
    # a name only a comment or a docstring holds is not a name of the code; names and the words of other strings are
    source = 'x_count = f(\n    "column_name",  # comment_word\n)\n\n\ndef g():\n    """doc_word"""\n    return f"{x_count}_made"\n'
    assert python_words(source) == {"x_count", "f", "column_name", "def", "g", "return", "_made"}
    # a name only a benchmark record holds (a field of benchmarks/results/device_throughput.json) is not a name of the code
    assert any("`bert_train_sentences_per_s`" in p for p in problems("`bert_train_sentences_per_s`", REPO / "docs" / "planted.md", **code))
    assert not problems(
        "`srun --gpus 1 bin/doctor --device-check --configfile x.yaml`; `bin/plan --forcerun a`; "
        "`.venv/bin/snakemake --cores 2 --workflow-profile profiles/slurm`",
        REPO / "docs" / "planted.md",
        **code,
    )
    assert any("no-such-section" in p for p in found)
    assert not problems(
        "rule `merge_relations` reads `training.epochs` in `src/directional_inference/engine.py`; "
        "benchmarks/paper_scale.py --multiple 3; [operations](operations.md#running-on-slurm)",
        REPO / "docs" / "planted.md",
        **code,
    )


def benchmark_module(name: str):
    """A script of benchmarks/ loaded as a module (benchmarks/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_throughput_block_of_run_times_is_generated_from_the_records():
    """docs/run-times.md's throughput tables (what bin/plan --device forecasts from) are benchmarks/throughput_table.py's
    rendering of the committed benchmark results."""
    module = benchmark_module("throughput_table")
    document = (REPO / "docs" / "run-times.md").read_text(encoding="utf-8")
    assert module.splice(document, module.current_block()) == document, (
        "docs/run-times.md is stale: run .venv/bin/python benchmarks/throughput_table.py --markdown docs/run-times.md"
    )
    # a row per device and architecture; the LLM rows at their fastest format (here bf16 weights: 400 + 200 against 300 + 250)
    rows = [
        {
            "device_name": "GPU X",
            "model": "m",
            "batch_size": 8,
            "format": fmt,
            "prompt": f"original, {shots}",
            "pairs_per_s": rate,
            "gpu_peak_mb": 2048,
            "parameters": 7e9,
            "random_weights": True,
            "date": "d",
        }
        for fmt, shots, rate in (
            ("bf16", "zero-shot", 300.0),
            ("bf16", "few-shot", 250.0),
            ("bf16-weights", "zero-shot", 400.0),
            ("bf16-weights", "few-shot", 200.0),
        )
    ]
    assert "| GPU X | m | 7.00 B | 8 | bf16-weights | 400.0 | 200.0 | 2.0 GB | torch not recorded, transformers not recorded | d |" in (
        module.throughput_markdown([], rows)
    )
    # a row names the versions its record holds, and the note the rows measured with other versions than the pins
    pinned = module.pinned_versions()
    other = [row | {"device_name": "GPU Y", "torch": "0.1+cu1", "transformers": pinned["transformers"]} for row in rows]
    shown = module.throughput_markdown([], other)
    assert f"| torch 0.1+cu1, transformers {pinned['transformers']} | d |" in shown
    assert shown.rstrip().endswith("Measured with other versions than the pins: GPU Y.")


def test_the_footprint_block_of_run_times_is_generated_from_the_records():
    """docs/run-times.md's time, memory and disk per scale are benchmarks/run_footprint.py's rendering of the committed
    records of whole runs, smoke and default at least."""
    import json

    module = benchmark_module("run_footprint")
    document = (REPO / "docs" / "run-times.md").read_text(encoding="utf-8")
    assert module.splice(document, module.current_block()) == document, (
        "docs/run-times.md is stale: run .venv/bin/python benchmarks/run_footprint.py markdown --markdown docs/run-times.md --readme README.md"
    )
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rows = json.loads(module.RECORDS.read_text(encoding="utf-8"))["rows"]
    assert module.splice(readme, module.summary_markdown(rows), (module.SUMMARY_START, module.SUMMARY_END)) == readme, (
        "README.md is stale: run .venv/bin/python benchmarks/run_footprint.py markdown --markdown docs/run-times.md --readme README.md"
    )
    assert {"smoke", "default"} <= {row["scale"] for row in rows}


def test_the_scale_benchmark_block_of_run_times_is_generated_from_the_records():
    """docs/run-times.md's per-rule table of the scale benchmark is benchmarks/plot_paper_scale.py's rendering of the
    committed records, never typed: a record added without regenerating it fails here."""
    import json

    module = benchmark_module("plot_paper_scale")
    records = json.loads((REPO / "benchmarks" / "results" / "paper_scale.json").read_text(encoding="utf-8"))
    document = (REPO / "docs" / "run-times.md").read_text(encoding="utf-8")
    assert module.splice(document, module.spill_markdown(records)) == document, (
        "docs/run-times.md is stale: run .venv/bin/python benchmarks/plot_paper_scale.py --markdown docs/run-times.md"
    )
    with pytest.raises(ValueError, match="scale:start"):
        module.splice("no block here", "x")


@pytest.mark.workflow
def test_the_rule_graph_picture_of_the_docs_is_the_targets_drawing_of_the_default_config(tmp_path):
    """docs/rulegraph.svg is what `snakemake results/rulegraph.svg` draws for the default config, byte for byte (the
    drawing is deterministic), and shows the default target's rules: every phase's first rule is in it."""
    from conftest import copy_workflow, run_snakemake

    work = copy_workflow(tmp_path / "work")
    run_snakemake(work, "results/rulegraph.svg", "--cores", "1")
    drawn = (work / "results" / "rulegraph.svg").read_bytes()
    assert drawn == (REPO / "docs" / "rulegraph.svg").read_bytes(), (
        "docs/rulegraph.svg is stale: run `.venv/bin/snakemake results/rulegraph.svg --cores 1 && cp results/rulegraph.svg docs/`"
    )
    log = (work / "logs" / "report" / "draw_rulegraph.log").read_text(encoding="utf-8")
    for rule in ("fetch_dataset", "merge_relations", "train_sns_trial", "score_booqa", "make_booqa_table", "score_llm_levyholt"):
        assert f"'{rule}'" in log, rule


def test_the_results_page_and_the_readme_findings_are_rendered_from_the_default_runs_files():
    """Every number block of docs/results.md and the README's findings are rendered from docs/default-run/ (copies of
    the default run's result files): a block typed or edited by hand, or left behind by a new run, fails here."""
    from directional_inference.tools.results_page import stale_documents

    assert stale_documents() == [], "run .venv/bin/python -m directional_inference.tools.results_page"


def test_results_page_cells_and_tables_follow_the_result_files():
    from directional_inference.tools.results_page import cell, table1_markdown, table5_markdown

    row = {"auc_norm": "65.4", "auc_norm_low": "52.9", "auc_norm_high": "76.6", "signal": "above chance"}
    assert cell(row, "auc_norm", bold=True, signal="signal") == "**65.4** [52.9, 76.6]"
    assert (
        cell(row | {"signal": "NO SIGNAL: its interval reaches into the chance range"}, "auc_norm", signal="signal") == "65.4 [52.9, 76.6]: no signal"
    )
    assert cell({"auc_norm": ""}, "auc_norm") == "no number"

    def r(train, test, value, model="m"):
        return {
            "model": model,
            "model_name": "M",
            "train": train,
            "test": test,
            "auc_norm": value,
            "auc_norm_low": "",
            "n_test": "10",
            "auc_norm_paper": "50.0",
            "signal": "above chance",
        }

    table1 = [
        r(a, b, f"{i}.0")
        for i, (a, b) in enumerate((a, b) for a in ("directional", "symmetric", "full") for b in ("directional", "symmetric", "full"))
    ]
    table6 = [r("full", "sherliic", "9.0"), r("sherliic", "sherliic", "10.0"), r("full", "full", "99.0")]
    lines = table1_markdown(table1 + [r("full", "full", "77.0", model="other")], table6).splitlines()
    assert lines[2] == "| train \\ test | Directional (10 pairs) | Symmetric (10 pairs) | Full (10 pairs) | SherLIiC (10 pairs) |"
    assert lines[4] == "| Directional | **0.0** (paper 50.0) | 1.0 (paper 50.0) | 2.0 (paper 50.0) |  |"
    # the main model's own Full -> Full (8.0), not Table 6's copy of it nor another model's
    assert lines[6] == "| Full | 6.0 (paper 50.0) | 7.0 (paper 50.0) | **8.0** (paper 50.0) | 9.0 (paper 50.0) |"
    assert lines[7] == "| SherLIiC |  |  |  | **10.0** (paper 50.0) |"
    table5 = [
        {
            "label": "S&S Full",
            "en_auc_norm": "2.6",
            "en_auc_norm_low": "0.9",
            "en_auc_norm_high": "6.9",
            "en_auc_norm_tie_aware": "2.6",
            "en_auc_norm_tie_aware_low": "0.8",
            "en_auc_norm_tie_aware_high": "6.9",
            "en_signal": "NO SIGNAL: x",
            "en_within_bundle": "56.3",
            "en_auc_norm_paper": "25.6",
            "zh_auc_norm": "",
            "zh_auc_norm_tie_aware": "",
            "zh_auc_norm_paper": "23.1",
            "note": "en: x; y; zh: not run (needs the Chinese LevyHolt; z)",
        }
    ]
    assert table5_markdown(table5).splitlines()[2] == (
        "| S&S Full | 2.6 [0.9, 6.9] | 2.6 [0.8, 6.9]: no signal | 56.3% | 25.6 | not run (needs the Chinese LevyHolt; z) |  | 23.1 |"
    )


def test_a_number_typed_into_a_generated_block_of_the_results_page_is_caught(tmp_path, monkeypatch):
    from directional_inference.tools import results_page

    page = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    start = page.index("<!-- results:table5:start -->")
    planted = page[:start] + page[start:].replace("| 29.8 |", "| 31.0 |", 1)  # the paper's BInc figure, retyped
    assert planted != page
    (tmp_path / "results.md").write_text(planted, encoding="utf-8")
    monkeypatch.setattr(results_page, "RESULTS_PAGE", tmp_path / "results.md")
    assert results_page.stale_documents() == [tmp_path / "results.md"]


# Where the messages that docs/troubleshooting.md quotes come from: this repository's programs, and the tools it runs
MESSAGE_SOURCES = ("src", "bin", "rules", "scripts", "Snakefile")
TOOL_PACKAGES = ("snakemake", "snakemake_executor_plugin_slurm", "dvc", "pip")


def joined_source(path: Path) -> str:
    """A source file with Python's adjacent string literals joined (a message split over lines reads as one)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return re.sub(r"[\"']\s*\n\s*[frb]*[\"']", "", text)


def quoted_messages(document: str) -> list[str]:
    """The messages a document quotes: lines ``> `message` `` (``<...>`` where a part varies)."""
    return re.findall(r"^> `([^`]+)`\s*$", document, flags=re.M)


def message_printed(message: str, sources: list[str]) -> bool:
    """Whether a quoted message is one the code prints: its fixed parts (between ``<...>``) all in one source, in order;
    ``[Errno N] text`` is the operating system's (``os.strerror``)."""
    import os

    if errno := re.fullmatch(r"\[Errno (\d+)\] (.+)", message):
        return os.strerror(int(errno.group(1))) == errno.group(2)
    parts = [part for part in re.split(r"<[^<>]+>", message) if part.strip()]
    pattern = re.compile(".*?".join(re.escape(part) for part in parts), flags=re.S)
    return any(pattern.search(source) for source in sources)


@pytest.fixture(scope="module")
def message_sources() -> list[str]:
    import importlib.util

    files = [
        path
        for name in MESSAGE_SOURCES
        for path in ([REPO / name] if (REPO / name).is_file() else sorted((REPO / name).rglob("*")))
        if path.is_file() and path.suffix in ("", ".py", ".smk", ".sh")
    ]
    for package in TOOL_PACKAGES:
        root = Path(importlib.util.find_spec(package).origin).parent
        files += sorted(root.rglob("*.py"))
    return [joined_source(path) for path in files]


def test_the_troubleshooting_page_quotes_messages_the_code_prints(message_sources):
    messages = quoted_messages((REPO / "docs" / "troubleshooting.md").read_text(encoding="utf-8"))
    assert len(messages) >= 15
    assert [m for m in messages if not message_printed(m, message_sources)] == []
    # and the check can fail: a message reworded, or one nobody prints
    assert not message_printed("but torch sees no GPU device", message_sources)
    assert not message_printed("[Errno 28] Disk quota exceeded", message_sources)
    assert message_printed("cannot obtain input file '<d>/<f>': <reason>. Looked in: <m>; URL: <u>.", message_sources)


# --- One value per figure (issue 46): a pair of figures that read as one thing is one source, or labelled apart ----------


def _block(document: str, start: str, end: str) -> str:
    return document[document.index(start) : document.index(end)]


def test_table2_and_the_findings_show_one_value_each_labelled_with_its_metric_and_order():
    """Pair 1: the findings show the tie-aware AUCnorm and the difference S&S minus 'S&S; Table 2's block shows the authors'
    AUCnorm beside the tie-aware one and the difference 'S&S minus S&S. Both are read from the default run's records: the
    findings' numbers are table2.csv's tie-aware columns and their difference its tie-aware difference negated (the two
    bootstraps draw their tie orders apart, so a bound may move by a tenth), and every page names the metric and order."""
    from directional_inference.tools import results_page

    findings = [r for r in results_page.read_rows(results_page.SNAPSHOT / "findings.csv") if r["source"] == "Table 2"]
    table2 = results_page.read_rows(results_page.SNAPSHOT / "table2.csv")
    table2 = {r["subset"]: r for r in table2 if r["model"] == table2[0]["model"]}
    subsets = {"Paraphrases-DirTrue": "para_dirtrue", "Paraphrases-DirFalse": "para_dirfalse"}
    assert len(findings) == len(subsets)
    pages = results_page.rendered_documents()
    page, readme = pages[results_page.RESULTS_PAGE], pages[results_page.README]
    findings_block = _block(page, "<!-- findings:start -->", "<!-- findings:end -->")
    table2_block = _block(page, "<!-- results:table2:start -->", "<!-- results:table2:end -->")
    for r in findings:
        t = table2[next(subset for name, subset in subsets.items() if name in r["claim"])]
        assert (r["a"], r["b"]) == ("S&S", "'S&S")
        assert [r["ours_a"], r["ours_a_low"], r["ours_a_high"]] == [t[f"sns_auc_norm_tie_aware{s}"] for s in ("", "_low", "_high")]
        assert [r["ours_b"], r["ours_b_low"], r["ours_b_high"]] == [t[f"sym_sns_auc_norm_tie_aware{s}"] for s in ("", "_low", "_high")]
        assert float(r["difference"]) == -float(t["difference_tie_aware"])
        assert float(r["difference_low"]) == pytest.approx(-float(t["difference_tie_aware_high"]), abs=0.15)
        assert float(r["difference_high"]) == pytest.approx(-float(t["difference_tie_aware_low"]), abs=0.15)
        # the findings' 'S&S figure is the one Table 2's block shows in its tie-aware column
        assert f"| {r['ours_b']} [{r['ours_b_low']}, {r['ours_b_high']}]" in table2_block
        assert f"difference (S&S minus 'S&S) {r['difference']} [" in findings_block
    assert "ours: tie-aware AUCnorm %" in findings_block and "Ours: tie-aware AUCnorm %" in readme
    assert (
        "| S&S, authors' | S&S, tie-aware | 'S&S, authors' | 'S&S, tie-aware | 'S&S minus S&S, authors' | 'S&S minus S&S, tie-aware |" in table2_block
    )


def test_the_directional_split_is_counted_in_converse_pairs_or_in_premise_hypothesis_pairs_and_says_which():
    """Pair 3: the paper's Directional split "251 / 64 pairs" (converse pairs: a DirTrue pair and its DirFalse converse)
    and the training records' "502 / 128 pairs" (premise-hypothesis pairs, one line each) are one split counted in two
    units: the records' count is twice the paper's sub-group size, and every page that shows either names its unit."""
    from directional_inference.levyholt.english import PAPER_SUBGROUP_SIZES
    from directional_inference.tools import results_page

    table1 = results_page.read_rows(results_page.SNAPSHOT / "table1.csv")
    directional = next(r for r in table1 if r["train"] == r["test"] == "directional")
    train, dev = (int(n) for n in re.match(r"(\d+) train / (\d+) dev pairs", directional["training"]).groups())
    paper = PAPER_SUBGROUP_SIZES["dirtrue"]
    assert PAPER_SUBGROUP_SIZES["dirfalse"][:2] == paper[:2] and (train, dev) == (2 * paper[0], 2 * paper[1])
    converse, lines = f"{paper[0]:,} / {paper[1]:,}", f"{train:,} / {dev:,}"
    for doc in [*DOCS, REPO / "config" / "schema.yaml"]:
        text = re.sub(r"\s+", " ", doc.read_text(encoding="utf-8"))
        for found in re.finditer(re.escape(converse), text):
            assert text[found.end() : found.end() + 16].startswith(" converse pairs"), f"{doc.name}: {text[found.start() - 80 : found.end() + 40]}"
        for found in re.finditer(re.escape(lines) + r"\b", text):
            near = text[found.start() - 160 : found.end() + 160]
            assert "premise-hypothesis" in near and converse in near, f"{doc.name}: {near}"
    page = results_page.rendered_documents()[results_page.RESULTS_PAGE]
    models = _block(page, "<!-- results:models:start -->", "<!-- results:models:end -->")
    assert f"{train} train / {dev} dev pairs" in models and results_page.pairs_unit(table1) in models
    assert f"its {lines} premise-hypothesis pairs are {converse} converse pairs" in results_page.pairs_unit(table1)


def test_smollm2s_file_size_and_its_jobs_memory_are_labelled_apart():
    """Pair 4: "538 MB" (the de-quantized SmolLM2 weights on disk) and "574 MB" (the peak memory of the job that writes
    them) are two things: every megabyte figure of a `prepare_llm` mention says which it is, and the file size is its
    parameters' fp32 bytes (the parameter count of the real-weights row of benchmarks/results/llm_scoring.json)."""
    import json

    rows = json.loads((REPO / "benchmarks" / "results" / "llm_scoring.json").read_text(encoding="utf-8"))["rows"]
    parameters = next(r["parameters"] for r in rows if not r["random_weights"] and r["model"].startswith("SmolLM2-135M"))
    text = re.sub(r"\s+", " ", (REPO / "docs" / "run-times.md").read_text(encoding="utf-8"))
    labels = {"peak resident memory": 0, "on disk": 0}
    for mention in re.finditer(r"`prepare_llm` [^;]*", text):
        for figure in re.finditer(r"([\d,]+) MB", mention.group(0)):
            label = next((name for name in labels if name in mention.group(0)[figure.end() : figure.end() + 40]), None)
            assert label, f"unlabelled: {mention.group(0)}"
            labels[label] += 1
            if label == "on disk":
                assert int(figure.group(1).replace(",", "")) == round(parameters * 4 / 1e6), mention.group(0)
    assert labels["peak resident memory"] >= 2 and labels["on disk"] >= 1


def test_the_default_relations_and_the_synthetic_ones_are_one_generated_figure_each_and_labelled():
    """Pair 5: 85,255 is the default's English relations the synthetic generator was fitted on
    (benchmarks/synthetic_relations.json), 84,720 the synthetic relations the generator made at 1x (whole articles;
    benchmarks/results/paper_scale.json). Each is generated into the scale block from its record, and every mention of
    either in the docs says which it is."""
    import json

    module = benchmark_module("plot_paper_scale")
    base = module.base_relations()
    assert base == json.loads((REPO / "benchmarks" / "synthetic_relations.json").read_text(encoding="utf-8"))["measured"]["relations"]
    records = json.loads((REPO / "benchmarks" / "results" / "paper_scale.json").read_text(encoding="utf-8"))
    made = {r["relations"] for r in records if r["multiple"] == 1}
    assert len(made) == 1 and made != {base}
    block = module.spill_markdown(records)
    assert (
        f"A multiple is of the default's {base:,} English relations" in block
        and f"| synthetic relations made (after the merge) | {min(made):,} (" in block
    )
    for doc in DOCS:
        text = re.sub(r"\s+", " ", doc.read_text(encoding="utf-8"))
        for found in re.finditer(f"{base:,}", text):
            assert "synthetic_relations.json" in text[found.start() : found.end() + 200], (
                f"{doc.name}: {text[found.start() - 100 : found.end() + 100]}"
            )
        for found in re.finditer(f"{min(made):,}", text):
            assert "synthetic relations made" in text[found.start() - 400 : found.start()], f"{doc.name}: {text[found.start() - 200 : found.end()]}"


def test_the_h200_figures_say_the_versions_their_records_were_measured_with():
    """Pair 6: the H200 figures were measured with another torch than pyproject.toml pins. Wherever the docs show them
    (the throughput tables of run times, the forecast's rate lines of paper scale, the scoring-memory paragraph), the
    versions are those the record holds, or the page says the record names none; the pins come from pyproject.toml."""
    import json

    module = benchmark_module("throughput_table")
    pins = module.pinned_versions()
    assert set(pins) == {"torch", "transformers"}
    results = REPO / "benchmarks" / "results"
    rows = [
        *json.loads((results / "device_throughput.json").read_text(encoding="utf-8"))["rows"],
        *json.loads((results / "llm_scoring.json").read_text(encoding="utf-8"))["rows"],
    ]
    h200 = [r for r in rows if r["device_name"] == "NVIDIA H200"]
    assert h200 and all(r.get("torch") for r in h200)
    block = module.current_block()
    for line in (line for line in block.splitlines() if line.startswith("| NVIDIA H200 |")):
        assert f"| torch {h200[0]['torch']}, transformers {h200[0].get('transformers') or 'not recorded'} |" in line, line
    assert f"pins torch {pins['torch']}, transformers {pins['transformers']}" in block
    if any(r["torch"].split("+")[0] != pins["torch"] for r in h200):
        assert "Measured with other versions than the pins: NVIDIA H200" in block
    # the forecast's H200 rates (docs/paper-scale.md, from docs/paper-plan.json) name the same record's versions
    from directional_inference.tools import plan_page
    from directional_inference.tools.forecast import measured_with

    for size, rate in plan_page.read_snapshot()["rates"]["cuda-nvidia-h200"].items():
        row = next(r for r in h200 if r.get("size") == size)
        assert measured_with(row) in rate["source"]
    page = (REPO / "docs" / "paper-scale.md").read_text(encoding="utf-8")
    assert "- H200 (measured): " in page and f"torch {h200[0]['torch']}" in page
    # the scoring-memory record of the H200: the page says what versions it names, here none
    record = json.loads((results / "scoring_memory_gpu.json").read_text(encoding="utf-8"))
    text = re.sub(r"\s+", " ", (REPO / "docs" / "run-times.md").read_text(encoding="utf-8"))
    said = text[text.index("On an H200 (`scoring_memory_gpu.json`") :][:200]
    if record.get("torch"):
        assert f"torch {record['torch']}" in said
    else:
        assert "names no torch or transformers version" in said


def test_run_times_opens_with_the_current_generated_figures_and_keeps_its_dated_runs_under_history():
    """docs/run-times.md opens with the figures generated from the records (the footprint first, then the throughput and
    the scale benchmark's blocks), with the test suite's time in the footprint block and the time per target there too, or
    a line saying that no row holds it yet; every dated run of an older commit is a subsection of its last section, History."""
    document = (REPO / "docs" / "run-times.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", document, flags=re.M)
    assert sections[0] == "Time, memory and disk per scale" and sections[-1].startswith("History")
    assert not [title for title in sections[:-1] if re.search(r"\b20\d\d-\d\d-\d\d\b", title)]
    history = document.index("\n## History")
    assert document.index("<!-- footprint:start -->") < document.index("<!-- throughput:start -->") < document.index("<!-- scale:start -->") < history
    assert re.findall(r"^### .*\b20\d\d-\d\d-\d\d\b", document[history:], flags=re.M)
    current = re.sub(r"\s+", " ", document[:history])
    block = current[current.index("<!-- footprint:start -->") : current.index("<!-- footprint:end -->")]
    assert "The test suite (`bin/test`" in block
    assert re.search(r"Per target, default scale .*\| `results/table5\.csv` \| \d+ \|", block)  # the README's main command, timed per target


def _named_in(cell: str) -> set[str]:
    """The tables and figures a cell of docs/experiments.md's map names: "Tables 5, 15, 16 (S&S rows), Figure 3" ->
    table5, table15, table16, figure3; "`table3_generality`", "`figure_llm`" and "LLM table" by their file names."""
    names = {
        f"{kind.lower().rstrip('s')}{n}"
        for kind, numbers in re.findall(r"(Tables?|Figures?) ((?:\d+(?:, | and )?)+)", cell)
        for n in re.findall(r"\d+", numbers)
    }
    return names | set(re.findall(r"`((?:table|figure)\w+)`", cell)) | ({"table_llm"} if "LLM table" in cell else set())


def test_the_map_of_which_models_each_table_shows_names_every_table_and_figure_a_run_writes():
    """docs/experiments.md's "Which models each table shows" has a row for every table of results/metrics.json and
    every figure; a table added without a row fails here."""
    from directional_inference.tables.summary import ROW_KEYS

    page = (REPO / "docs" / "experiments.md").read_text(encoding="utf-8")
    section = page.split("### Which models each table shows", 1)[1].split("\n#", 1)[0]
    cells = [line.split("|")[1] for line in section.splitlines() if line.startswith("| ") and not line.startswith("| table or figure")]
    named = set().union(*map(_named_in, cells))
    assert _named_in("Table 6, Figures 1 and 2 (the mesh)") == {"table6", "figure1", "figure2"}  # the parse itself
    figures = set(re.findall(r"layout\.result\(\"(figure\w+)\.(?:png|\{)", "".join(p.read_text() for p in (REPO / "rules").glob("*.smk"))))
    expected = set(ROW_KEYS) | figures
    assert {"figure3", "figure_llm"} <= figures and expected <= named, f"not in the map: {sorted(expected - named)}"


BARE_MODULE_RUN = re.compile(r"(?<![/\w.])python3? -m (?!venv\b|pip\b)")  # a module run without the workflow's interpreter


def test_every_python_m_command_the_docs_and_the_workflow_print_names_the_workflows_interpreter():
    """Outside the virtual environment a bare ``python -m directional_inference...`` is "python: not found" or "No module
    named 'directional_inference'": the docs and every message and usage line of the package say ``.venv/bin/python
    -m``, which runs as typed from the repository root in a plain shell."""
    sources = [*DOCS, *sorted((REPO / "src").rglob("*.py")), *sorted((REPO / "scripts").glob("*.py")), *sorted((REPO / "rules").rglob("*.smk"))]
    bare = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in sources
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if BARE_MODULE_RUN.search(line)
    ]
    assert not bare, "\n".join(bare)
    assert BARE_MODULE_RUN.search("run `python -m directional_inference.tools.plan_page`")  # the check catches one
    assert not BARE_MODULE_RUN.search("run `.venv/bin/python -m directional_inference.tools.plan_page`")
