"""Entailment-graph local scores on a hand-computed example, and the readers of Hosseini's graph files."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from directional_inference.graphs import build_graphs, gather_graph_parts, read_graph_file
from directional_inference.graphs.features import deal_type_pairs


def _relations(counts: dict[tuple[str, str, str], int]) -> pd.DataFrame:
    rows = []
    for (pred, subj, obj), n in counts.items():
        rows += [{"window": "w", "subj": subj, "pred": pred, "obj": obj, "subj_type": "person", "obj_type": "location"}] * n
    return pd.DataFrame(rows)


EXAMPLE = {("visit", "a", "x"): 2, ("visit", "b", "y"): 1, ("go to", "a", "x"): 2, ("go to", "c", "z"): 1, ("live in", "b", "y"): 3}


def test_scores_by_hand(engine):
    # N = 9; column sums ax 4, by 4, cz 1; PMI(visit, ax) = PMI(go to, ax) = ln 1.5, PMI(go to, cz) = ln 3,
    # PMI(live in, by) = ln 2.25, PMI(visit, by) < 0. S(visit) = ln 1.5, S(go to) = ln 1.5 + ln 3.
    graph = build_graphs(engine, _relations(EXAMPLE), min_arg_pairs=1, min_predicates=1).set_index(["premise", "hypothesis"])
    lin = 2 * math.log(1.5) / (2 * math.log(1.5) + math.log(3))
    forward, backward = graph.loc[("visit", "go to")], graph.loc[("go to", "visit")]
    assert forward["cosine"] == pytest.approx(4 / 5) and backward["cosine"] == pytest.approx(4 / 5)
    assert forward["weeds"] == pytest.approx(2 / 3)
    assert forward["lin"] == pytest.approx(lin) and backward["lin"] == pytest.approx(lin)
    assert forward["binc"] == pytest.approx(math.sqrt(lin * 1.0))
    assert backward["binc"] == pytest.approx(math.sqrt(lin * math.log(1.5) / (math.log(1.5) + math.log(3))))
    assert forward["binc"] > backward["binc"]  # BInc is directional
    unrelated = graph.loc[("visit", "live in")]  # shared (b, y) carries no positive PMI for visit
    assert unrelated["cosine"] == pytest.approx(3 / (math.sqrt(5) * 3)) and unrelated["binc"] == 0 and unrelated["lin"] == 0
    assert ("go to", "live in") not in graph.index  # no shared argument pair, no edge


def test_cutoffs_drop_rare_predicates_and_pairs(engine):
    graph = build_graphs(engine, _relations(EXAMPLE), min_arg_pairs=2, min_predicates=1)
    assert set(graph["premise"]) == {"visit", "go to"}  # live in has one argument pair
    # one pass of each cut-off: live in goes (one pair), then pairs seen with one predicate go; (a, x) remains
    both = build_graphs(engine, _relations(EXAMPLE), min_arg_pairs=2, min_predicates=2)
    assert sorted(zip(both["premise"], both["hypothesis"])) == [("go to", "visit"), ("visit", "go to")]
    assert (both["cosine"] == 1.0).all()


def _typed_relations() -> pd.DataFrame:
    """Relations of three type pairs over two windows, with shared argument pairs within each type pair."""
    rows = []
    for k in range(6):
        for pred in ("visit", "go to", "fly to"):
            rows.append({"window": f"w{k % 2}", "subj": f"p{k}", "pred": pred, "obj": f"l{k % 3}", "subj_type": "person", "obj_type": "location"})
        for pred in ("buy", "own"):
            rows.append(
                {"window": f"w{k % 2}", "subj": f"o{k}", "pred": pred, "obj": f"o{k + 1}", "subj_type": "organization", "obj_type": "organization"}
            )
        rows.append({"window": "w0", "subj": f"l{k % 3}", "pred": "host", "obj": f"p{k}", "subj_type": "location", "obj_type": "person"})
    return pd.DataFrame(rows)


def test_graph_jobs_and_blocks_change_no_edge(engine, tmp_path, monkeypatch):
    import directional_inference.graphs.local as local

    whole = build_graphs(engine, _typed_relations(), min_arg_pairs=1, min_predicates=1)
    assert {tuple(sorted(t)) for t in zip(whole["subj_type"], whole["obj_type"])} == {("location", "person"), ("organization", "organization")}
    assert ("host", "visit", True) in set(zip(whole["premise"], whole["hypothesis"], whole["reversed"]))  # l host p -> p visit l
    parts = [tmp_path / f"part-{k}.parquet" for k in range(3)]
    for k, path in enumerate(parts):
        build_graphs(engine, _typed_relations(), min_arg_pairs=1, min_predicates=1, part=k, parts=3, output=path)
    assert sorted(len(pd.read_parquet(path)) > 0 for path in parts) == [False, True, True]  # two type pairs, three jobs
    assert gather_graph_parts(parts, tmp_path / "graph.parquet") == len(whole)
    assert pd.read_parquet(tmp_path / "graph.parquet").equals(whole)
    monkeypatch.setattr(local, "BLOCK_WORK", 1)  # a block per predicate: the same sums in the same order
    assert build_graphs(engine, _typed_relations(), min_arg_pairs=1, min_predicates=1).equals(whole)
    # row groups of 3 edges, each of one type pair; gathered from one part they give the graph again
    monkeypatch.setattr(local, "ROW_GROUP_ROWS", 3)
    build_graphs(engine, _typed_relations(), min_arg_pairs=1, min_predicates=1, output=tmp_path / "small-groups.parquet")
    import pyarrow.parquet as pq

    small = pq.ParquetFile(tmp_path / "small-groups.parquet")
    pairs = [
        {tuple(sorted(t)) for t in zip(*small.read_row_group(g, columns=["subj_type", "obj_type"]).to_pydict().values())}
        for g in range(small.metadata.num_row_groups)
    ]
    assert all(len(p) == 1 for p in pairs) and small.metadata.num_row_groups > len(whole) // 3
    assert gather_graph_parts([tmp_path / "small-groups.parquet"], tmp_path / "again.parquet") == len(whole)
    assert pd.read_parquet(tmp_path / "again.parquet").equals(whole)


def test_held_out_windows_are_not_read(engine):
    relations = _typed_relations()
    without_w1 = build_graphs(engine, relations, min_arg_pairs=1, min_predicates=1, held_out_windows=["w1"])
    assert without_w1.equals(build_graphs(engine, relations[relations["window"] != "w1"], min_arg_pairs=1, min_predicates=1))
    assert not without_w1.equals(build_graphs(engine, relations, min_arg_pairs=1, min_predicates=1))  # w1's counts change the scores


def test_type_pairs_are_dealt_largest_first_to_the_least_loaded_job():
    sizes = pd.DataFrame({"type_a": ["a", "b", "c", "d"], "type_b": ["a", "b", "c", "d"], "rows": [10, 7, 5, 4]})
    # 10 -> job 0; 7 -> job 1; 5 -> job 1 (7 < 10); 4 -> job 0 (10 < 12)
    assert deal_type_pairs(sizes, 2) == {("a", "a"): 0, ("b", "b"): 1, ("c", "c"): 1, ("d", "d"): 0}


LOCAL = """types: person#location, num preds: 2
predicate: (visit.1,visit.2)#person#location
num neighbors: 2

