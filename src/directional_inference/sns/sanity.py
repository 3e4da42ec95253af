"""Cases any entailment model must get right, checked on every selected S&S model before its scores go into a table.

Three kinds, written for this workflow (not drawn from LevyHolt, so no model has seen them):

* ``identity``: the premise is the hypothesis ("X acquired Y" => "X acquired Y"): entailed;
* ``paraphrase``: the same relation in other words or the other voice ("X bought Y" => "X purchased Y"): entailed;
* ``non_entailment``: a relation that does not follow ("X visited Y" => "X was born in Y"): not entailed.

A model calls a pair entailed when its score s = max P(prompts) - max P(antiprompts) is above 0. A kind passes when
the share it gets right reaches its threshold (``THRESHOLDS``); a model that fails a kind is not a failed run, but
its log says so loudly and the tables carry the result beside its rows.
"""

from __future__ import annotations

import csv
import io
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..levyholt.entries import Entry

log = logging.getLogger(__name__)

KINDS = ("identity", "paraphrase", "non_entailment")
THRESHOLDS = {"identity": 0.8, "paraphrase": 0.6, "non_entailment": 0.6}
COLUMNS = ("kind", "premise", "hypothesis", "entailed", "score", "correct")

# (subject, predicate, object) propositions in LevyHolt's style; each is also an identity case
_PROPOSITIONS_EN = (
    ("Google", "acquired", "YouTube"),
    ("Obama", "visited", "Berlin"),
    ("Microsoft", "sued", "Motorola"),
    ("the company", "hired", "a new chief executive"),
    ("Shakespeare", "wrote", "Hamlet"),
    ("the army", "invaded", "Kuwait"),
    ("Mozart", "was born in", "Salzburg"),
    ("Apple", "is headquartered in", "Cupertino"),
    ("the bank", "raised", "interest rates"),
    ("Einstein", "developed", "the theory of relativity"),
    ("the police", "arrested", "the suspect"),
    ("Toyota", "recalled", "its cars"),
    ("the government", "approved", "the plan"),
    ("penicillin", "is used to treat", "infections"),
    ("the senator", "opposed", "the bill"),
    ("Brazil", "exports", "coffee"),
    ("the storm", "destroyed", "the bridge"),
    ("Lincoln", "was president of", "the United States"),
    ("the museum", "displays", "paintings"),
    ("the team", "won", "the championship"),
    ("the court", "rejected", "the appeal"),
    ("the drug", "causes", "headaches"),
    ("Amazon", "sells", "books"),
    ("the union", "called", "a strike"),
    ("the minister", "resigned from", "the cabinet"),
    ("the factory", "produces", "steel"),
    ("Nixon", "met", "Mao"),
    ("the parliament", "passed", "the law"),
    ("the virus", "infects", "cells"),
    ("the firm", "merged with", "its rival"),
)
_PARAPHRASES_EN = (
    (("Google", "bought", "YouTube"), ("Google", "purchased", "YouTube")),
    (("Google", "acquired", "YouTube"), ("YouTube", "was acquired by", "Google")),
    (("Shakespeare", "wrote", "Hamlet"), ("Hamlet", "was written by", "Shakespeare")),
    (("the police", "arrested", "the suspect"), ("the suspect", "was arrested by", "the police")),
    (("the army", "invaded", "Kuwait"), ("Kuwait", "was invaded by", "the army")),
    (("Mozart", "was born in", "Salzburg"), ("Salzburg", "is the birthplace of", "Mozart")),
    (("the company", "hired", "a new chief executive"), ("the company", "employed", "a new chief executive")),
    (("the government", "approved", "the plan"), ("the government", "endorsed", "the plan")),
    (("the minister", "resigned from", "the cabinet"), ("the minister", "quit", "the cabinet")),
    (("the storm", "destroyed", "the bridge"), ("the storm", "wrecked", "the bridge")),
    (("the drug", "causes", "headaches"), ("the drug", "leads to", "headaches")),
    (("the court", "rejected", "the appeal"), ("the court", "dismissed", "the appeal")),
    (("the team", "won", "the championship"), ("the championship", "was won by", "the team")),
    (("Apple", "is headquartered in", "Cupertino"), ("Apple", "is based in", "Cupertino")),
    (("the parliament", "passed", "the law"), ("the law", "was passed by", "the parliament")),
    (("penicillin", "is used to treat", "infections"), ("penicillin", "is used against", "infections")),
    (("the firm", "merged with", "its rival"), ("the firm", "combined with", "its rival")),
    (("Microsoft", "sued", "Motorola"), ("Microsoft", "filed a lawsuit against", "Motorola")),
    (("Nixon", "met", "Mao"), ("Nixon", "met with", "Mao")),
    (("the bank", "raised", "interest rates"), ("the bank", "increased", "interest rates")),
)
_NON_ENTAILMENTS_EN = (
    (("Obama", "visited", "Berlin"), ("Obama", "was born in", "Berlin")),
    (("the team", "played", "the final"), ("the team", "won", "the final")),
    (("Google", "considered buying", "YouTube"), ("Google", "owns", "YouTube")),
    (("the company", "hired", "a new chief executive"), ("the company", "fired", "a new chief executive")),
    (("Shakespeare", "read", "Hamlet"), ("Shakespeare", "wrote", "Hamlet")),
    (("the police", "questioned", "the suspect"), ("the police", "convicted", "the suspect")),
    (("the senator", "opposed", "the bill"), ("the senator", "sponsored", "the bill")),
    (("Brazil", "imports", "coffee"), ("Brazil", "exports", "coffee")),
    (("the storm", "approached", "the bridge"), ("the storm", "destroyed", "the bridge")),
    (("the court", "heard", "the appeal"), ("the court", "granted", "the appeal")),
    (("Toyota", "recalled", "its cars"), ("Toyota", "sold", "its factories")),
    (("the minister", "criticised", "the cabinet"), ("the minister", "resigned from", "the cabinet")),
    (("Mozart", "visited", "Salzburg"), ("Mozart", "died in", "Salzburg")),
    (("the union", "threatened", "a strike"), ("the union", "ended", "a strike")),
    (("the government", "debated", "the plan"), ("the government", "abandoned", "the plan")),
    (("Amazon", "sells", "books"), ("Amazon", "bans", "books")),
    (("the virus", "was found in", "bats"), ("the virus", "kills", "bats")),
    (("the museum", "displays", "paintings"), ("the museum", "destroyed", "paintings")),
    (("the bank", "discussed", "interest rates"), ("the bank", "cut", "interest rates")),
    (("Lincoln", "visited", "the United States"), ("Lincoln", "was president of", "the United States")),
)
_PROPOSITIONS_ZH = (
    ("中国", "支持", "和平进程"),
    ("国务院", "召开", "常务会议"),
    ("习近平", "会见", "普京"),
    ("政府", "批准", "计划"),
    ("警方", "逮捕", "嫌疑人"),
    ("公司", "收购", "竞争对手"),
    ("法院", "驳回", "上诉"),
    ("球队", "赢得", "冠军"),
    ("工厂", "生产", "钢铁"),
    ("代表团", "访问", "北京"),
)
_PARAPHRASES_ZH = (
    (("公司", "收购", "竞争对手"), ("公司", "买下", "竞争对手")),
    (("警方", "逮捕", "嫌疑人"), ("嫌疑人", "被逮捕", "")),
    (("政府", "批准", "计划"), ("政府", "同意", "计划")),
    (("代表团", "访问", "北京"), ("代表团", "到访", "北京")),
    (("球队", "赢得", "冠军"), ("球队", "获得", "冠军")),
)
_NON_ENTAILMENTS_ZH = (
    (("代表团", "访问", "北京"), ("代表团", "离开", "北京")),
    (("政府", "讨论", "计划"), ("政府", "放弃", "计划")),
    (("球队", "参加", "决赛"), ("球队", "赢得", "决赛")),
    (("警方", "调查", "嫌疑人"), ("警方", "释放", "嫌疑人")),
    (("公司", "考虑收购", "竞争对手"), ("公司", "拥有", "竞争对手")),
)


