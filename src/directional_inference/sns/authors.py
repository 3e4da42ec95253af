"""The authors' hyper-parameter trials, read from their S&S training scripts (input ``levyholt-authors``:
``Teddy-Li/LM-DirctionalInference`` at 0cac5b1, ``discrete_prompt_model/generic_*train*.sh``).

Each script holds three bash arrays of 500 elements, ``lrs``, ``lambdas`` and ``steps``, and one ``python`` command
that passes element ``$SLURM_ARRAY_TASK_ID`` of each as ``--learning_rate``, ``--weight_decay`` and
``--gradient_accumulation_steps`` (bash arrays are 0-based). What each script trains is read from that command, not
from the comments (one comment of ``generic_symmetric_train_enr_large.sh`` says batch 4 and ``floor(1.5 s)``; its command
runs batch 1 with ``6 s``). ``SCRIPTS`` below says, in one place, which script serves which search of this workflow.

Trial k of this workflow is element k (``--array 0-99`` of the authors' README: elements 0-99 for 100 trials), with the
base scripts' values: every script holds the same ``lrs`` and ``lambdas``, the base scripts the same ``steps``; the large
scripts scale ``steps`` and lower the batch size, which ``training.model_batching`` holds per model alias (a test checks
that, over all 500 sets, base steps times its factors give the large scripts' steps exactly). The scripts are read from
the fetched dataset only after their sha256 matches the input table, so a copy changed after the fetch stops the run.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputFormatError, WorkflowError
from .training import Hyperparameters

DATASET = "levyholt-authors"
SCRIPT_DIRECTORY = "discrete_prompt_model"
ARRAYS = {"lrs": float, "lambdas": float, "steps": int}
# the command's option -> the hyper-parameter it sets
OPTIONS = {"--learning_rate": "learning_rate", "--weight_decay": "weight_decay", "--gradient_accumulation_steps": "grad_accumulation"}
TASK_INDEX = "SLURM_ARRAY_TASK_ID"
SETS = 500  # the sets each script holds: the most trials a search can take from them (a parse-time check)


@dataclass(frozen=True)
class ScriptRole:
    """What one script trains: the authors' model (their ``../../lms/<name>``), the prompts (``directional``: the
    ``--is_directional`` flag, 3 prompts and 5 antiprompts; ``symmetric``: without it, each also with premise and
    hypothesis swapped) and whether the language model is frozen (``--fixed_lm``: only the classification head trains)."""

    model: str
    prompts: str
    frozen: bool = False


# Which script serves which search: this workflow's S&S (variant sns) and H-only models (variant hyponly: the same
# directional prompts, on the *_hypo_only data) take the directional scripts, 'S&S (variant sns_sym) the symmetric ones.
# The frozen-LM script (generic_flm_*) trains a variant that neither the paper's tables nor this workflow use; its
# arrays are read and checked with the others. No script is published for XLM-R (the Chinese searches): they take the
# base arrays, an assumption stated in docs/method-notes.md.
SCRIPTS = {
    "generic_train_enr_base.sh": ScriptRole("roberta-base", "directional"),
    "generic_train_enr_large.sh": ScriptRole("roberta-large", "directional"),
    "generic_train_enbert_base.sh": ScriptRole("bert-base-uncased", "directional"),
    "generic_train_enbert_large.sh": ScriptRole("bert-large-uncased", "directional"),
    "generic_symmetric_train_enr_base.sh": ScriptRole("roberta-base", "symmetric"),
    "generic_symmetric_train_enr_large.sh": ScriptRole("roberta-large", "symmetric"),
    "generic_symmetric_train_enbert_base.sh": ScriptRole("bert-base-uncased", "symmetric"),
    "generic_symmetric_train_enbert_large.sh": ScriptRole("bert-large-uncased", "symmetric"),
    "generic_flm_train_enr_base.sh": ScriptRole("roberta-base", "directional", frozen=True),
}
VARIANT_PROMPTS = {"sns": "directional", "hyponly": "directional", "sns_sym": "symmetric"}
BASE_SCRIPT = "generic_train_enr_base.sh"  # whose arrays every trial takes (a base model's steps)
BASE_MODELS = ("roberta-base", "bert-base-uncased")


@dataclass(frozen=True)
class AuthorsScript:
    """One training script as its command runs it: the model, batch size, flags, and the values each trial takes."""

    path: str
    model: str
    batch_size: int
    directional: bool
    frozen: bool
    learning_rates: tuple[float, ...]
    weight_decays: tuple[float, ...]
    accumulations: tuple[int, ...]

    @property
    def role(self) -> ScriptRole:
        return ScriptRole(self.model, "directional" if self.directional else "symmetric", self.frozen)

    def trial(self, k: int) -> Hyperparameters:
        """Trial ``k``: element ``k`` of each array (``$SLURM_ARRAY_TASK_ID = k``)."""
        return Hyperparameters(k, self.learning_rates[k], self.weight_decays[k], self.accumulations[k])


def script_for(model: str, variant: str) -> str | None:
    """The script (file name) of the authors that trains ``variant`` (sns, sns_sym, hyponly) of the authors' model
    ``model`` (a hub name: roberta-base, bert-large-uncased, ...), or None where they published none."""
    wanted = ScriptRole(model, VARIANT_PROMPTS[variant])
    return next((name for name, role in SCRIPTS.items() if role == wanted), None)


def _array(path: str, number: int, name: str, text: str) -> tuple:
    convert = ARRAYS[name]
    values = []
    for index, word in enumerate(text.split()):
        try:
            values.append(convert(word))
        except ValueError:
            raise InputFormatError(path, number, name, f"element {index} is {word!r}, not {'an integer' if convert is int else 'a number'}") from None
    return tuple(values)


def _bound_array(path: str, number: int, option: str, word: str) -> str:
    """The array whose ``$SLURM_ARRAY_TASK_ID``-th element the command passes to ``option``."""
    found = re.fullmatch(r"\$\{(\w+)\[\$" + TASK_INDEX + r"\]\}", word)
    if not found or found.group(1) not in ARRAYS:
        raise InputFormatError(path, number, option, f"expected an element of {', '.join(ARRAYS)} indexed by ${TASK_INDEX}, found {word!r}")
    return found.group(1)


def parse_script(path: str | os.PathLike) -> AuthorsScript:
    """The arrays and the training command of one of the authors' scripts; an error names the file, line and field
    where the script is not what this reading expects (an array that is not numbers, arrays of unequal length, no
    command, an option the command does not set from an array)."""
    where = str(path)
    arrays: dict[str, tuple] = {}
    lines: dict[str, int] = {}
    command: tuple[int, list[str]] | None = None
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue  # comments are not read: one of them contradicts its command
        if assignment := re.fullmatch(r"(\w+)=\((.*)\)", stripped):
            if assignment.group(1) in ARRAYS:
                arrays[assignment.group(1)] = _array(where, number, assignment.group(1), assignment.group(2))
                lines[assignment.group(1)] = number
        elif stripped.startswith("python "):
            if command is not None:
                raise InputFormatError(where, number, None, f"a second python command (the first is on line {command[0]})")
            try:
                command = (number, shlex.split(stripped))
            except ValueError as error:
                raise InputFormatError(where, number, None, f"the python command cannot be split into words: {error}") from None
    for name in ARRAYS:
        if name not in arrays:
            raise InputFormatError(where, None, name, f"no bash array {name}=( ... ) in the script")
    lengths = {name: len(values) for name, values in arrays.items()}
    if len(set(lengths.values())) != 1:
        longest = max(lengths, key=lengths.get)
        short = next(name for name in ARRAYS if lengths[name] != lengths[longest])
        raise InputFormatError(where, lines[short], short, f"{lengths[short]} elements, but {longest} has {lengths[longest]}")
    if command is None:
        raise InputFormatError(where, None, None, "no python command that trains the model")
    number, words = command
    options: dict[str, str] = {}
    for index, word in enumerate(words):
        if word.startswith("--") and index + 1 < len(words) and not words[index + 1].startswith("--"):
            options[word] = words[index + 1]
    bound = {}
    for option, field in OPTIONS.items():
        if option not in options:
            raise InputFormatError(where, number, option, "the command does not set it")
        bound[field] = arrays[_bound_array(where, number, option, options[option])]
    for option in ("--model_name_or_path", "--train_batch_size"):
        if option not in options:
            raise InputFormatError(where, number, option, "the command does not set it")
    try:
        batch_size = int(options["--train_batch_size"])
    except ValueError:
        raise InputFormatError(where, number, "--train_batch_size", f"not an integer: {options['--train_batch_size']!r}") from None
    return AuthorsScript(
        where,
        Path(options["--model_name_or_path"]).name,
        batch_size,
        "--is_directional" in words,
        "--fixed_lm" in words,
        bound["learning_rate"],
        bound["weight_decay"],
        bound["grad_accumulation"],
    )


def verified_script(directory: str | os.PathLike, name: str) -> AuthorsScript:
    """``parse_script`` of the script ``name`` in the fetched dataset ``directory`` (resources/levyholt-authors), once
    its sha256 is the input table's: a copy changed after the fetch is refused, naming the file and the way out."""
    from ..resources.inputs import inputs_of, sha256_of

    relative = f"{SCRIPT_DIRECTORY}/{name}"
    item = next((i for i in inputs_of(DATASET) if i.path == relative), None)
    if item is None:
        raise WorkflowError(f"{relative} is not an input of dataset {DATASET} (src/directional_inference/resources/data/inputs.tsv)")
    path = Path(directory) / relative
    if not path.is_file():
        raise WorkflowError(f"{path}: missing from the fetched dataset {DATASET}; remove {directory} and run again to fetch it")
    actual = sha256_of(path)
    if actual != item.sha256:
        raise WorkflowError(
            f"{path}: sha256 {actual}, not the input table's {item.sha256} ({item.url}): the file changed after it was "
            f"fetched; remove {directory} and run again to fetch it anew"
        )
    return parse_script(path)