cos sims
(arrive.1,arrive.in.2)#person#location 0.2380
(go.1,go.to.2)#person#location 0.1000

BInc sims
(go.1,go.to.2)#person#location 0.5000
(arrive.1,arrive.in.2)#person#location 0.1500

predicate: (go.1,go.to.2)#person#location
num neighbors: 1

cos sims
(visit.1,visit.2)#person#location 0.1000

BInc sims
(visit.1,visit.2)#person#location 0.0500
"""

GLOBAL = """person#location  type propagation num preds: 1
predicate: (visit.1,visit.2)#person#location
num max neighbors: 1

local sims
(go.1,go.to.2)#person#location 0.5
global sims
(go.1,go.to.2)#person#location 0.61
"""


def test_reads_local_and_global_graph_files(tmp_path):
    (tmp_path / "person#location_sim.txt").write_text(LOCAL)
    (tmp_path / "person#location_gsim.txt").write_text(GLOBAL)
    local = read_graph_file(tmp_path / "person#location_sim.txt")
    assert len(local) == 6 and set(local["types"]) == {"person#location"}
    binc = local[local["feature"] == "BInc sims"].set_index(["premise", "hypothesis"])["score"]
    assert binc[("(visit.1,visit.2)#person#location", "(go.1,go.to.2)#person#location")] == 0.5
    assert binc[("(go.1,go.to.2)#person#location", "(visit.1,visit.2)#person#location")] == 0.05
    glob = read_graph_file(tmp_path / "person#location_gsim.txt")
    assert list(glob["feature"]) == ["local sims", "global sims"] and list(glob["score"]) == [0.5, 0.61]
    assert set(glob["types"]) == {"person#location"}


def test_ccg_surfaces_take_the_workflows_predicate_form():
    from directional_inference.graphs import ccg_surface

    assert ccg_surface("(visit.1,visit.2)") == "visit"
    assert ccg_surface("(go.1,go.to.2)") == "go to"
    assert ccg_surface("(be.1,be.president.of.2)") == "be president of"
    assert ccg_surface("(NEG__go.1,NEG__go.to.2)") == "not go to"


SAME_TYPES = """types: person#person, num preds: 1
predicate: (beat.1,beat.2)#person_2#person_1
num neighbors: 1