@dataclass(frozen=True)
class SanityCase:
    kind: str
    entry: Entry


def sanity_cases(lang: str = "en") -> list[SanityCase]:
    """Every case of a language, identity first, in a fixed order."""
    propositions, paraphrases, non_entailments = (
        (_PROPOSITIONS_ZH, _PARAPHRASES_ZH, _NON_ENTAILMENTS_ZH) if lang == "zh" else (_PROPOSITIONS_EN, _PARAPHRASES_EN, _NON_ENTAILMENTS_EN)
    )
    cases = [SanityCase("identity", Entry(p, p, True)) for p in propositions]
    cases += [SanityCase("paraphrase", Entry(p, h, True)) for p, h in paraphrases]
    cases += [SanityCase("non_entailment", Entry(p, h, False)) for p, h in non_entailments]
    return [SanityCase(c.kind, Entry(c.entry.premise, c.entry.hypothesis, c.entry.label, order=k)) for k, c in enumerate(cases)]


def judge(cases: Sequence[SanityCase], scores: Sequence[float]) -> list[list]:
    """One row per case (``COLUMNS``): a case is right when (score > 0) equals its label."""
    return [
        [
            case.kind,
            ",".join(case.entry.premise),
            ",".join(case.entry.hypothesis),
            int(case.entry.label),
            f"{score:.6f}",
            int((score > 0) == case.entry.label),
        ]
        for case, score in zip(cases, scores)
    ]


