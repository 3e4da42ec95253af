"""The workflow run for real by Snakemake on the smoke config, its inputs downloaded from their canonical URLs (a local
stand-in serves them): resources, LevyHolt tables."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from transformers import AutoModelForSequenceClassification, AutoTokenizer

from canonical_urls import NoNetwork
from conftest import REFUSED_URLS, SERVED_URLS, SMOKE_STEPS, rules_run, run_snakemake
from directional_inference.resources.inputs import inputs_of
from directional_inference.resources.wordnet import open_wordnet

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def smoke_run(smoke_repo) -> Path:
    return smoke_repo


def test_every_dataset_is_complete_and_verified(smoke_run):
    for dataset in ("levyholt", "levyholt-authors", "reuters21578", "zh-news", "omw-cmn", "wordnet-3.0"):
        root = smoke_run / "resources" / dataset
        expected = {item.path: item.sha256 for item in inputs_of(dataset)}
        recorded = dict(reversed(line.split("  ", 1)) for line in (root / "SHA256SUMS").read_text().splitlines())
        assert recorded == expected, dataset
        for path, sha in expected.items():
            assert hashlib.sha256((root / path).read_bytes()).hexdigest() == sha
    assert not list((smoke_run / "resources").glob(".*.part"))


def test_without_a_mirror_every_input_came_from_its_canonical_url(smoke_run):
    """The README's command on a machine that reaches the URLs: each file of every dataset the run fetched was
    downloaded from the URL of the input table, once, and the run asked for no other URL."""
    fetched = []
    for sums in (smoke_run / "resources").glob("*/SHA256SUMS"):
        urls = {item.path: item.url for item in inputs_of(sums.parent.name)}
        fetched += [urls[line.split("  ", 1)[1]] for line in sums.read_text().splitlines()]
    served = (smoke_run.parent / SERVED_URLS).read_text().splitlines()
    assert len(fetched) > 100 and {url.split("/")[2] for url in fetched} == {"raw.githubusercontent.com", "files.pythonhosted.org"}
    assert sorted(served) == sorted(fetched)
    assert (smoke_run.parent / REFUSED_URLS).read_text() == ""


def test_the_downloads_ran_first_and_every_other_job_without_the_network(smoke_run):
    """The run in two steps, as on a cluster: the resources phase (its target, resources_phase) ran every local rule of
    the run and only the resources phase's rules; the second step, with a network that answers nothing, ran every
    other job, none of a local rule, and its jobs asked the network for nothing."""
    from directional_inference.workflow.phases import phase
    from directional_inference.tools.plan import local_rules

    steps = json.loads((smoke_run.parent / SMOKE_STEPS).read_text())
    local, resources = local_rules(smoke_run), phase("resources")
    downloads, rest = set(steps["downloads"]), set(steps["without_network"])
    assert {"fetch_dataset", "fetch_model"} <= downloads <= set(resources.rules) | {resources.target_rule}
    assert downloads - local <= {"build_wordnet", "build_tiny_model", resources.target_rule}  # the cheap rules on the downloads
    assert not rest & local, rest & local
    assert {"prepare_llm", "score_llm_levyholt", "train_sns_trial", "score_booqa", "all"} <= rest
    assert steps["asked_without_network"] == []
    with NoNetwork() as network:  # in a network namespace wherever this machine makes one
        assert steps["isolation_without_network"] == network.isolation


def test_wordnet_root_works(smoke_run):
    wordnet = open_wordnet(smoke_run / "resources" / "nltk_data")
    assert "walk.v.01" in {s.name() for s in wordnet.synsets("走", lang="cmn")}


def test_models_load(smoke_run):
    for alias in ("tiny", "minilm"):
        path = smoke_run / "resources" / "models" / alias
        tokenizer = AutoTokenizer.from_pretrained(path)
        model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=2)
        assert model(**tokenizer(["x acquired y"], return_tensors="pt")).logits.shape == (1, 2)


def test_rules_write_logs_and_benchmarks(smoke_run):
    benchmark = smoke_run / "logs" / "resources" / "build_wordnet" / "nltk_data.benchmark.tsv"
    header, values = benchmark.read_text().splitlines()[:2]
    assert header.split("\t")[:2] == ["s", "h:m:s"] and float(values.split("\t")[0]) > 0
    assert "走" in (smoke_run / "logs" / "resources" / "build_wordnet" / "nltk_data.log").read_text()


def test_second_run_has_nothing_to_do(smoke_run):
    result = run_snakemake(smoke_run, "-n", "--configfile", "config/smoke.yaml")
    assert "Nothing to be done" in result.stdout + result.stderr


def test_levyholt_counts_equal_the_papers(smoke_run):
    rows = (smoke_run / "results" / "levyholt" / "subgroups.csv").read_text().splitlines()
    for row in rows[1:]:
        name, train, dev, test, train_paper, dev_paper, test_paper = row.split(",")
        assert test == test_paper, name
        assert int(train) + int(dev) == int(train_paper) + int(dev_paper), name


def test_table1_holds_computed_numbers_beside_the_papers(smoke_run):
    table = pd.read_csv(smoke_run / "results" / "table1.csv")
    assert len(table) == 9
    assert set(zip(table["train"], table["test"])) == {
        (a, b) for a in ("directional", "symmetric", "full") for b in ("directional", "symmetric", "full")
    }
    assert table["auc_norm"].between(0, 100).all() and table["auc_norm"].nunique() > 1
    assert table.loc[(table["train"] == "directional") & (table["test"] == "directional"), "auc_norm_paper"].item() == 82.9
    assert set(table["model"]) == {"tiny"} and set(table["scale"]) == {"smoke"} and set(table["paper_model"]) == {"roberta-base"}
    # the directional test set is balanced: its n and positive rate are the subsampled file's
    directional = table[table["test"] == "directional"]
    assert (directional["positive_rate"] == 0.5).all()
    # each row says how its model was trained (number format, data, stopping point) and how it did on the sanity cases
    assert table["precision"].isin(["fp32", "bf16"]).all() and table["training"].str.contains(" train / ").all()
    assert table["sanity"].str.contains("identity").all()


def test_table2_and_table6_and_figures(smoke_run):
    table2 = pd.read_csv(smoke_run / "results" / "table2.csv")
    assert list(table2["subset"]) == ["para_dirtrue", "para_dirfalse"]
    assert (table2["difference"] - (table2["sym_sns_auc_norm"] - table2["sns_auc_norm"])).abs().max() < 0.11
    table6 = pd.read_csv(smoke_run / "results" / "table6.csv")
    assert len(table6) == 4 and table6["auc50"].notna().all() and table6["auc50_paper"].notna().all()
    figure2 = pd.read_csv(smoke_run / "results" / "figure2.csv")
    assert set(figure2["variant"]) == {"hyponly"} and len(figure2) == 7
    for figure in ("figure1", "figure2"):
        assert (smoke_run / "results" / f"{figure}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        svg = (smoke_run / "results" / f"{figure}.svg").read_text()
        assert "<svg" in svg and "DirTrue" in svg


def test_hyperparameter_search_is_recorded_and_trial_weights_are_temporary(smoke_run):
    run = smoke_run / "results" / "models" / "tiny" / "sns" / "directional"
    selection = pd.read_csv(run / "selection.csv")
    assert len(selection) == 1 and selection["selected"].sum() == 1
    assert (run / "best" / "config.json").is_file() and (run / "best" / "training.json").is_file()
    assert {"best_epoch", "best_step", "evaluations", "precision", "train_pairs", "stop_reason", "best_is_last"} <= set(selection.columns)
    assert selection["stop_reason"].item() == "maximum of 1 epochs"  # smoke: one epoch, one evaluation
    training = json.loads((run / "best" / "training.json").read_text())
    assert training["precision"] == selection["precision"].item() and training["train_pairs"] == selection["train_pairs"].item()
    from directional_inference.sns.sanity import sanity_cases

    sanity = pd.read_csv(run / "sanity.csv")
    assert len(sanity) == len(sanity_cases("en")) and sanity["score"].between(-1, 1).all()
    assert not (smoke_run / "results" / "models" / "tiny" / "hyponly" / "directional" / "sanity.csv").exists()  # H-only: no premise
    assert not (run / "trial-0" / "model").exists()  # temp(): removed once the selection copied the best
    assert json.loads((run / "trial-0" / "training.json").read_text()) == training  # the trial's record stays
    assert not list((smoke_run / ".checkpoints").rglob("state.pt"))


def test_a_finished_search_holds_the_weights_of_its_best_trial_only(smoke_run, tmp_path):
    """Four trials of one search, two at a time; temp() kept (--notemp) to look at the trials' directories after the
    selection: one holds weights, the trial the selection chose, and the others a note naming the trial above them."""
    import yaml

    from conftest import SMOKE_THREADS, copy_run

    work = copy_run(smoke_run, tmp_path / "repo")
    overlay = work / "trials.yaml"
    overlay.write_text(yaml.safe_dump({"training": {"trials": 4}}), encoding="utf-8")
    run = work / "results/models/tiny/sns/directional"
    run_snakemake(
        work,
        str(run.relative_to(work) / "selection.csv"),
        "--cores",
        "2",
        "--notemp",
        "--configfile",
        "config/smoke.yaml",
        str(overlay),
        *SMOKE_THREADS,
    )
    selection = pd.read_csv(run / "selection.csv")
    chosen = int(selection.loc[selection["selected"] == 1, "trial"].item())
    assert len(selection) == 4 and chosen == selection.sort_values(["dev_auc_selection", "trial"], ascending=[False, True])["trial"].iloc[0]
    held = [k for k in range(4) if (run / f"trial-{k}" / "model" / "config.json").is_file()]
    assert held == [chosen]
    for k in set(range(4)) - {chosen}:
        assert [p.name for p in (run / f"trial-{k}" / "model").iterdir() if not p.name.startswith(".")] == ["superseded.json"]
        assert json.loads((run / f"trial-{k}" / "training.json").read_text())["hp"]["trial"] == k  # its record stays
    assert (run / "best" / "model.safetensors").read_bytes() == (run / f"trial-{chosen}" / "model" / "model.safetensors").read_bytes()


def test_every_selected_model_has_a_card(smoke_run):
    searches = sorted(path.parent for path in (smoke_run / "results" / "models").glob("*/*/*/selection.csv"))
    assert len(searches) > 10
    for run in searches:
        lm, variant, subset = run.parts[-3:]
        card = (smoke_run / "results" / "model_cards" / lm / variant / subset / "README.md").read_text(encoding="utf-8")
        selection = pd.read_csv(run / "selection.csv")
        row = selection[selection["selected"] == 1].iloc[0]
        assert f"on LevyHolt `{subset}` ({lm}, smoke scale)" in card
        assert f"{row['train_pairs']} training pairs, selected on {row['dev_pairs']} dev pairs" in card
        assert f"trial {row['trial']} selected" in card and "| dev (selection) |" in card
    # Table 3's H-only model trained on BoOQA dev, scored on BoOQA test
    card = (smoke_run / "results" / "model_cards" / "tiny" / "hyponly" / "booqa_en" / "README.md").read_text(encoding="utf-8")
    assert "on BoOQA dev (English, arguments masked by their types)" in card and "| test: BoOQA test (hypothesis-only) |" in card
    # Table 1's Directional model is scored on Table 1's three test sets
    card = (smoke_run / "results" / "model_cards" / "tiny" / "sns" / "directional" / "README.md").read_text(encoding="utf-8")
    assert all(f"| test: {test} |" in card for test in ("directional", "symmetric", "full"))


def test_report_has_every_table_figure_and_the_benchmarks(smoke_run, tmp_path):
    from conftest import copy_run

    work = copy_run(smoke_run, tmp_path / "repo")  # the shared run stays as the fixture made it: others compare against it
    shutil.copytree(smoke_run / "logs", work / "logs")  # the jobs' benchmark files, which the summary reads
    run_snakemake(work, "results/benchmarks.csv", "--cores", "1", "--configfile", "config/smoke.yaml")
    run_snakemake(work, "--report", "results/report.html", "--configfile", "config/smoke.yaml", "--", "all", "results/benchmarks.csv")
    html = (work / "results" / "report.html").read_text(errors="replace")
    for needle in (
        "table1.csv",
        "table2.csv",
        "table6.csv",
        "table16.csv",
        "table17.csv",
        "figure1.png",
        "figure2.png",
        "benchmarks.csv",
        "subgroups.csv",
        "S&amp;S vs",
        "smoke",
    ):
        assert needle in html, needle
    summary = pd.read_csv(work / "results" / "benchmarks.csv")
    trials = summary[summary["rule"] == "train_sns_trial"].iloc[0]
    assert trials["jobs"] == 18 and trials["total_s"] > 0 and trials["peak_rss_mb"] > 50


def test_corpus_and_relations_phases(smoke_run):
    for lang, prefix in (("en", "reuters-"), ("zh", "cctv-")):
        articles = pd.read_parquet(smoke_run / "results" / lang / "corpus" / "articles.parquet")
        assert list(articles.columns) == ["article_id", "date", "window", "title", "text"]
        assert len(articles) == 1000 and articles["article_id"].str.startswith(prefix).all()
        assert articles["article_id"].is_unique and list(articles["date"]) == sorted(articles["date"])
        shards = [pd.read_parquet(smoke_run / "results" / lang / "relations" / f"{k}.parquet") for k in range(2)]
        # contiguous blocks of the corpus: the first shard's articles are the first 500
        order = {a: k for k, a in enumerate(articles["article_id"])}
        assert shards[0]["article_id"].map(order).max() < 500 <= shards[1]["article_id"].map(order).min()
        relations = pd.concat(shards)
        assert len(relations) > 100 and set(relations["article_id"]) <= set(articles["article_id"])
        windows = dict(zip(articles["article_id"], articles["window"]))
        assert (relations["article_id"].map(windows) == relations["window"]).all()
        assert (relations["article_id"].map(dict(zip(articles["article_id"], articles["date"]))) == relations["date"]).all()
        assert (relations["subj"] != relations["obj"]).all() and relations["pred"].str.len().min() > 0
        # the merge: corpus order, each sentence text in one place only (its first), nothing else dropped
        merged = pd.read_parquet(smoke_run / "results" / lang / "relations" / "merged.parquet")
        assert list(merged.columns) == list(relations.columns)
        assert merged["article_id"].map(order).is_monotonic_increasing
        assert (merged.groupby("sentence")[["article_id", "sentence_id"]].nunique() == 1).all().all()
        homes = relations.assign(at=relations["article_id"].map(order)).sort_values(["at", "sentence_id"]).drop_duplicates("sentence")
        assert len(merged) == len(relations.merge(homes[["article_id", "sentence_id"]].drop_duplicates(), on=["article_id", "sentence_id"]))


def test_booqa_dataset_and_table4(smoke_run):
    table4 = pd.read_csv(smoke_run / "results" / "table4.csv")
    assert list(zip(table4["language"], table4["split"])) == [("en", "dev"), ("en", "test"), ("zh", "dev"), ("zh", "test")]
    assert table4["positives_paper"].tolist() == [21809, 21773, 18855, 19092]
    for lang in ("en", "zh"):
        root = smoke_run / "results" / lang / "booqa"
        for split in ("dev", "test"):
            frame = pd.read_parquet(root / f"{split}.parquet")
            assert len((root / f"{split}.jsonl").read_text().splitlines()) == len(frame)
            row = table4[(table4["language"] == lang) & (table4["split"] == split)].iloc[0]
            assert (row["positives"], row["negatives"]) == (int(frame["label"].sum()), int((~frame["label"]).sum()))
            if len(frame):
                assert frame.groupby("bundle_id")["label"].sum().eq(1).all()  # one positive per bundle
            # evidence per entry: the counts of the evidence files (booqa_evaluation) beside the paper's 14 per entry
            evidence = pd.read_parquet(smoke_run / "results" / lang / "evidence" / f"{split}.parquet")
            counts = frame["id"].map(evidence["entry"].value_counts()).fillna(0)
            assert row["evidence_per_entry_paper"] == 14
            if len(frame):
                assert (row["evidence_median"], row["evidence_mean"]) == (counts.median(), round(counts.mean(), 2))
                assert (row["evidence_single_share"], row["evidence_none_share"]) == (round((counts == 1).mean(), 4), round((counts == 0).mean(), 4))
            else:
                assert row[["evidence_median", "evidence_mean", "evidence_single_share", "evidence_none_share"]].isna().all()
        assert "Construction parameters" in (root / "README.md").read_text()
        card = (root / "README.md").read_text()
        assert "## Evidence per entry" in card and "gives about 14 pieces per entry" in card
        density = pd.read_csv(root / "evidence_density.csv")
        assert density["split"].tolist() == ["dev", "test"]
        for split in ("dev", "test"):
            cells = density[density["split"] == split].iloc[0]
            assert f"| {split} | {cells['entries']} |" in card
        validation = json.loads((root / "validation.json").read_text())
        sizes = sum(len(pd.read_parquet(root / f"{split}.parquet")) for split in ("dev", "test"))
        assert validation["invariants"] == "all hold" and validation["checked"]["entries"] == sizes
        for split in ("dev", "test"):
            loaded = pd.read_json(root / f"{split}.jsonl", lines=True, dtype=False)
            parquet = pd.read_parquet(root / f"{split}.parquet")
            assert len(loaded) == len(parquet) and (parquet.empty or list(loaded.columns) == list(parquet.columns))
    english = pd.read_parquet(smoke_run / "results" / "en" / "booqa" / "dev.parquet")
    assert len(english) > 0, "the smoke corpus should yield at least one English bundle"


def test_booqa_release_loads_with_hugging_face_datasets(smoke_run, tmp_path):
    import datasets

    root = smoke_run / "results" / "en" / "booqa"
    # the card's header names the splits: no data_files; an empty split (the smoke English test split may be one)
    # is not declared, since datasets refuses a split without rows
    splits = [split for split in ("dev", "test") if len(pd.read_parquet(root / f"{split}.parquet"))]
    assert "dev" in splits
    loaded = datasets.load_dataset(str(root), cache_dir=str(tmp_path / "parquet"))
    assert sorted(loaded) == sorted(splits)
    jsonl = datasets.load_dataset("json", data_files={split: str(root / f"{split}.jsonl") for split in splits}, cache_dir=str(tmp_path / "json"))
    for split in splits:
        parquet = pd.read_parquet(root / f"{split}.parquet")
        for copy in (loaded[split], jsonl[split]):
            assert copy.num_rows == len(parquet) and copy.column_names == list(parquet.columns)
            assert copy["id"] == parquet["id"].tolist() and copy["label"] == parquet["label"].tolist()


def test_corpus_reading_report_reaches_the_dataset_card(smoke_run):
    reading = json.loads((smoke_run / "results" / "en" / "corpus" / "reading.json").read_text())
    # Reuters-21578: 22 files, 21,578 elements of which 19,043 have a body; the smoke scale keeps the first 1,000
    assert (reading["files"], reading["records_read"], reading["articles_kept"]) == (22, 19043, 1000)
    assert reading["records_skipped"] == {"no <BODY> (brief or unprocessed story)": 21578 - 19043}
    card = (smoke_run / "results" / "en" / "booqa" / "README.md").read_text()
    assert "| skipped: no <BODY> (brief or unprocessed story) | 2535 |" in card and "| articles kept | 1000 |" in card


def test_booqa_tables_have_every_method_with_numbers_or_notes(smoke_run):
    from directional_inference.evaluation.methods import METHODS

    table5 = pd.read_csv(smoke_run / "results" / "table5.csv")
    assert len(table5) == 12 and table5.loc[table5["method"] == "lm_rel", "en_auc_norm_paper"].item() == 15.9
    for row in table5.itertuples():
        assert pd.notna(row.en_auc_norm) or "en:" in str(row.note) or row.note.startswith("not run"), row.method
        if row.method.startswith(("lm_", "sns_", "sym_", "llm")):
            assert "zh: not run" in row.note  # English-only models: no Chinese number, a note instead
    llm = table5[table5["method"] == "llm"].iloc[0]  # the tiny LLM asked about BoOQA's evidence (not in the paper)
    assert llm["model"] == "tiny_llm" and pd.isna(llm["en_auc_norm_paper"]) and pd.notna(llm["en_auc_norm"])
    assert table5.loc[table5["method"] == "graph_cnce", "note"].item().startswith("not run: the published graph")
    assert "tiny randomly initialised" in table5.loc[table5["method"] == "lm_rel", "model"].item()  # the LM row says what its encoder is
    assert " train / " in table5.loc[table5["method"] == "sns_full", "training"].item()
    table15 = pd.read_csv(smoke_run / "results" / "table15.csv")
    computed = table15[table15["method"].isin(list(METHODS))]
    # dev has entries: every English method of the paper has a number, or none because it scores no entry or ties every
    # entry (the smoke graphs, from 1,000 articles, find no edge for dev's evidence); the LLM is Table 5's alone
    assert len(computed) == len(METHODS) - 1 and "llm" not in set(computed["method"])
    unranked = computed["en_auc_norm"].isna()
    assert computed.loc[unranked, "note"].str.contains("en: no number: ").all()
    assert ((computed.loc[unranked, "en_coverage"] == 0) | (computed.loc[unranked, "en_tied"] == 1)).all()
    assert computed.loc[computed["method"].str.startswith(("lm_", "sns_", "sym_")), "en_auc_norm"].notna().all()
    assert table15.loc[~table15["method"].isin(list(METHODS)), "en_auc_norm"].isna().all()
    table16 = pd.read_csv(smoke_run / "results" / "table16.csv")
    assert table16["method"].tolist()[:4] == ["lm_tfidf", "lm_sent", "lm_rel", "sns_full"]
    evidence = pd.read_parquet(smoke_run / "results" / "en" / "evidence" / "dev.parquet")
    assert list(evidence.columns) == ["entry", "pred", "subj", "obj", "aligned", "sentence"]
    tfidf = pd.read_parquet(smoke_run / "results" / "en" / "evidence" / "dev.tfidf.parquet")
    dev = pd.read_parquet(smoke_run / "results" / "en" / "booqa" / "dev.parquet")
    assert list(tfidf.columns) == ["entry", "article_id", "sentence"] and set(tfidf["entry"]) <= set(dev["id"])
    assert tfidf.groupby("entry")["article_id"].nunique().max() <= 5
    articles = pd.read_parquet(smoke_run / "results" / "en" / "corpus" / "articles.parquet").set_index("article_id")["window"]
    windows = dev.set_index("id")["window"]
    assert (tfidf["article_id"].map(articles) == tfidf["entry"].map(windows)).all()  # only articles of the entry's window


def test_table17_graphs_on_the_directional_subset(smoke_run):
    table17 = pd.read_csv(smoke_run / "results" / "table17.csv")
    assert table17["graph"].tolist() == ["binc", "weeds", "lin", "cosine", "cnce", "egt2"]
    assert (table17["entries"] == 1784).all() and table17["auc50_paper"].tolist()[:2] == [54.7, 55.2]
    local = table17.iloc[:4]
    assert local["coverage"].between(0, 1).all()
    # a number where the graph scores some entry, otherwise none and a note saying why
    scored = local["coverage"] > 0
    assert local.loc[scored, "auc50"].between(0, 100).all() and local.loc[scored, "auc50_tie_aware"].between(0, 100).all()
    assert local.loc[~scored, "auc50"].isna().all() and local.loc[~scored, "note"].str.contains("scores no entry").all()
    # every local row says how far the graph reaches into the subset, whatever the typing
    assert local["note"].str.contains(r"nodes for [\d,]+ of the 1,784 entries and an edge between them \(any typing\) for [\d,]+").all()


def test_findings_report_has_verdicts_that_follow_from_their_intervals(smoke_run):
    from directional_inference.tables.findings import CLAIMS, verdict

    findings = pd.read_csv(smoke_run / "results" / "findings.csv")
    assert len(findings) >= 10 and set(findings["verdict"]) <= {"supported", "contradicted", "inconclusive"}
    claims = {claim.text: claim for claim in CLAIMS}
    for row in findings.itertuples():
        expected = verdict(claims[row.claim], row.difference / 100, row.difference_low / 100, row.difference_high / 100)
        assert row.verdict == expected, row.claim
    reading = (smoke_run / "results" / "findings.md").read_text()
    assert all(text in reading for text in findings["claim"]) and "In all: " in reading


def test_no_number_without_ranking_signal_anywhere(smoke_run):
    """A row without a number in a table has none in metrics.json either; every measured row says its coverage, tie
    share, chance range and signal."""
    metrics = json.loads((smoke_run / "results" / "metrics.json").read_text())
    table1 = pd.read_csv(smoke_run / "results" / "table1.csv")
    for row in table1.itertuples():
        key = f"{row.model}/{row.train}/{row.test}"
        assert ("auc_norm" in metrics["table1"].get(key, {})) == pd.notna(row.auc_norm)
        if pd.notna(row.auc_norm):
            assert 0 <= row.chance_auc_norm_low <= row.chance_auc_norm <= row.chance_auc_norm_high and row.coverage == 1.0
            assert row.signal in ("above chance", "NO SIGNAL: its interval reaches into the chance range") and 0 < row.tied <= 1
        else:
            assert row.note.startswith("no number")
    table5 = pd.read_csv(smoke_run / "results" / "table5.csv")
    measured = table5[table5["en_auc_norm"].notna()]
    assert measured["en_coverage"].between(0, 1).all() and measured["en_within_bundle"].between(0, 100).all()


def test_table3_hypothesis_only_robustness(smoke_run):
    table3 = pd.read_csv(smoke_run / "results" / "table3.csv")
    assert len(table3) == 9 and table3["auc_norm_paper"].tolist()[:4] == [51.0, 2.8, 1.1, 0.8]
    english = table3[table3["tested_on"] == "BoOQA EN (test)"]
    assert (english["auc_norm"].notna() | english["note"].str.contains("too few")).all()
    chinese = table3[table3["tested_on"] == "BoOQA ZH (test)"]
    assert chinese["note"].str.startswith("not run").all()
    masked = (smoke_run / "results" / "en" / "booqa_hyponly" / "train.tsv").read_text().splitlines()
    assert all(line.startswith("true\t\t\t") for line in masked[1:])


def test_table3_generality_reads_the_same_test_set_for_every_model(smoke_run):
    generality = pd.read_csv(smoke_run / "results" / "table3_generality.csv")
    assert generality["trained_on"].tolist() == ["BoOQA (dev)", "LevyHolt Full", "LevyHolt Directional", "LevyHolt Symmetric"]
    masked = pd.read_csv(smoke_run / "results" / "en" / "booqa_hyponly" / "test.tsv", sep="\t")
    table3 = pd.read_csv(smoke_run / "results" / "table3.csv")
    english_model = table3.loc[table3["tested_on"] == "BoOQA EN (test)", "model"].unique().tolist()
    assert (generality["entries"] == len(masked)).all() and generality["model"].unique().tolist() == english_model
    notes = generality["note"].astype("string").fillna("")
    measured = generality[notes == ""]
    assert len(measured) + notes.str.contains("too few").sum() == 4 and not measured.empty
    # depths belong to the test set, not to a model: one value per column
    for column in ("entries_with_depth", "depth_positives", "depth_negatives"):
        assert measured[column].nunique() <= 1
    assert (measured["depth_pairs"] <= measured["pairs"]).all()
    for column in ("negative_deeper", "positive_above", "shallower_above", "positive_above_if_depth_only"):
        assert measured[column].dropna().between(0, 100).all()


def test_figure3_is_drawn(smoke_run):
    assert (smoke_run / "results" / "figure3.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "BoOQA EN test" in (smoke_run / "results" / "figure3.svg").read_text()


def test_chinese_sns_path_with_a_tiny_chinese_model(smoke_run, tmp_path):
    """Paper scale's Chinese S&S rows, offline: a tiny random model with a Chinese tokenizer, fine-tuned on a synthetic
    Chinese LevyHolt with the authors' Chinese prompts, then scoring Chinese BoOQA."""
    import yaml

    from conftest import copy_run, write_chinese_levyholt

    work = copy_run(smoke_run, tmp_path / "repo")
    source = write_chinese_levyholt(tmp_path / "levyholt-zh")
    overlay = work / "chinese.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "models": {"tinyzh": {"tiny": {"architecture": "bert", "hidden_size": 32, "layers": 1, "heads": 2, "language": "zh"}}},
                "training": {"language_models_zh": ["tinyzh"]},
                "resources": {"levyholt_zh": str(source)},
            }
        ),
        encoding="utf-8",
    )
    targets = ["results/models/tinyzh/sns/zh_full/best", "results/booqa_scores/zh/dev/sns_full.parquet"]
    run_snakemake(work, *targets, "--cores", "2", "--configfile", "config/smoke.yaml", str(overlay))
    training = json.loads((work / "results/models/tinyzh/sns/zh_full/best/training.json").read_text())
    assert training["settings"]["lang"] == "zh"
    tokenizer = AutoTokenizer.from_pretrained(work / "resources/models/tinyzh")
    assert "[UNK]" not in tokenizer.tokenize("阿里巴巴收购网易，这也就是说，阿里巴巴拥有网易。")
    dev = pd.read_parquet(work / "results/zh/booqa/dev.parquet")
    scores = pd.read_parquet(work / "results/booqa_scores/zh/dev/sns_full.parquet")
    assert list(scores["entry"]) == list(dev["id"]) and scores["score"].between(0, 1).all()


