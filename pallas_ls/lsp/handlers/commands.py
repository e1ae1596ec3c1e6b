"""`workspace/executeCommand`: `pallas-ls.applyFixAll` applies every preferred safe fix to a
document (the fix-all code action's edit, handlers/code_actions.fix_all) with `workspace/applyEdit`.

Its argument is the document: a URI string, `{"uri": ...}` or a TextDocumentIdentifier-like object
(`{"textDocument": {"uri": ...}}`); a client's "Fix All" command can pass the active editor's URI.
A notebook's URI, or one of its code cells' (VS Code's active editor in a notebook), fixes the
whole notebook: one edit per changed cell.
Answers whether an edit was applied.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from .. import notebooks
from .code_actions import fix_all
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session

log = logging.getLogger(__name__)

APPLY_FIX_ALL = "pallas-ls.applyFixAll"


def document_uri(arguments: tuple[Any, ...]) -> str | None:
    for argument in arguments:
        if isinstance(argument, str):
            return argument
        if isinstance(argument, dict):
            inner = argument.get("textDocument")
            uri = inner.get("uri") if isinstance(inner, dict) else argument.get("uri")
            if isinstance(uri, str):
                return uri
    return None


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.command(APPLY_FIX_ALL)
    @guarded(default=False)
    async def apply_fix_all(*arguments: Any) -> bool:
        uri = document_uri(arguments)
        notebook = notebooks.owner(session, uri) if uri else None
        if notebook is not None:  # a notebook's cell (the active editor): fix the whole notebook
            uri = notebook.uri
        document = session.store.get(uri) if uri else None
        if uri is None or document is None:
            log.info("%s: no open document among %r", APPLY_FIX_ALL, arguments)
            return False
        result = await pipeline.current_result(uri)
        if result is None or result.version != document.version:
            return False
        action = await fix_all(session, pipeline, result)
        if action is None or action.edit is None:
            return False
        response = await server.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(edit=action.edit, label="pallas-ls: Fix all auto-fixable problems")
        )
        return bool(response and response.applied)
