"""Chinese relations from Baidu's LAC (segmentation, part of speech and named entities, see ``chinese_text.py``) and a
head-final noun-phrase grammar.

Predicates are a verb (two when the first is modal or control, 要加强, or the second a complement, 研制出) with its
negation (不, 没有, 未 ... -> 不) and an optional post-verbal preposition (安置在), the aspect particle dropped;
arguments are whole noun phrases, head-final with their modifiers (中国 作为 世界第二大经济体), or the name of an
apposition (国家主席习近平 -> 习近平). Types come from LAC's entities (PER person, LOC location, ORG organization,
nw written_work, else thing). The grammar is described above ``chinese_relations``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


from ..chinese_text import chinese_sentences
from ..progress import ProgressLog
from .shards import Relation

TAGGED_ARTICLES = 32  # articles whose sentences are tagged at once (about 350 sentences: CRF batches of 64 in length order)


# --- Chinese -------------------------------------------------------------------------------------------
#
# A small head-final grammar over LAC's tags (see chinese_text.py), one clause pattern:
#
#   boundary SUBJECT (adverbial)* [negation] VERB [VERB] [了|着|过] [post-verbal preposition] OBJECT boundary
#
# A noun phrase is a run of nominal words ending in a head word (noun, name, place, nominal verb), with its
# modifiers (nouns, adjectives, ordinals, direction words: 世界第二大经济体), optionally joined by 的 to nominal
# modifiers (日本的立场) and coordinated by 、和与及 (one relation per conjunct). A leading quantity (143名) is not
# part of the phrase; a title before a person's name (国家主席习近平, 美国总统奥巴马) or after it (习近平总书记) is
# an apposition, so the argument is the name. The subject must start a clause (not the object of a preceding
# verb or preposition, not a modifier before 的, no pronoun or demonstrative); the object must end one (not the
# subject of an embedded clause: 支持缅甸实现和平 gives nothing, nor does a phrase cut before its head).

NE_TYPES = {"PER": "person", "LOC": "location", "ORG": "organization", "nw": "written_work"}
HEAD_TAGS = {"n", "nz", "nw", "PER", "LOC", "ORG", "s", "vn", "an"}
PHRASE_TAGS = HEAD_TAGS | {"a", "m", "q", "f"}  # words of a noun phrase before its head
NAME_TAGS = {"PER", "LOC", "ORG"}
TITLES = (  # a word ending in one of these is a title (国家主席, 副总理, 中央军委主席)
    "主席",
    "书记",
    "总理",
    "总统",
    "首相",
    "国王",
    "女王",
    "王储",
    "亲王",
    "委员长",
    "秘书长",
    "部长",
    "外长",
    "大使",
    "省长",
    "市长",
    "州长",
    "议长",
    "总督",
    "主任",
    "院长",
    "校长",
    "局长",
    "司令员",
    "政委",
    "司令",
    "领导人",
    "总裁",
    "董事长",
    "执行官",
    "教皇",
    "同志",
    "先生",
    "女士",
    "主教",
    "酋长",
    "埃米尔",
    "常委",
    "总干事",
    "元首",
)  # not 特使, 发言人, 夫人: 习近平总书记特使 is another person
SHARING_CONJUNCTIONS = {"并", "并且", "同时", "还", "又", "也"}
NON_PREDICATES = {"到", "至", "有关", "应予", "应予以"}  # 北京到通辽铁路, 定州至武汉段: from ... to; 有关部门: an adjective
NEGATIONS = {"不", "没", "没有", "未", "不再", "从未", "尚未", "并未", "并不", "绝不", "从不", "未能", "不能", "无法"}
ASPECT_PARTICLES = {"了", "着", "过"}
POSTVERBAL_PREPOSITIONS = {"于", "在", "到", "给", "向", "往", "自", "至", "为", "成"}
LOCATIVE_PREPOSITIONS = {"在", "于", "从", "自"}  # a place or time adjunct between subject and verb
CLAUSE_OPENERS = {"由于", "因为", "随着", "尽管", "虽然", "如果", "若", "因", "据悉"}
CONJUNCTIONS = {"和", "与", "及", "以及", "、", "或", "兼"}
CLAUSE_CONJUNCTIONS = {
    "但",
    "但是",
    "而",
    "而且",
    "并且",
    "因此",
    "所以",
    "因而",
    "如果",
    "虽然",
    "尽管",
    "即使",
    "只要",
    "不仅",
    "不但",
    "同时",
    "此外",
    "另外",
    "然而",
    "于是",
    "因为",
    "由于",
    "从而",
    "否则",
    "可是",
    "并",
}
FOLLOWING_PREPOSITIONS = {"对", "向", "为", "给", "到", "于", "从", "至", "自", "往"}  # after an object, in a clause with no verb or 的 after them
FOLLOWING_DIRECTIONS = {"后", "之后", "以后", "前", "之前", "时", "时候", "之际", "期间"}  # 收复阿勒颇后，(not 党的十八大以来)
CLOSING_PUNCTUATION = set("，。；！？：…）)」』”’!?;:,.")
CLAUSE_PUNCTUATION = set("，。；！？：!?;:,")  # before a subject (not 、 or a closing quote: the phrase would be cut)
SENTENCE_ADVERBS = {"同时", "此外", "另外", "随后", "而", "但", "则", "于是", "最终", "如今", "当时", "然而", "因此", "所以"}
ADVERBIAL_NOUNS = {  # nouns to LAC that act as adverbs: 全方位提升, 两国关系长期保持
    "全方位",
    "平行",
    "全面",
    "大力",
    "全力",
    "同步",
    "重点",
    "集中",
    "全程",
    "近日",
    "日前",
    "当天",
    "当日",
    "届时",
    "长期",
    "总体",
    "整体",
    "始终",
    "一直",
    "全力以赴",
    "双双",
    "首次",
    "率先",
    "高度",
    "高质量",
    "进一步",
    "大幅",
    "深入",
}
TIME_NOUNS = {"时", "时候", "之际", "期间", "以来", "之后", "以后", "之前", "以前", "前后"}  # 报告事项时 -> 事项 + 时
# V1 V2 is one predicate when V1 is a modal or control verb (要贯彻, 继续支持, 主持召开) or V2 a directional or
# resultative complement (订到, 研制出); otherwise V2 often starts a modifier of the object (启动退出程序).
CONTROL_VERBS = {
    "要",
    "能",
    "能够",
    "可以",
    "会",
    "应",
    "应该",
    "应当",
    "必须",
    "须",
    "需要",
    "愿",
    "愿意",
    "想",
    "继续",
    "开始",
    "决定",
    "主持",
    "坚持",
    "计划",
    "准备",
    "打算",
    "拒绝",
    "同意",
    "支持",
    "负责",
    "协助",
    "帮助",
    "争取",
    "着力",
    "致力",
    "努力",
    "加快",
    "加紧",
    "持续",
    "停止",
    "禁止",
    "允许",
    "尝试",
    "试图",
    "企图",
    "敢于",
    "善于",
    "乐于",
    "正式",
    "再次",
}
VERB_COMPLEMENTS = {
    "到",
    "出",
    "起",
    "上",
    "下",
    "来",
    "去",
    "进",
    "回",
    "过",
    "开",
    "成",
    "完",
    "好",
    "住",
    "走",
    "给",
    "入",
    "至",
    "往",
    "出来",
    "起来",
    "下来",
    "上来",
    "进来",
    "回来",
    "过来",
    "出去",
    "下去",
    "进去",
    "回去",
}
_QUOTES = {"“": "”", "《": "》", "「": "」", "『": "』", "‘": "’"}
_NAME_PUNCTUATION = {"-", "·", "•", "—", ".", "－"}
_NUMBER_START = tuple("万亿千百十")
_DAY_NUMBER = re.compile(r"^[0-9０-９一二三四五六七八九十]+[日号]$")
_HAS_WORD = re.compile(r"[\u4e00-\u9fffA-Za-z]")


@dataclass(frozen=True)
class _Phrase:
    end: int  # index after the phrase
    arguments: tuple[tuple[str, str], ...]  # (text, type), one per conjunct


def _is(tagged: Sequence[tuple[str, str]], k: int, tags: set[str], words: set[str] | None = None) -> bool:
    return 0 <= k < len(tagged) and tagged[k][1] in tags and (words is None or tagged[k][0] in words)


def merge_quoted(tagged: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Quoted or titled names (“博科圣地”, 《巴黎协定》) as one word without the marks: nw for titles, else the tag
    of the last word inside (a proper noun nz when that is not nominal)."""
    out, i = [], 0
    while i < len(tagged):
        word, tag = tagged[i]
        if word in TIME_NOUNS and tag in {"n", "f", "TIME"}:
            tag = "f"
        elif word in ADVERBIAL_NOUNS:
            tag = "d"
        elif tag == "f" and len(word) > 1 and word.endswith("部"):  # 北部, 东南部: the head of 塔里木盆地北部
            tag = "n"
        elif tag == "m" and _DAY_NUMBER.match(word):  # 回良玉2号抵达...: a date, not a quantity
            tag = "TIME"
        if word == "我" and i + 1 < len(tagged) and tagged[i + 1][0] in {"国", "军"}:  # 我国, 我军: nouns, not pronouns
            out.append((word + tagged[i + 1][0], "n"))
            i += 2
            continue
        close = _QUOTES.get(word)
        if close is not None:
            j = next((j for j in range(i + 1, min(i + 10, len(tagged))) if tagged[j][0] == close), None)
            if j is not None and j > i + 1 and all(t != "w" or w in _NAME_PUNCTUATION for w, t in tagged[i + 1 : j]):
                inner = tagged[i + 1 : j]
                text = "".join(w for w, _ in inner)
                if word == "《":
                    out.append((text, "nw"))
                elif all(t in PHRASE_TAGS for _, t in inner) and inner[-1][1] in HEAD_TAGS:
                    out.append((text, inner[-1][1]))
                else:
                    out.append((text, "nz"))
                i = j + 1
                continue
        out.append((word, tag))
        i += 1
    return out