def authors_auc_norm(scores, labels) -> float | None:
    """AUCnorm as the paper defines it and the authors' code computes it, written here from that definition alone
    (../shared/reference, "AUC / AUCnorm exactly"): the precision-recall curve has one point per distinct score (the
    counts at the last entry of each tie), stops at the first point of full recall and starts at (recall 0, precision 1);
    AUCnorm is the trapezoid area of max(precision - xi, 0) over recall, divided by 1 - xi, xi the positive rate. None
    where the scores cannot rank (every score equal)."""
    import numpy as np

    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    if len(set(scores)) < 2 or labels.sum() in (0, len(labels)):
        return None
    order = np.argsort(-scores, kind="stable")
    ranked, truth = scores[order], labels[order]
    last_of_tie = np.r_[np.nonzero(ranked[1:] != ranked[:-1])[0], len(ranked) - 1]
    tp = np.cumsum(truth)[last_of_tie]
    fp = (np.arange(1, len(truth) + 1) - np.cumsum(truth))[last_of_tie]
    precision, recall = tp / (tp + fp), tp / truth.sum()
    full = int(np.argmax(recall >= 1.0))
    precision, recall = np.r_[1.0, precision[: full + 1]], np.r_[0.0, recall[: full + 1]]
    xi = truth.mean()
    heights = np.maximum(precision - xi, 0.0)
    return float(np.sum((recall[1:] - recall[:-1]) * (heights[1:] + heights[:-1]) / 2) / (1 - xi))


