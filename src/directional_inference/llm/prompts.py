"""The prompts of McKenna, Li et al. 2023 for a (premise, hypothesis) pair: a proposition as text, the four templates,
the A/B/C options, the optional instruction line and the four in-context examples (with labels, or with a
one-sentence explanation each). A prompt is split into its shared prefix (instruction and examples, the same for every
pair) and the pair's own part, so that a scorer computes the prefix once.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..levyholt.entries import Entry, Triple

TEMPLATES = {0: "{prm}, which means that {hyp}.", 1: "If {prm}, then {hyp}.", 3: "{prm}, so {hyp}.", 4: "{prm} entails {hyp}."}
OPTIONS = "\nA) Entailment\nB) Neutral\nC) Contradiction\nAnswer:"
INSTRUCTION = "Please check the entailments between the following statements.\n\n"
LETTERS = ("A", "B", "C")
# The four in-context examples of the 2023 paper (original setting): premise, hypothesis, answer, explanation.
EXAMPLES = (
    ("Google bought YouTube", "Google owns YouTube", "A", "Owning is a consequence of buying."),
    ("Google owns YouTube", "Google bought YouTube", "B", "Owning does not imply buying, the ownership may come from other means."),
    ("John went to the mall", "John drove to the mall", "B", "John may have gone to the mall by other means."),
    ("John drove to the mall", "John went to the mall", "A", "Driving is a means of going to the mall."),
)
ANSWERS = {"A": "Entailment", "B": "Neutral", "C": "Contradiction"}
SHOTS = ("zero-shot", "few-shot", "few-shot CoT")


def proposition(triple: Triple) -> str:
    """``subj pred obj`` of a LevyHolt triple, lower-cased as in the 2023 code. (The 2023 code swaps the hypothesis's
    arguments where its own files store them in the premise's order; LevyHolt's triples are each in their own natural
    order, so both are written as they stand.)"""
    return " ".join(part for part in triple if part).lower()


@dataclass(frozen=True)
class PromptSetting:
    """How a pair is asked: the template (``TEMPLATES``), the shots (``SHOTS``) and whether the instruction line comes
    first."""

    template: int = 1
    shots: str = "zero-shot"
    instruction: bool = True

    def __post_init__(self):
        if self.template not in TEMPLATES:
            raise ValueError(f"prompt template must be one of {sorted(TEMPLATES)}, not {self.template!r}")
        if self.shots not in SHOTS:
            raise ValueError(f"prompt shots must be one of {SHOTS}, not {self.shots!r}")

    @property
    def name(self) -> str:
        """The setting as the LLM table names it (as the released predictions' settings: ``original, zero-shot``)."""
        return (
            f"original, {self.shots}"
            + ("" if self.template == 1 else f", template {self.template}")
            + ("" if self.instruction else ", no instruction")
        )

    def statement(self, premise: str, hypothesis: str) -> str:
        """The filled template with the options: what the model answers."""
        text = TEMPLATES[self.template].format(prm=premise, hyp=hypothesis)
        return text[0].upper() + text[1:] + OPTIONS

    def prefix(self) -> str:
        """The part every pair shares: the instruction line and the in-context examples with their answers."""
        parts = [INSTRUCTION] if self.instruction else []
        if self.shots != "zero-shot":
            for premise, hypothesis, answer, why in EXAMPLES:
                explanation = f" {why}" if self.shots == "few-shot CoT" else ""
                parts.append(f"{self.statement(premise, hypothesis)} {answer}) {ANSWERS[answer]}.{explanation}\n\n")
        return "".join(parts)

    def pair(self, entry: Entry) -> str:
        """The pair's own part of the prompt, which ends where the model names its answer."""
        return self.statement(proposition(entry.premise), proposition(entry.hypothesis))