def _is_title(word: str) -> bool:
    return word.endswith(TITLES)


def _is_quantity(word: str, tag: str) -> bool:
    return tag == "q" or (tag == "m" and not word.startswith("第"))


def _core(tagged: Sequence[tuple[str, str]], i: int) -> tuple[int, int] | None:
    """(start, end) of the noun phrase core starting at ``i``: a leading quantity skipped, then nominal words up
    to the last head word of the run; None if there is no head."""
    start = i
    while i < len(tagged) and _is_quantity(*tagged[i]) and not _is(tagged, i + 1, {"LOC"}):  # keep 一个中国原则
        i += 1
    if i > start and i < len(tagged) and tagged[i][0].startswith(_NUMBER_START):
        return None  # 4 万人: the rest of a number
    j, last_head = i, None
    while j < len(tagged) and tagged[j][1] in PHRASE_TAGS and j - i < 10:
        if tagged[j][1] in HEAD_TAGS:
            last_head = j
        j += 1
    return None if last_head is None else (i, last_head + 1)


def _core_argument(words: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """(text, type) of a core: a name after titles or other nouns is the argument (美国总统奥巴马 -> 奥巴马; 阿勒颇 of
    叙利亚北部城市阿勒颇), so is a person's name before titles (习近平总书记 -> 习近平); else the whole core."""
    tags = [t for _, t in words]
    head = tags[-1]
    if head in NAME_TAGS:
        start = len(words) - 1
        allowed = {"PER"} if head == "PER" else {"LOC", "ORG"}
        while start > 0 and tags[start - 1] in allowed:
            start -= 1
        return "".join(w for w, _ in words[start:]), NE_TYPES[head]
    k = len(words)
    while k > 0 and _is_title(words[k - 1][0]):
        k -= 1
    if 0 < k < len(words) and tags[k - 1] == "PER":
        start = k - 1
        while start > 0 and tags[start - 1] == "PER":
            start -= 1
        return "".join(w for w, _ in words[start:k]), "person"
    return "".join(w for w, _ in words), NE_TYPES.get(head, "thing")


def _noun_phrase(tagged: Sequence[tuple[str, str]], i: int) -> _Phrase | None:
    """The noun phrase starting at ``i``: cores coordinated by 、和与及, optionally joined by 的 (at most twice).
    With 的 the whole phrase is one argument; otherwise one argument per conjunct (a list of titles ending in a
    name, 中共中央总书记、国家主席习近平, is one argument: the name)."""
    groups: list[list[tuple[int, int]]] = []
    k = i
    while True:
        conjuncts = []
        while True:
            core = _core(tagged, k)
            if core is None:
                break
            conjuncts.append(core)
            k = core[1]
            if _is(tagged, k, {"c", "w"}, CONJUNCTIONS) and _core(tagged, k + 1) is not None:
                k += 1
                continue
            break
        if not conjuncts:
            return None if not groups else _finish(tagged, groups, groups[-1][-1][1])
        groups.append(conjuncts)
        if len(groups) < 3 and _is(tagged, k, {"u"}, {"的"}) and _core(tagged, k + 1) is not None:
            k += 1
            continue
        return _finish(tagged, groups, k)


def _finish(tagged, groups, end) -> _Phrase | None:
    if len(groups) > 1:  # X的Y: one argument, the whole phrase; typed by its last head word
        start = groups[0][0][0]
        text = "".join(w for w, _ in tagged[start:end])
        return _Phrase(end, ((text, NE_TYPES.get(tagged[end - 1][1], "thing")),))
    conjuncts = [_core_argument(tagged[a:b]) for a, b in groups[0]]
    if len(conjuncts) == 1 or all(t in ("person", "location", "organization") for _, t in conjuncts):
        return _Phrase(end, tuple(conjuncts))  # names are split: 许昕、刘诗雯 -> 许昕; 刘诗雯
    if conjuncts[-1][1] == "person" and all(_is_title(tagged[b - 1][0]) for a, b in groups[0][:-1]):
        return _Phrase(end, conjuncts[-1:])  # 中共中央总书记、国家主席、中央军委主席习近平 -> 习近平
    # common nouns stay one phrase: 法律顾问、公司律师制度 share their head
    text = "".join(w for w, _ in tagged[groups[0][0][0] : end])
    return _Phrase(end, ((text, NE_TYPES.get(tagged[end - 1][1], "thing")),))


def _starts_clause(tagged: Sequence[tuple[str, str]], i: int) -> bool:
    """Whether a subject may start at ``i``: sentence start, punctuation, a conjunction, an adverb or a time,
    a clause-opening preposition (由于, 随着, ...); not after a verb, a preposition, 的 or a pronoun."""
    if i == 0:
        return True
    word, tag = tagged[i - 1]
    if tag == "w":
        return word in CLAUSE_PUNCTUATION
    if tag == "c":
        return word in CLAUSE_CONJUNCTIONS
    if tag == "p":
        return word in CLAUSE_OPENERS
    if tag == "TIME" or word in SENTENCE_ADVERBS:  # 今天，习近平... / 今天习近平...; not 对2023年工作提出
        return _starts_clause(tagged, i - 1)
    return False


def _skip_adverbials(tagged: Sequence[tuple[str, str]], k: int) -> tuple[int, bool]:
    """Index after the adverbials between subject and verb (adverbs, times, 在/于/从 + place or time + direction
    word), and whether one of them negates."""
    negated = False
    while k < len(tagged):
        word, tag = tagged[k]
        if tag in {"d", "ad", "vd", "TIME"} or (tag == "m" and word in {"首次", "再次", "一起", "一同", "共同"}):
            negated = negated or word in NEGATIONS
            k += 1
        elif tag == "p" and word in LOCATIVE_PREPOSITIONS:
            j = k + 1
            if _is(tagged, j, {"TIME"}):
                while _is(tagged, j, {"TIME"}):
                    j += 1
            else:  # a phrase with a name or place (在人民大会堂, 在青海格尔木机场), or closed by a direction word (在会上)
                phrase = _noun_phrase(tagged, j)
                if phrase is None or not (any(t in NAME_TAGS | {"s"} for _, t in tagged[j : phrase.end]) or _is(tagged, phrase.end, {"f"})):
                    return k, negated
                j = phrase.end
            while _is(tagged, j, {"f"}):
                j += 1
            k = j
        else:
            break
    return k, negated


def _verb_group(tagged: Sequence[tuple[str, str]], k: int, negated: bool) -> tuple[str, int] | None:
    """(predicate, index after it) of [没有] verb [verb] [了着过] [post-verbal preposition] at ``k``."""
    if _is(tagged, k, {"v"}, {"没有", "没", "未"}) and _is(tagged, k + 1, {"v"}):
        negated, k = True, k + 1
    if not _is(tagged, k, {"v"}):
        return None
    pred = tagged[k][0]
    k += 1
    if _is(tagged, k, {"v"}):
        if pred not in CONTROL_VERBS and tagged[k][0] not in VERB_COMPLEMENTS:
            return None
        pred += tagged[k][0]
        k += 1
    if _is(tagged, k, {"u"}, ASPECT_PARTICLES):
        k += 1
    if _is(tagged, k, {"p"}, POSTVERBAL_PREPOSITIONS):
        if pred in CONTROL_VERBS:
            return None  # 决定在X部署: the preposition belongs to an embedded verb
        pred += tagged[k][0]
        k += 1
    if pred in NON_PREDICATES or pred.endswith(("同", "与", "跟")):
        return None  # 愿同俄方一道: a fused comitative preposition, whose object is not the verb's
    return ("不" if negated else "") + pred, k


def _ends_clause(tagged: Sequence[tuple[str, str]], k: int) -> bool:
    """Whether an object may end before ``k``: sentence end, punctuation that is not an opening quote, a
    conjunction, a preposition that does not start an embedded clause, a quantity, or a direction word (后, 期间)
    that ends the clause; not a verb, adverb or adjective (the object would be an embedded subject)."""
    if k >= len(tagged):
        return True
    word, tag = tagged[k]
    if tag == "w":
        return word in CLOSING_PUNCTUATION
    if tag == "f":
        return word in FOLLOWING_DIRECTIONS and _ends_clause(tagged, k + 1) and not _is(tagged, k + 1, {"f"})
    if tag == "p":  # 派医疗队到灾区; not 赞赏中国在...发挥的作用 or 推动X同Y对接 (the phrase is cut before its head)
        end = next((j for j in range(k + 1, len(tagged)) if tagged[j][1] == "w" and tagged[j][0] in CLAUSE_PUNCTUATION), len(tagged))
        return word in FOLLOWING_PREPOSITIONS and not any(t in {"v", "vn"} or w == "的" for w, t in tagged[k + 1 : end])
    if tag == "c":
        return word in CLAUSE_CONJUNCTIONS
    if tag == "u":
        return word in {"了"}
    if tag in {"m", "q"}:  # a quantity complement ending the clause: 携带舰载直升机2架。
        return _ends_clause(tagged, k + 1) and not _is(tagged, k + 1, {"m", "q"})
    return tag == "xc"


def _argument_ok(text: str, type_: str) -> bool:
    """Not a lone character (家住, 掉入坑) unless a name, not a phrase with a fused comitative preposition (同代表们
    审议: LAC's noun), some letter or hanzi."""
    return bool(_HAS_WORD.search(text)) and (len(text) > 1 or type_ != "thing") and not (len(text) > 1 and text[0] in "同与跟")


def _predicate_and_object(tagged: Sequence[tuple[str, str]], k: int) -> tuple[str, _Phrase | None, int] | None:
    """(predicate, object phrase or None, index after the clause) of the verb phrase after the subject at ``k``;
    None if there is no verb. The object is None when it is missing or does not end its clause."""
    k, negated = _skip_adverbials(tagged, k)
    verb = _verb_group(tagged, k, negated)
    if verb is None:
        return None
    pred, k = verb
    obj = _noun_phrase(tagged, k) if _is(tagged, k, PHRASE_TAGS) else None  # a leading quantity is skipped there
    if obj is not None and _ends_clause(tagged, obj.end):
        return pred, obj, obj.end
    return pred, None, k


def _shares_subject(tagged: Sequence[tuple[str, str]], k: int, had_object: bool) -> int | None:
    """Start of a following verb phrase with the same subject: after 并 (并且, 同时), or, when the clause before had
    an object, after a comma that no noun phrase follows (习近平抵达北京，出席...; not 习近平强调，要...); else None."""
    if _is(tagged, k, {"w"}, {"，", ","}) and had_object:
        k += 1
        if _is(tagged, k, {"c", "d"}, SHARING_CONJUNCTIONS):
            k += 1
        return None if _is(tagged, k, PHRASE_TAGS | {"r", "p", "c", "u"}) else k
    if _is(tagged, k, {"c", "d"}, SHARING_CONJUNCTIONS):
        return k + 1
    return None


def chinese_relations(tagged: Sequence[tuple[str, str]]) -> Iterator[tuple[str, str, str, str, str]]:
    """(subj, pred, obj, subj type, obj type) of one sentence tagged by LAC (see the grammar above)."""
    tagged = merge_quoted(tagged)
    i = 0
    while i < len(tagged):
        if tagged[i][1] not in PHRASE_TAGS or not _starts_clause(tagged, i):
            i += 1
            continue
        subject = _noun_phrase(tagged, i)
        if subject is None:
            i += 1
            continue
        k = subject.end
        for _ in range(4):  # the subject's verb phrase and up to three following ones that share it
            clause = _predicate_and_object(tagged, k)
            if clause is None:
                break
            pred, obj, k = clause
            if obj is None and not _ends_clause(tagged, k):
                break  # the verb phrase goes on in a way the grammar does not follow
            for subj, subj_type in subject.arguments if obj is not None else ():
                for obj_text, obj_type in obj.arguments:
                    if subj != obj_text and _argument_ok(subj, subj_type) and _argument_ok(obj_text, obj_type):
                        yield subj, pred, obj_text, subj_type, obj_type
            following = _shares_subject(tagged, k, obj is not None)
            if following is None:
                break
            k = following
        i = subject.end


def extract_chinese(articles: Iterable[tuple[str, str, str]], tagger=None) -> Iterator[Relation]:
    """Relations of ``(article_id, window, text)`` triples with LAC (``tagger``: ``chinese_text.LacTagger``), in input
    order; the sentences of ``TAGGED_ARTICLES`` articles are tagged at once (their CRF paths share array operations)."""
    from ..chinese_text import lac_tagger

    tagger = tagger or lac_tagger()
    articles = list(articles)
    progress = ProgressLog("relation extraction", len(articles), "articles")
    for first in range(0, len(articles), TAGGED_ARTICLES):
        group = [(article_id, window, chinese_sentences(text)) for article_id, window, text in articles[first : first + TAGGED_ARTICLES]]
        tagged = iter(tagger.tag_sentences([sentence for _, _, sentences in group for sentence in sentences]))
        for article_id, window, sentences in group:
            for index, sentence in enumerate(sentences):
                seen = set()
                for subj, pred, obj, t1, t2 in chinese_relations(next(tagged)):
                    if (subj, pred, obj) not in seen:
                        seen.add((subj, pred, obj))
                        yield Relation(article_id, index, window, sentence, subj, pred, obj, t1, t2)
            progress.advance()
    progress.finish()