def tie_aware_expectation(scores, labels, *, orders: int = 200, seed: int = 1) -> tuple[float, float]:
    """The tie-aware AUCnorm as its definition says, estimated here without the package's formula: the mean of
    ``authors_auc_norm`` over random orders of the tied entries (each order a ranking without ties), with its standard
    error; exact (error 0) where no score ties."""
    import numpy as np

    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels, dtype=int)
    if len(set(scores)) == len(scores):
        return authors_auc_norm(scores, labels), 0.0
    rng = np.random.default_rng(seed)
    values = [authors_auc_norm(np.lexsort((rng.random(len(scores)), scores)).argsort().astype(float), labels) for _ in range(orders)]
    return float(np.mean(values)), float(np.std(values) / np.sqrt(orders))


def tsv_labels(run: Path, test_file: str):
    """The labels of a test TSV (LevyHolt, Table 3's hypothesis-only test), by row (the score files' ``entry``), read from the file itself."""
    return pd.read_csv(run / test_file, sep="\t", quoting=3, dtype=str)["label"].astype(int).to_numpy()


def booqa_labels(run: Path, lang: str, split: str) -> dict:
    """The labels of a BoOQA split, by entry id, read from the split file itself."""
    split_file = pd.read_parquet(run / f"results/{lang}/booqa/{split}.parquet", columns=["id", "label"])
    return dict(zip(split_file["id"], split_file["label"].astype(int)))