def summarise(rows: Sequence[Sequence]) -> dict:
    """Share right per kind, whether each reaches its threshold, and whether all do."""
    kinds = {}
    for kind in KINDS:
        right = [int(row[5]) for row in rows if row[0] == kind]
        share = sum(right) / len(right) if right else float("nan")
        kinds[kind] = {"cases": len(right), "share": share, "threshold": THRESHOLDS[kind], "passed": bool(right) and share >= THRESHOLDS[kind]}
    return {"kinds": kinds, "passed": all(k["passed"] for k in kinds.values())}


def describe(summary: dict) -> str:
    """One line: "identity 97% paraphrase 85% non_entailment 75%: passed" (or FAILED with the kinds below threshold)."""
    shares = " ".join(f"{kind} {100 * k['share']:.0f}%" for kind, k in summary["kinds"].items())
    failed = [kind for kind, k in summary["kinds"].items() if not k["passed"]]
    return f"{shares}: passed" if not failed else f"{shares}: FAILED ({', '.join(failed)} below threshold)"


def check_model(model_dir: str | os.PathLike, *, max_length: int, symmetric: bool, lang: str, precision: str) -> tuple[list[list], dict]:
    """Score every case with the model in ``model_dir``; (rows, summary), logged loudly when a kind fails."""
    from .model import PromptScorer

    cases = sanity_cases(lang)
    scorer = PromptScorer(model_dir, max_length=max_length, symmetric=symmetric, lang=lang, precision=precision)
    rows = judge(cases, scorer.scores([c.entry for c in cases], what="sanity cases"))
    summary = summarise(rows)
    if summary["passed"]:
        log.info("sanity cases of %s: %s", model_dir, describe(summary))
    else:
        log.warning("MODEL FAILS SANITY CASES: %s: %s; its table rows say so", model_dir, describe(summary))
    return rows, summary


def format_rows(rows: Sequence[Sequence]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows)
    return buffer.getvalue()


def read_summary(path: str | os.PathLike) -> dict:
    """The summary of a written sanity.csv."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        if tuple(header) != COLUMNS:
            from ..errors import InputFormatError

            raise InputFormatError(str(path), 1, None, f"expected header {','.join(COLUMNS)}")
        return summarise(list(reader))