def authors_scripts(directory: str | os.PathLike) -> dict[str, AuthorsScript]:
    """Every script of ``SCRIPTS`` in the fetched dataset, verified and parsed; each must train what ``SCRIPTS`` says
    and hold the same ``lrs`` and ``lambdas`` as the base script, and each base script its ``steps``."""
    scripts = {name: verified_script(directory, name) for name in SCRIPTS}
    base = scripts[BASE_SCRIPT]
    for name, script in scripts.items():
        if script.role != SCRIPTS[name]:
            raise InputFormatError(script.path, None, None, f"its command trains {script.role}, not {SCRIPTS[name]} (sns/authors.py, SCRIPTS)")
        for field, label in (("learning_rates", "lrs"), ("weight_decays", "lambdas")) + (
            (("accumulations", "steps"),) if script.model in BASE_MODELS else ()
        ):
            if getattr(script, field) != getattr(base, field):
                index = next((i for i, (a, b) in enumerate(zip(getattr(script, field), getattr(base, field))) if a != b), None)
                raise InputFormatError(
                    script.path, None, label, f"differs from {BASE_SCRIPT}'s" + (f" at element {index}" if index is not None else " in length")
                )
    return scripts


def authors_trials(directory: str | os.PathLike, count: int) -> list[Hyperparameters]:
    """Trials 0..``count``-1: elements 0..``count``-1 of the base script's arrays (``authors_scripts`` checked)."""
    base = authors_scripts(directory)[BASE_SCRIPT]
    if count > len(base.learning_rates):
        raise WorkflowError(
            f"{count} trials asked for (training.trials, training.budgets), but the authors' scripts hold "
            f"{len(base.learning_rates)} sets ({base.path})"
        )
    return [base.trial(k) for k in range(count)]