def check_row(name: str, row: dict, columns: tuple[str, str], frame: pd.DataFrame | None, labels) -> int:
    """One row's AUCnorm and tie-aware AUCnorm cells (``columns``) against the independent computation on its scores
    (``frame``, None where the score file does not exist), each entry labelled from the test set's own file
    (``labels``: by row number, or by BoOQA id); 1 when checked. A row with a number and no scores, or scores whose
    labels differ from the test set's, fails."""
    import numpy as np

    authors_cell, tie_cell = (row.get(c) for c in columns)
    has_number = any(c == c and c != "" for c in (authors_cell, tie_cell))
    if frame is None:
        assert not has_number, f"{name}: a number and no score file to check it against"
        return 0
    truth = np.array([labels[e] for e in frame["entry"]], dtype=int)
    assert (truth == frame["label"].to_numpy().astype(int)).all(), f"{name}: the score file's labels are not the test set's"
    expected = authors_auc_norm(frame["score"], truth)
    if expected is None:
        assert not has_number, f"{name}: a number ({authors_cell}) from scores that cannot rank"
        return 0
    assert abs(float(authors_cell) - 100 * expected) <= 0.05 + 1e-9, f"{name}: {authors_cell} against {100 * expected:.2f}"
    tie, error = tie_aware_expectation(frame["score"], truth)
    assert abs(float(tie_cell) - 100 * tie) <= 0.05 + 400 * error + 1e-9, (
        f"{name}: tie-aware {tie_cell} against {100 * tie:.2f} (+- {100 * error:.2f})"
    )
    return 1


