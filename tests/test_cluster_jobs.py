"""No cluster job touches the network: every rule whose script reaches network code (found from the imports, never
listed by hand) is a local rule, run where Snakemake runs; checked on the paper's whole target planned under
profiles/slurm, with its LLMs from the hub."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO, run_snakemake, tool_environment
from directional_inference.workflow.dvc_pipeline import PACKAGE_DIR, module_dependencies
from directional_inference.config_tree import run_config
from directional_inference.tools.plan import copy_definition, local_rules, planned_job_details
from directional_inference.tools.plan_page import planning_overlay

# Client libraries of the network: a module that imports one (at its top or in a function) is network code
NETWORK_LIBRARIES = ("huggingface_hub", "urllib.request", "http.client", "requests", "httpx", "urllib3", "ftplib")

# Snakemake's own view of each rule for an executor: in a dry run it prints every job as `rule` (jobs.py: "in dryrun, we
# don't want to display a decision whether local or not"), so the rules are parsed through its API with the same config
# files and asked Workflow.is_local with the profile's executor plugin, the decision its scheduler takes in a real run.
RULES_UNDER_EXECUTOR = """
import json, sys
from pathlib import Path
import yaml
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings
from snakemake_interface_executor_plugins.registry import ExecutorPluginRegistry

profile, *configfiles = sys.argv[1:]
executor = yaml.safe_load(Path(profile, "config.yaml").read_text())["executor"]
with SnakemakeApi(OutputSettings()) as api:
    workflow = api.workflow(resource_settings=ResourceSettings(cores=1, nodes=1), snakefile=Path("Snakefile"), workdir=Path.cwd(),
                            config_settings=ConfigSettings(configfiles=[Path(c) for c in configfiles]))._workflow
    workflow._executor_plugin = ExecutorPluginRegistry().get_plugin(executor)
    rules = {r.name: {"local": workflow.is_local(r), "script": r.script, "shell": r.shellcmd, "run": r.run_func is not None and not r.script,
                      "norun": r.norun} for r in workflow.rules}
print(json.dumps({"executor": executor, "rules": rules}))
"""


def imports_network(path: Path) -> bool:
    """Whether the Python file imports a network client library anywhere in it."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module]
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
            else []
        )
        if any(name == library or name.startswith(library + ".") for name in names for library in NETWORK_LIBRARIES):
            return True
    return False


def network_code(script: Path, workdir: Path) -> list[str]:
    """The files a rule's script reaches (itself, and the package modules it imports, directly or through others, in
    functions too) that are network code."""
    package = workdir / PACKAGE_DIR
    files = [script] + [package / module for module in module_dependencies([script], package) if module.endswith(".py")]
    return [str(path.relative_to(workdir)) for path in files if imports_network(path)]


def rules_under_profile(workdir: Path, profile: str, configfiles: list[str]) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", RULES_UNDER_EXECUTOR, profile, *configfiles], cwd=workdir, capture_output=True, text=True, env=tool_environment()
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def job_inputs(dry_run: str) -> list[tuple[str, list[str]]]:
    """(rule, input files) of every job a dry run prints."""
    jobs: list[tuple[str, list[str]]] = []
    for line in dry_run.splitlines():
        if line.startswith(("rule ", "localrule ")) and line.endswith(":"):
            jobs.append((line.split()[1].rstrip(":"), []))
        elif jobs and line.startswith("    input: "):
            jobs[-1][1].extend(line.removeprefix("    input: ").split(", "))
    return jobs


def script_of(rule: dict, workdir: Path) -> Path:
    return (workdir / "rules" / rule["script"]).resolve()


