"""The LSP messages the server handles, one module per family; `register` wires them all.

No handler lets an exception escape into pygls: each one logs it and answers as if there was
nothing to say, so one bad request never takes the server down (a `JsonRpcException` a handler
raises on purpose is the error response it chose).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    code_actions,
    commands,
    configuration,
    diagnostics,
    documents,
    hover,
    lifecycle,
    notebooks,
    workspace_diagnostics,
)

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

FAMILIES = (
    lifecycle,
    configuration,
    documents,
    notebooks,
    diagnostics,
    workspace_diagnostics,
    hover,
    code_actions,
    commands,
)


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    for family in FAMILIES:
        family.register(server, session, pipeline)