def recompute_every_cell(run: Path) -> dict[str, int]:
    """Every AUCnorm and tie-aware AUCnorm cell of Tables 1, 2, 3, 5, 6, 15, 16 and the LLM table recomputed from the
    score files behind it and the labels of the test sets' own files; the checked rows per table. Fails on a row with
    a number it cannot check."""
    from directional_inference.evaluation.methods import TABLE3_NAMES
    from directional_inference.layout import booqa_scores
    from directional_inference.levyholt.experiments import levyholt_score_path

    checked: dict[str, int] = {}

    def scores(path) -> pd.DataFrame | None:
        return pd.read_parquet(run / path) if (run / path).is_file() else None

    def tsv(test):  # the test file a LevyHolt score file's entries are the rows of
        return tsv_labels(run, f"results/levyholt/{test}/test.tsv")

    for name in ("table1", "table6"):
        for r in pd.read_csv(run / f"results/{name}.csv").to_dict("records"):
            checked[name] = checked.get(name, 0) + check_row(
                f"{name} {r['train']} -> {r['test']}",
                r,
                ("auc_norm", "auc_norm_tie_aware"),
                scores(levyholt_score_path(r["model"], "sns", r["train"], r["test"])),
                tsv(r["test"]),
            )
    for r in pd.read_csv(run / "results/table2.csv").to_dict("records"):
        for variant, prefix in (("sns", "sns_"), ("sns_sym", "sym_sns_")):
            checked["table2"] = checked.get("table2", 0) + check_row(
                f"table2 {variant} {r['subset']}",
                r,
                (f"{prefix}auc_norm", f"{prefix}auc_norm_tie_aware"),
                scores(levyholt_score_path(r["model"], variant, r["subset"], r["subset"])),
                tsv(r["subset"]),
            )
    for name, split in (("table5", "test"), ("table15", "dev"), ("table16", "test")):
        for r in pd.read_csv(run / f"results/{name}.csv").to_dict("records"):
            for lang in ("en", "zh"):
                checked[name] = checked.get(name, 0) + check_row(
                    f"{name} {r['method']} {lang}",
                    r,
                    (f"{lang}_auc_norm", f"{lang}_auc_norm_tie_aware"),
                    scores(booqa_scores(lang, split, r["method"])),
                    booqa_labels(run, lang, split) if (run / f"results/{lang}/booqa").is_dir() else {},
                )
    keys = {label: key for key, label in TABLE3_NAMES.items()}
    for r in pd.read_csv(run / "results/table3.csv").to_dict("records"):
        lang = r["tested_on"].split()[1].lower() if r["tested_on"].startswith("BoOQA ") else None
        frame = scores(f"results/robustness/{lang}/scores/{r['model']}/{keys.get(r['trained_on'])}.parquet") if lang else None
        checked["table3"] = checked.get("table3", 0) + check_row(
            f"table3 {r['trained_on']} on {r['tested_on']}",
            r,
            ("auc_norm", "auc_norm_tie_aware"),
            frame,
            tsv_labels(run, f"results/{lang}/booqa_hyponly/test.tsv") if frame is not None else {},
        )
    from directional_inference.tables.llm import RUN_TEST_SETS, TEST_SETS, WHOLE_TEST_SETS

    # each test set's scores file and the test file its entries are the rows of (whole/<subset>, or this run's <subset>)
    files = {
        label: (key, f"whole/{key.removesuffix('_whole')}" if key.endswith("_whole") else key.removesuffix("_run"))
        for key, label in (TEST_SETS | WHOLE_TEST_SETS | RUN_TEST_SETS).items()
    }
    for r in pd.read_csv(run / "results/table_llm.csv").to_dict("records"):
        name = f"table_llm {r['model']} / {r['setting']} on {r['test']}"
        if r["source"] == "this workflow":  # an S&S row ("S&S trained on Full (<lm>)"): its model's scores of this run's Directional test
            subset, lm = re.fullmatch(r"S&S trained on (Directional|Full) \((\S+)\)", r["model"]).groups()
            frame, labels = scores(levyholt_score_path(lm, "sns", subset.lower(), "directional")), tsv("directional")
        else:
            score_name, test = files[r["test"]]
            joined = pd.read_parquet(run / f"results/llm/scores/{score_name}.parquet")
            frame, labels = joined[(joined["model"] == r["model"]) & (joined["setting"] == r["setting"])], tsv(test)
        checked["table_llm"] = checked.get("table_llm", 0) + check_row(name, r, ("auc_norm", "auc_norm_tie_aware"), frame, labels)
    return checked


