"""The prompts of S&S with the authors' fix (paper, Appendix B.1): the 3 directional prompts (the premise entails the
hypothesis) and the 5 antiprompts; the symmetric variant ('S&S, paper Table 2) adds every prompt and antiprompt with
premise and hypothesis swapped.

English templates fill the slots with the triples' strings as they are (the authors' ``pattern.format``, no
whitespace normalisation: the hypothesis-only premise ("true", "", "") gives "true  , which means that ...").
Chinese templates (the authors' Chinese lists) take whole sentences: the triple's strings joined without spaces.
"""

from __future__ import annotations

Triple = tuple[str, str, str]

PROMPTS = {
    "en": (
        "{pal} {prem} {par}, which means that {hal} {hypo} {har}.",
        "It is not the case that {hal} {hypo} {har}, let alone that {pal} {prem} {par}.",
        "{hal} {hypo} {har} because {pal} {prem} {par}.",
    ),
    "zh": (
        "{p}，这也就是说，{h}。",
        "{h}是不成立的，所以{p}就更不可能了。",
        "{p}，所以{h}",
    ),
}
ANTIPROMPTS = {
    "en": (
        "It is not sure that {hal} {hypo} {har} just because {pal} {prem} {par}.",
        "{pal} {prem} {par}. This does not mean that {hal} {hypo} {har}.",
        "The fact that {pal} {prem} {par} does not necessarily mean that {hal} {hypo} {har}.",
        "Even if {pal} {prem} {par}, {hal} maybe {hypo} {har}.",
        "Just because {pal} {prem} {par}, it might still not be true that {hal} {hypo} {har}.",
    ),
    "zh": (
        "只因为{p}，还不能确定{h}。",
        "{p}。这并不意味着{h}。",
        "{p}并不一定导致{h}。",
        "即使{p}，也只是有可能{h}。",
        "只从{p}来看，{h}这件事仍有可能不是真的。",
    ),
}
LANGUAGES = tuple(PROMPTS)


def template_texts() -> list[str]:
    """The words of every template (slots removed), for a tokenizer trained from scratch (tiny test models)."""
    import re

    return [re.sub(r"\{[a-z]+\}", " ", t) for lang in LANGUAGES for t in PROMPTS[lang] + ANTIPROMPTS[lang]]


def _fill(template: str, premise: Triple, hypothesis: Triple, lang: str) -> str:
    if lang == "zh":
        return template.format(p="".join(premise), h="".join(hypothesis))
    pal, prem, par = premise
    hal, hypo, har = hypothesis
    return template.format(pal=pal, prem=prem, par=par, hal=hal, hypo=hypo, har=har)


def prompt_sentences(premise: Triple, hypothesis: Triple, *, symmetric: bool, lang: str = "en") -> tuple[list[str], list[str]]:
    """(prompt sentences, antiprompt sentences) of one pair; the symmetric variant adds the swapped pair."""
    if lang not in PROMPTS:
        raise ValueError(f"no S&S prompts for language {lang!r} (known: {', '.join(LANGUAGES)})")
    directions = [(premise, hypothesis), (hypothesis, premise)] if symmetric else [(premise, hypothesis)]
    prompts = [_fill(t, p, h, lang) for p, h in directions for t in PROMPTS[lang]]
    antiprompts = [_fill(t, p, h, lang) for p, h in directions for t in ANTIPROMPTS[lang]]
    return prompts, antiprompts