def test_the_network_code_is_found_from_the_imports(tmp_path):
    """The analysis sees a download wherever it is: the hub through the package, a URL opened in a script itself, an
    import inside a function; and not where none is."""
    (tmp_path / PACKAGE_DIR / "resources").mkdir(parents=True)
    (tmp_path / PACKAGE_DIR / "__init__.py").write_text("")
    (tmp_path / PACKAGE_DIR / "resources" / "__init__.py").write_text("")
    (tmp_path / PACKAGE_DIR / "resources" / "mine.py").write_text("def get():\n    from huggingface_hub import hf_hub_download\n")
    (tmp_path / PACKAGE_DIR / "quiet.py").write_text("import socket\nimport json\n")
    scripts = {
        "through_package": "from directional_inference.resources.mine import get\n",
        "itself": "import urllib.request\n",
        "quiet": "from directional_inference import quiet\n",
    }
    for name, text in scripts.items():
        (tmp_path / f"{name}.py").write_text(text)
    found = {name: network_code(tmp_path / f"{name}.py", tmp_path) for name in scripts}
    assert found == {"through_package": [f"{PACKAGE_DIR}/resources/mine.py"], "itself": ["itself.py"], "quiet": []}


@pytest.fixture(scope="module")
def paper_plan(tmp_path_factory):
    """The paper's whole target, its LLMs from the hub, planned under profiles/slurm in a copy of the definition (stand-ins
    for the two unpublished inputs and made-up pins, plan_page.planning_overlay): the rules as Snakemake sees them for
    the profile's executor, and the dry run's jobs."""
    root = tmp_path_factory.mktemp("paper-slurm")
    definition = copy_definition(REPO, root / "definition")
    paper = run_config(["--configfile", "config/paper.yaml"], definition)
    (root / "planning.yaml").write_text(yaml.safe_dump(planning_overlay(root / "inputs", paper)), encoding="utf-8")
    configfiles = ["config/paper.yaml", str(root / "planning.yaml")]
    seen = rules_under_profile(definition, "profiles/slurm", configfiles)
    dry_run = run_snakemake(definition, "-n", "--cores", "4096", "--workflow-profile", "profiles/slurm", "--configfile", *configfiles)
    return definition, paper, seen, planned_job_details(dry_run.stdout), job_inputs(dry_run.stdout)


def test_every_job_that_reaches_the_network_runs_where_snakemake_runs_at_paper_scale_on_slurm(paper_plan):
    definition, paper, seen, jobs, _ = paper_plan
    rules = seen["rules"]
    assert seen["executor"] == "slurm" and not yaml.safe_load((definition / "profiles" / "slurm" / "config.yaml").read_text()).get("groups")
    # every rule runs a script (or nothing): no shell command or run block escapes the analysis
    assert all(rule["norun"] or (rule["script"] and not rule["shell"] and not rule["run"]) for rule in rules.values())
    fetching = {name: code for name, rule in rules.items() if rule["script"] and (code := network_code(script_of(rule, definition), definition))}
    # the downloads known today are found (a blind spot of the analysis would show here)
    assert {"fetch_dataset", "fetch_newscrawl_year", "fetch_model", "fetch_llm"} <= set(fetching), fetching
    assert "resources/hub.py" in " ".join(fetching["fetch_llm"]) and "resources/fetch.py" in " ".join(fetching["fetch_dataset"])
    planned = {job["rule"] for job in jobs}
    assert {"fetch_newscrawl_year", "fetch_model", "fetch_llm", "score_llm_levyholt", "train_sns_trial"} <= planned
    cluster = sorted({job["rule"] for job in jobs if not rules[job["rule"]]["local"]})
    assert not set(cluster) & set(fetching), {rule: fetching[rule] for rule in set(cluster) & set(fetching)}
    assert {"train_sns_trial", "score_llm_levyholt", "prepare_llm", "extract_relations"} <= set(cluster)  # the profile does send jobs out
    # bin/plan's reading of the localrules block says what Snakemake decides
    assert local_rules(definition) == {name for name, rule in rules.items() if rule["local"] and not rule["norun"]}