def test_every_tables_aucnorm_is_recomputed_from_its_score_files_by_an_independent_implementation(smoke_run):
    """Tables 1, 2, 3, 5, 6, 15, 16 and the LLM table: every AUCnorm and tie-aware AUCnorm cell equals the value
    computed here from the score file behind it, each entry labelled from its test set's own file (a LevyHolt test TSV,
    a BoOQA split, the hypothesis-only test file of Table 3), the tie-aware one as the mean over random orders of the
    ties (or is empty where those scores cannot rank); a row with a number and nothing to check it against fails."""
    checked = recompute_every_cell(smoke_run)
    assert all(checked.get(name, 0) >= 1 for name in ("table1", "table2", "table3", "table5", "table6", "table15", "table16", "table_llm")), checked
    assert sum(checked.values()) >= 60, checked


def test_the_readmes_own_encoder_example_puts_the_second_encoder_in_every_table_that_compares_models(smoke_run, tmp_path):
    """The README's "A language model for S&S", at smoke scale: a second encoder under `models` and in
    training.language_models, its one list (training.booqa_language_models keeps its default, all).
    Tables 1 and 2 gain its rows; Figure 3 its S&S Full curve; Table 5 its four S&S rows on
    English BoOQA, scored on the entries of the first model's rows, with the Chinese cells saying why they are empty;
    Tables 15 and 16 the same rows on dev and test; Table 3 and its generality table the rows of its own
    hypothesis-only models; the LLM table its S&S rows on this run's Directional test. Each from its own score files,
    differing from the first model's; every other row of each table is what it was, and every number is recomputed.
    With the mesh (training.every_setting_for_every_model), the second model is trained on every setting of the first,
    for Table 6 and Figures 1 and 2: a dry run plans exactly those trials and tables (running them took a minute of CI;
    the tables' code is the one that gives Tables 1 and 2 the second model's rows here)."""
    import yaml

    from conftest import SMOKE_THREADS, copy_run

    work = copy_run(smoke_run, tmp_path / "repo")
    overlay = work / "mine.yaml"
    mine = {
        "models": {"tiny2": {"tiny": {"architecture": "bert", "hidden_size": 48, "layers": 1, "heads": 2, "vocab_size": 2000}}},
        "training": {"language_models": ["tiny", "tiny2"]},
    }
    overlay.write_text(yaml.safe_dump(mine), encoding="utf-8")
    tables = ("table1", "table2", "table5", "table15", "table16", "table3", "table3_generality", "table_llm")
    targets = [f"results/{t}.csv" for t in tables] + ["results/figure3.png"]
    run_snakemake(work, *targets, "--cores", "2", "--configfile", "config/smoke.yaml", str(overlay), *SMOKE_THREADS)
    # the mesh, planned: the second model's trials on every setting of the first (those it lacks), Table 6, the figures
    mesh = work / "mesh.yaml"
    mesh.write_text(yaml.safe_dump(mine | {"training": mine["training"] | {"every_setting_for_every_model": True}}), encoding="utf-8")
    mesh_targets = ["results/table6.csv", "results/figure1.png", "results/figure2.png"]
    dry = run_snakemake(work, *mesh_targets, "-n", "--configfile", "config/smoke.yaml", str(mesh), *SMOKE_THREADS).stdout
    trials = re.findall(r"^(?:local)?rule train_sns_trial:\n(?:\s+.*\n)*?\s+wildcards: lm=(\w+), variant=(\w+), subset=(\w+)", dry, flags=re.M)
    assert trials and {lm for lm, _, _ in trials} == {"tiny2"}, dry[-3000:]
    planned = {(variant, subset) for _, variant, subset in trials}

    def settings(lm: str) -> set[tuple[str, ...]]:  # the (variant, subset) searches a model has
        return {tuple(p.parent.relative_to(work / "results/models" / lm).parts) for p in (work / "results/models" / lm).glob("*/*/selection.csv")}

    assert planned and planned | settings("tiny2") == settings("tiny") and not planned & settings("tiny2"), (planned, settings("tiny2"))
    assert {"make_levyholt_table", "plot_mesh_figure"} <= set(rules_run(dry)), dry[-3000:]
    # the LevyHolt tables: the second model's rows on the first's settings, from its own scores
    for name, setting in (("table1", ["train", "test"]), ("table2", ["subset"])):
        frame = pd.read_csv(work / f"results/{name}.csv")
        first, second = frame[frame["model"] == "tiny"].reset_index(drop=True), frame[frame["model"] == "tiny2"].reset_index(drop=True)
        assert set(frame["model"]) == {"tiny", "tiny2"} and len(second) >= 2, name
        assert second[setting].values.tolist() == first[setting].values.tolist(), name
        number = next(c for c in ("auc_norm", "sns_auc_norm") if c in frame)
        assert not second[number].equals(first[number]), f"{name}: the second model's {number} are the first's"
        if name != "table1":  # the first model's rows are what they were (Table 1's held below by the recomputation)
            pd.testing.assert_frame_equal(first, pd.read_csv(smoke_run / f"results/{name}.csv"), check_dtype=False)
    subsets = [p.name for p in sorted((work / "results/scores/levyholt/tiny2/sns").iterdir()) if (p / f"{p.name}.parquet").is_file()]
    assert len(subsets) >= 2, subsets  # the S&S models of Tables 1 and 2, each on its own test set
    for subset in subsets:
        first, second = (pd.read_parquet(work / f"results/scores/levyholt/{lm}/sns/{subset}/{subset}.parquet") for lm in ("tiny", "tiny2"))
        assert len(first) == len(second) and not first["score"].equals(second["score"]), subset
    curves = pd.read_csv(work / "results/booqa_pr_curves.csv")
    assert list(dict.fromkeys(curves["curve"])) == [
        *dict.fromkeys(pd.read_csv(smoke_run / "results/booqa_pr_curves.csv")["curve"]),
        "en:sns_full@tiny2",
    ]
    before, after = pd.read_csv(smoke_run / "results/table5.csv"), pd.read_csv(work / "results/table5.csv")
    further = ["sns_full@tiny2", "sym_sns_full@tiny2", "sns_symmetric@tiny2", "sns_directional@tiny2"]
    assert list(after["method"]) == [*before["method"][: len(before) - 2], *further, *before["method"][len(before) - 2 :]]
    pd.testing.assert_frame_equal(after[~after["method"].isin(further)].reset_index(drop=True), before)
    rows = after[after["method"].isin(further)].set_index("method")
    assert list(rows["label"]) == ["S&S Full, tiny2", "'S&S Full, tiny2", "S&S Symmetric, tiny2", "S&S Directional, tiny2"]
    assert (rows["model"] == "tiny2").all() and rows["training"].str.len().gt(0).all()
    assert rows["note"].str.contains("zh: not run .an S&S model of training.booqa_language_models", regex=True).all()
    assert rows["en_entries"].eq(before.set_index("method").loc["sns_full", "en_entries"]).all()
    first, second = (pd.read_parquet(work / f"results/booqa_scores/en/test/{m}.parquet") for m in ("sns_full", "sns_full@tiny2"))
    assert list(first["entry"]) == list(second["entry"]) and not first["score"].equals(second["score"])
    for name, mine in (("table15", further), ("table16", ["sns_full@tiny2"])):  # Table 16's only S&S row is S&S Full
        before, after = pd.read_csv(smoke_run / f"results/{name}.csv"), pd.read_csv(work / f"results/{name}.csv")
        assert set(after["method"]) - set(before["method"]) == set(mine), name
        pd.testing.assert_frame_equal(after[~after["method"].isin(mine)].reset_index(drop=True), before)
    for name in ("table3", "table3_generality"):  # the second model's rows: those of the first on English BoOQA
        before, after = pd.read_csv(smoke_run / f"results/{name}.csv"), pd.read_csv(work / f"results/{name}.csv")
        mine, english = after[after["model"] == "tiny2"], before[(before["model"] == "tiny") & (before["tested_on"] == "BoOQA EN (test)")]
        pd.testing.assert_frame_equal(after[after["model"] != "tiny2"].reset_index(drop=True), before)
        assert mine[["trained_on", "tested_on"]].values.tolist() == english[["trained_on", "tested_on"]].values.tolist() and len(mine) >= 4, name
    assert not pd.read_parquet(work / "results/robustness/en/scores/tiny2/booqa.parquet")["score"].equals(
        pd.read_parquet(work / "results/robustness/en/scores/tiny/booqa.parquet")["score"]
    )
    before, after = pd.read_csv(smoke_run / "results/table_llm.csv"), pd.read_csv(work / "results/table_llm.csv")
    mine = after[after["model"].str.endswith("(tiny2)")]
    assert list(mine["model"]) == ["S&S trained on Directional (tiny2)", "S&S trained on Full (tiny2)"]
    assert (mine["test"] == "Directional test of this run").all()
    pd.testing.assert_frame_equal(after[~after["model"].str.endswith("(tiny2)")].reset_index(drop=True), before)
    checked = recompute_every_cell(work)
    assert checked["table_llm"] == recompute_every_cell(smoke_run)["table_llm"] + sum(mine["auc_norm"].notna())


