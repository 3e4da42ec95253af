"""Errors that name what is wrong and where, so the user can fix it without a traceback."""

from __future__ import annotations


class WorkflowError(Exception):
    """Base class of every error this package raises on purpose."""


class InputFormatError(WorkflowError):
    """Malformed input: names the file, the line (1-based; ``unit="row"`` for a row of a table file) and the field."""

    def __init__(self, path: str, line: int | None, field: str | None, problem: str, *, unit: str = "line") -> None:
        where = str(path)
        if line is not None:
            where += f", {unit} {line}"
        if field is not None:
            where += f", field '{field}'"
        super().__init__(f"{where}: {problem}")
        self.path, self.line, self.field, self.problem = path, line, field, problem


class InputUnavailableError(WorkflowError):
    """An external input could not be obtained from the mirror or its URL."""


class ModelUnavailableError(WorkflowError):
    """Model weights named in the config cannot be found locally or downloaded."""


class InvariantError(WorkflowError):
    """A built artefact breaks an invariant it must hold (the message names each broken invariant)."""
