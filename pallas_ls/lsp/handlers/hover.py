"""Hover over a kernel's def line or launch call: its parameters' roles and where it is launched
(what to say is ../hover.py's; this answers the request); over a rule code in a `# noqa:` comment,
that rule's docs (../rule_hover.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from ...engine.source import Position
from .. import notebooks
from ..hover import describe_at, render
from ..rule_hover import render_rule, rule_at
from .guard import guarded

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from ..pipeline import Pipeline
    from ..session import Session


def register(server: LanguageServer, session: Session, pipeline: Pipeline) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    async def hover(params: types.HoverParams) -> types.Hover | None:
        uri = cell_uri = params.text_document.uri
        notebook = notebooks.owner(session, uri)
        position = params.position
        if notebook is not None:  # a notebook's cell: hover in the notebook's module
            uri, position = notebook.uri, notebooks.to_module(notebook, cell_uri, position)
        document = session.store.get(uri)
        if document is None:
            return None
        noqa_hover = _rule_hover(session, document, params.position)
        if noqa_hover is not None:
            return noqa_hover
        result = await pipeline.current_result(uri)
        if result is None or result.analysis is None or result.version != document.version:
            return None
        line, column = document.code_point_position(position, session.encoding)
        if line == 0 and result.source.had_bom:
            column = max(column - 1, 0)
        info = describe_at(result.analysis, Position(line, column))
        if info is None:
            return None
        markdown = session.client.markdown_hover
        range_ = result.lines.range(info.range, session.encoding)
        shown = notebooks.range_to_cell(notebook, cell_uri, range_) if notebook is not None else range_
        return types.Hover(
            contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText, value=render(info, markdown)
            ),
            range=shown,
        )


def _rule_hover(session: Session, document, position: types.Position) -> types.Hover | None:
    line, column = document.code_point_position(position, session.encoding)
    found = rule_at(document.line(line), column)
    if found is None:
        return None
    rule, start, end = found
    markdown = session.client.markdown_hover
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
            value=render_rule(rule, markdown),
        ),
        range=types.Range(
            start=document.client_position(line, start, session.encoding),
            end=document.client_position(line, end, session.encoding),
        ),
    )