def test_a_graph_and_scores_made_elsewhere_get_rows_in_table5_and_on_every_levyholt_test_they_cover(smoke_run, tmp_path):
    """graphs.from_files at smoke scale: a graph in Hosseini's format (a file per type pair, CCG nodes), with an edge
    from every aligned evidence predicate of each English test entry to the entry's own predicate, of a weight known
    here. Each entry then scores at least the best weight of its evidence's edges (the graph lookup is a max over the
    evidence), an entry without evidence 0. evaluation.booqa_predictions in the same run: a file that ranks every
    positive above every negative (dev entries beside them), so its AUCnorm is 100 by the definition (precision 1 at
    every recall) and every bundle is ranked right. Table 5 gains both rows, and its other rows stay what they were.

    llm.predictions in the same run: a file covering the whole LevyHolt test and this run's SherLIiC test (its
    sentences, ``sentence,,``), each pair scored with its label (the first line of a LevyHolt pair the file gives
    twice). It gets a row on every test set it covers: 100 by the definition
    wherever a test set's label is the entailment label (Directional whole and this run's, Full, Symmetric, SherLIiC, and the
    sub-group sets of an entailed against an unentailed sub-group); no number where both sub-groups are entailed alike
    (every score equal); the whole Full test, where three pairs carry both labels, as the independent recomputation
    says."""

    import yaml

    from conftest import copy_run

    work = copy_run(smoke_run, tmp_path / "repo")
    entries = pd.read_parquet(work / "results/en/booqa/test.parquet").set_index("id")
    evidence = pd.read_parquet(work / "results/en/evidence/test.parquet")
    plain = re.compile(r"^[a-z]+( [a-z]+)*$")

    def node(pred, a, b):
        words = pred.split()
        return f"({words[0]}.1,{'.'.join(words)}.2)#{a}#{b}"

    def weight(premise, hypothesis):  # any fixed function of the edge
        return round(0.05 + 0.9 * ((7 * len(premise) + 13 * len(hypothesis)) % 17) / 16, 4)

    edges, expected = {}, {}
    for row in evidence[evidence["aligned"]].itertuples():
        entry = entries.loc[row.entry]
        if not (plain.match(row.pred) and plain.match(entry["pred"])):
            continue
        a, b = entry["subj_type"], entry["obj_type"]
        a, b = (f"{a}_1", f"{b}_2") if a == b else (a, b)
        edges.setdefault((a, b), {}).setdefault(node(row.pred, a, b), {})[node(entry["pred"], a, b)] = weight(row.pred, entry["pred"])
        expected[row.entry] = max(expected.get(row.entry, 0.0), weight(row.pred, entry["pred"]))
    assert len(expected) >= 5
    graph = tmp_path / "graph"
    graph.mkdir()
    for (a, b), premises in edges.items():
        lines = [f"types: {a}#{b}, num preds: {len(premises)}"]
        for premise, hypotheses in premises.items():
            lines += [
                f"predicate: {premise}",
                f"num neighbors: {len(hypotheses)}",
                "",
                "BInc sims",
                *(f"{h} {w:.4f}" for h, w in hypotheses.items()),
                "",
            ]
        (graph / f"{a}#{b}_sim.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    predictions = tmp_path / "mine.tsv"
    dev = pd.read_parquet(work / "results/en/booqa/dev.parquet")
    ranked = pd.concat([dev, entries.reset_index()]).sample(frac=1.0, random_state=3)  # any row order
    predictions.write_text("id\tscore\n" + "".join(f"{row.id}\t{int(row.label)}\n" for row in ranked.itertuples()), encoding="utf-8")
    levyholt = tmp_path / "levyholt.tsv"  # a LevyHolt _s line is hypothesis, premise, label
    lines = [line.split("\t") for line in (work / "resources/levyholt/LevyHoltDS/test/test_s.txt").read_text(encoding="utf-8").splitlines()]
    first = {(premise, hypothesis): label for hypothesis, premise, label in reversed(lines)}
    sherliic = pd.read_csv(work / "results/levyholt/sherliic/test.tsv", sep="\t", keep_default_na=False)  # SherLIiC's S&S split: sentences
    levyholt.write_text(
        "premise\thypothesis\tscore\n"
        + "".join(f"{p}\t{h}\t{int(label == 'True')}\n" for (p, h), label in first.items())
        + "".join(f"{row.prem_subj},,\t{row.hyp_subj},,\t{row.label}\n" for row in sherliic.itertuples()),
        encoding="utf-8",
    )
    overlay = work / "graph.yaml"
    overlay.write_text(
        yaml.safe_dump(
            {
                "graphs": {"from_files": {"mine": {"directory": str(graph)}}},
                "evaluation": {"booqa_predictions": {"theirs": {"file": str(predictions)}}},
                "llm": {"predictions": [{"file": str(levyholt), "model": "oracle", "setting": "labels"}]},
            }
        ),
        encoding="utf-8",
    )
    run_snakemake(work, "results/table5.csv", "results/table_llm.csv", "--cores", "2", "--configfile", "config/smoke.yaml", str(overlay))
    llm = pd.read_csv(work / "results/table_llm.csv")
    oracle = llm[llm["model"] == "oracle"].set_index("test")
    perfect = [
        "Directional test, whole",
        "Directional test of this run",
        "Full test of this run",
        "Symmetric test of this run",
        "Para-DirFalse test of this run",
        "DirTrue-Unrel test of this run",
        "SherLIiC test of this run",
    ]
    alike = ["Para-DirTrue test of this run", "DirFalse-Unrel test of this run"]
    assert sorted(oracle.index) == sorted([*perfect, *alike, "Full test, whole"])
    assert (oracle["entries"] == oracle["test_entries"]).all()
    assert (oracle.loc[perfect, "auc_norm"] == 100.0).all() and (oracle.loc[perfect, "auc_norm_tie_aware"] == 100.0).all()
    assert oracle.loc[alike, "auc_norm"].isna().all() and oracle.loc[alike, "note"].str.contains("the same score").all()
    assert oracle.loc["Full test, whole", "entries"] == len(lines) and 99.0 < oracle.loc["Full test, whole", "auc_norm"] < 100.0
    assert recompute_every_cell(work)["table_llm"] == recompute_every_cell(smoke_run)["table_llm"] + len(oracle) - len(alike)
    pd.testing.assert_frame_equal(llm[llm["model"] != "oracle"].reset_index(drop=True), pd.read_csv(smoke_run / "results/table_llm.csv"))
    scores = pd.read_parquet(work / "results/booqa_scores/en/test/graph_files@mine.parquet").set_index("entry")
    assert list(scores.index) == list(entries.index)
    for entry, best in expected.items():
        assert scores.loc[entry, "score"] >= best - 1e-9, entry
    without = set(entries.index) - set(evidence["entry"])
    assert all(scores.loc[entry, "score"] == 0 for entry in without)
    before, after = pd.read_csv(smoke_run / "results/table5.csv"), pd.read_csv(work / "results/table5.csv")
    row = after[after["method"] == "graph_files@mine"].iloc[0]
    assert row["label"] == "EG mine (from files, graphs.from_files)" and row["model"] == "graph files"
    assert "zh: not run (a graph of en predicates (graphs.from_files))" in row["note"]
    assert row["en_entries"] == len(entries) or "too few entries" in row["note"]
    theirs = after[after["method"] == "scores@theirs"].iloc[0]
    assert theirs["label"] == "theirs (scores from a file, evaluation.booqa_predictions)" and theirs["model"] == "score file"
    assert (theirs["en_entries"], theirs["en_auc_norm"], theirs["en_auc_norm_tie_aware"], theirs["en_within_bundle"]) == (
        len(entries),
        100.0,
        100.0,
        100.0,
    )
    assert theirs["en_signal"] == "above chance" and "zh: not run (scores of en BoOQA entries" in theirs["note"]
    pd.testing.assert_frame_equal(after[~after["method"].isin(["graph_files@mine", "scores@theirs"])].reset_index(drop=True), before)


def test_the_llm_table_scores_released_predictions_as_the_files_say_and_runs_an_llm(smoke_run):
    """Every released test file of McKenna, Li et al. 2023 gets, on the whole Directional test, the AUCnorm computed
    independently from the file itself; the tiny LLM run here has a row per prompt; on this run's test every row scores
    the S&S rows' entries."""
    from sklearn.metrics import precision_recall_curve

    from directional_inference.levyholt.entries import read_subset_tsv
    from directional_inference.llm.released import describe

    table = pd.read_csv(smoke_run / "results" / "table_llm.csv")
    whole, run = table[table["test"] == "Directional test, whole"], table[table["test"] == "Directional test of this run"]
    released = smoke_run / "resources" / "llm-nli-analysis" / "results" / "levyholt_results"
    ordered = [
        line.split("\t")[2] == "True"
        for line in (smoke_run / "resources" / "llm-nli-analysis" / "levyholt_files" / "dir_files" / "with_original" / "test_ordered.txt")
        .read_text()
        .splitlines()
    ]
    files = sorted(released.glob("*/*_test_*.json"))
    assert len(files) == 23
    for path in files:
        model, _, setting = describe(path.name)
        if path.parent.name == "gpt_results":
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            scores, labels = [r["preds"][0] for r in rows], [r["gold"] for r in rows]
        else:
            data = json.loads(path.read_text())
            scores, labels = (data["scores"] if isinstance(data, dict) else data)[0], ordered
        precision, recall, _ = precision_recall_curve(labels, scores)
        rate = sum(labels) / len(labels)
        lifted = [max(p - rate, 0.0) for p in precision]
        expected = sum((recall[i] - recall[i + 1]) * (lifted[i] + lifted[i + 1]) / 2 for i in range(len(recall) - 1)) / (1 - rate)
        [row] = whole[(whole["model"] == model) & (whole["setting"] == setting)].itertuples()
        assert row.entries == len(scores) and row.unmatched_rows == 0
        assert row.auc_norm == pytest.approx(100 * expected, abs=0.051), path.name
    gpt4 = whole[(whole["model"] == "gpt-4-0314") & (whole["setting"] == "original, zero-shot")].iloc[0]
    assert gpt4["tied"] > 0.5 and gpt4["auc_norm_tie_aware"] < gpt4["auc_norm"]  # 0/1 scores: the reference credits its ties
    ours = table[table["source"].str.startswith("this workflow (a tiny")]
    assert sorted(ours["setting"].unique()) == ["original, few-shot", "original, zero-shot"] and len(ours) == 8  # 2 prompts x 4 test sets
    for test, subset in (("Full test of this run", "full"), ("SherLIiC test of this run", "sherliic")):  # smoke's llm.test_sets
        rows = ours[ours["test"] == test]
        entries = len(read_subset_tsv(smoke_run / "results" / "levyholt" / subset / "test.tsv"))
        assert len(rows) == 2 and (rows["entries"] == entries).all() and (rows["test_entries"] == entries).all(), rows
        assert (rows["unmatched_rows"] == 0).all()
    sns = run[run["model"].str.startswith("S&S")]
    short = run[run["entries"] != sns["entries"].iloc[0]]
    assert len(sns) == 2 and set(zip(short["model"], short["setting"])) <= {
        ("text-davinci-003", "lowfreq, hypothesis-only, few-shot")
    }  # 1,399 rows upstream
    assert (smoke_run / "results" / "figure_llm.png").stat().st_size > 10_000