BInc sims
(lose.1,lose.to.2)#person_1#person_2 0.7000
"""


def test_published_graph_files_become_a_scorable_graph(engine, tmp_path):
    from directional_inference.evaluation.scoring import graph_scores
    from directional_inference.graphs import graph_from_files

    (tmp_path / "person#location_sim.txt").write_text(LOCAL)
    (tmp_path / "person#person_sim.txt").write_text(SAME_TYPES)
    graph = graph_from_files(sorted(tmp_path.glob("*_sim.txt")), "BInc sims")
    rows = graph.set_index(["premise_surface", "hypothesis_surface"])
    assert rows.loc[("visit", "go to"), "binc"] == 0.5 and not rows.loc[("visit", "go to"), "reversed"]
    assert rows.loc[("beat", "lose to"), ["subj_type", "obj_type", "reversed"]].tolist() == ["person", "person", True]
    entries = pd.DataFrame(
        [
            {"id": "e", "subj": "john", "pred": "go to", "obj": "paris", "subj_type": "person", "obj_type": "location"},
            {"id": "f", "subj": "bob", "pred": "lose to", "obj": "ann", "subj_type": "person", "obj_type": "person"},
        ]
    )
    evidence = pd.DataFrame(
        [
            {"entry": "e", "pred": "visit", "subj": "john", "obj": "paris", "aligned": True, "sentence": ""},
            {"entry": "f", "pred": "beat", "subj": "ann", "obj": "bob", "aligned": False, "sentence": ""},
        ]
    )
    scores, _ = graph_scores(engine, entries, evidence, graph, "binc", fuzzy="same_type_pair")
    assert list(scores) == pytest.approx([0.5, 0.7])  # "ann beat bob" -> "bob lose to ann"
    assert list(graph_scores(engine, entries, evidence, graph, "binc", fuzzy="none")[0]) == [0.0, 0.0]  # CCG labels never match exactly


def test_a_graph_named_in_config_becomes_its_table_5_method_and_a_misnamed_section_is_refused(tmp_path):
    from directional_inference.errors import InputFormatError
    from directional_inference.evaluation.methods import BOOQA_TABLES, BooqaMethods, method_label, method_spec, table_methods
    from directional_inference.graphs import import_graph_files
    from directional_inference.workflow.config_checks import user_input_problems

    assert table_methods("table5", (), ["cnce"])[-1] == "graph_files@cnce" and table_methods("table16", (), ["cnce"]) == list(
        BOOQA_TABLES["table16"].methods
    )
    assert method_spec("graph_files@cnce") == ("graph", "binc") and method_label("graph_files@cnce").startswith("EG cnce")
    methods = BooqaMethods(["en"], [], ["rel"], ["en"], file_graphs={"cnce": "en"})
    assert "graph_files@cnce" in methods.runnable("en") and "graph_files@cnce" not in methods.runnable("zh")
    assert methods.why_not("graph_files@cnce", "zh") == "a graph of en predicates (graphs.from_files)"
    (tmp_path / "person#location_sim.txt").write_text(LOCAL)
    graph = import_graph_files([tmp_path / "person#location_sim.txt"], "BInc sims", tmp_path / "g.parquet")
    assert pd.read_parquet(tmp_path / "g.parquet").equals(graph) and len(graph) == 3  # the three BInc edges
    with pytest.raises(InputFormatError, match="field 'section': no edge in section 'BInc sim'; the files' sections: BInc sims, cos sims"):
        import_graph_files([tmp_path / "person#location_sim.txt"], "BInc sim", tmp_path / "h.parquet")
    assert not (tmp_path / "h.parquet").exists()
    (tmp_path / "empty").mkdir()
    config = {"graphs": {"from_files": {"ok": {"directory": str(tmp_path)}, "bad": {"directory": str(tmp_path / "empty")}}}}
    assert user_input_problems(config) == [
        f"config key graphs.from_files.bad.directory is '{tmp_path / 'empty'}', which holds no <types>_sim.txt or <types>_gsim.txt "
        "file: give the directory of the graph's files (one per type pair, as Hosseini et al. release them)"
    ]