def test_the_paper_llms_from_the_hub_are_downloaded_by_a_local_rule_and_read_in_place(paper_plan):
    """paper.yaml's three hub LLMs: a fetch_llm job each, into resources/llms/<alias>, which the scoring jobs read; the
    packaged SmolLM2 is de-quantized by prepare_llm, and no cluster job names a hub id."""
    _, paper, seen, jobs, inputs = paper_plan
    hub = [alias for alias in paper["llm"]["scorers"] if "/" in str(paper["llm"]["models"][alias])]
    assert hub == ["smollm2-1.7b", "qwen2.5-7b", "qwen2.5-32b"]
    assert sorted(job["wildcards"]["llm"] for job in jobs if job["rule"] == "fetch_llm") == sorted(hub)
    assert [job["wildcards"]["llm"] for job in jobs if job["rule"] == "prepare_llm"] == ["smollm2"]
    scoring = [
        (job["wildcards"]["llm"], files[0])
        for job, (rule, files) in zip(jobs, inputs, strict=True)
        if rule in ("score_llm_levyholt", "score_llm_run_test")
    ]
    assert len(scoring) == len(paper["llm"]["scorers"]) * (1 + len(paper["llm"]["test_sets"]))
    assert all(model == (f"resources/llms/{alias}" if alias in hub else f"results/llm/models/{alias}") for alias, model in scoring), scoring
    booqa_llm = [
        files
        for rule, files in inputs
        if rule in ("score_booqa", "score_booqa_part") and any(f.startswith(("resources/llms/", "results/llm/models/")) for f in files)
    ]
    assert booqa_llm and all("results/llm/models/smollm2" in files for files in booqa_llm)  # Table 5's LLM row: the first scorer


def test_with_no_network_a_socket_that_ignores_the_proxy_reaches_nothing(tmp_path):
    """What the proxy cannot see: a process that opens its own socket to a public address, past every proxy variable.
    In NoNetwork's isolation (where this machine makes a network namespace) it has no interface but loopback, and the
    connection fails at once; outside it, the same code sees this machine's interfaces."""
    from canonical_urls import NoNetwork

    code = (
        "import socket\n"
        "print(sorted(name for _, name in socket.if_nameindex()))\n"
        "try:\n    socket.create_connection(('1.1.1.1', 443), timeout=10)\n    print('reached')\n"
        "except OSError as exc:\n    print(type(exc).__name__, exc.errno)\n"
    )
    with NoNetwork() as network:
        if network.isolation != "network namespace":
            pytest.skip("this machine makes no network namespace (unshare --net): the smoke run's second step has the proxy alone")
        inside = subprocess.run(
            network.isolated([sys.executable, "-c", code]),
            capture_output=True,
            text=True,
            env=network.environment(tool_environment()),
            cwd=tmp_path,
            timeout=120,
        )
    outside = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert inside.returncode == 0, inside.stderr
    interfaces, attempt = inside.stdout.splitlines()
    assert interfaces == "['lo']" and attempt.startswith("OSError") and "reached" not in attempt, inside.stdout
    assert outside.stdout.splitlines()[0] != "['lo']", outside.stdout  # the machine's own interfaces: the namespace made the difference


def test_with_no_network_a_download_fails_and_is_seen(tmp_path):
    """canonical_urls.NoNetwork, which the smoke run's second step runs in: a URL opened by the standard library and a
    request of the hub client (its offline switch off here) are refused, and both show."""
    from canonical_urls import NoNetwork

    code = (
        "import urllib.request, huggingface_hub\n"
        "for ask in (lambda: urllib.request.urlopen('https://example.org/x', timeout=10), lambda: huggingface_hub.HfApi().model_info('org/m')):\n"
        "    try:\n        ask()\n        print('reached')\n    except Exception as exc:\n        print(type(exc).__name__)\n"
    )
    with NoNetwork() as network:
        env = network.environment(tool_environment())
        assert env["HF_HUB_OFFLINE"] == "1" and all(env[name].startswith("http://127.0.0.1:") for name in ("https_proxy", "HTTPS_PROXY"))
        env = {name: value for name, value in env.items() if name not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert "reached" not in result.stdout and result.returncode == 0, result.stdout + result.stderr
    assert network.asked[0] == "CONNECT example.org:443" and "CONNECT huggingface.co:443" in network.asked, network.asked
