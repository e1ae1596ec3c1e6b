"""The document notifications' params, structured by hand.

didOpen and didChange arrive on every open and keystroke, and pygls' generic structuring (cattrs)
is a good part of their cost.  These functions accept exactly the well-formed shapes, as plain
checks on the JSON, and return None for anything else: the caller then takes the generic path,
which also decides what to do with params that do not fit.  tests/lsp/test_units.py checks that
both paths give equal objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from lsprotocol import types


def _is_int(value: Any) -> TypeGuard[int]:
    return type(value) is int  # not bool


def _position(value: Any) -> types.Position | None:
    if type(value) is not dict:
        return None
    line, character = value.get("line"), value.get("character")
    if not (_is_int(line) and _is_int(character) and line >= 0 and character >= 0):
        return None
    return types.Position(line=line, character=character)


def _range(value: Any) -> types.Range | None:
    if type(value) is not dict:
        return None
    start, end = _position(value.get("start")), _position(value.get("end"))
    if start is None or end is None:
        return None
    return types.Range(start=start, end=end)


def _versioned_uri(value: Any) -> tuple[str, Any] | None:
    if type(value) is not dict or type(value.get("uri")) is not str:
        return None
    return value["uri"], value.get("version")


def did_open(params: Any) -> types.DidOpenTextDocumentParams | None:
    item = params.get("textDocument") if type(params) is dict else None
    if type(item) is not dict or len(params) != 1:
        return None
    uri, language, version, text = item.get("uri"), item.get("languageId"), item.get("version"), item.get("text")
    if not (type(uri) is str and type(language) is str and _is_int(version) and type(text) is str) or len(item) != 4:
        return None
    return types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)
    )


def _content_change(value: Any) -> types.TextDocumentContentChangeEvent | None:
    if type(value) is not dict or type(value.get("text")) is not str:
        return None
    if len(value) == 1:
        return types.TextDocumentContentChangeWholeDocument(text=value["text"])
    rng = _range(value.get("range"))
    length = value.get("rangeLength")
    if rng is None or len(value) != (3 if "rangeLength" in value else 2) or not (length is None or _is_int(length)):
        return None
    return types.TextDocumentContentChangePartial(range=rng, text=value["text"], range_length=length)


def did_change(params: Any) -> types.DidChangeTextDocumentParams | None:
    if type(params) is not dict or len(params) != 2:
        return None
    document = _versioned_uri(params.get("textDocument"))
    changes = params.get("contentChanges")
    if document is None or not _is_int(document[1]) or len(params["textDocument"]) != 2 or type(changes) is not list:
        return None
    structured = [_content_change(change) for change in changes]
    if any(change is None for change in structured):
        return None
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=document[0], version=document[1]),
        content_changes=tuple(structured),  # type: ignore[arg-type]  # a tuple, as pygls makes it
    )


def did_close(params: Any) -> types.DidCloseTextDocumentParams | None:
    document = params.get("textDocument") if type(params) is dict else None
    if type(document) is not dict or len(params) != 1 or len(document) != 1 or type(document.get("uri")) is not str:
        return None
    return types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=document["uri"]))


STRUCTURE: dict[str, Callable[[Any], Any]] = {
    types.TEXT_DOCUMENT_DID_OPEN: did_open,
    types.TEXT_DOCUMENT_DID_CHANGE: did_change,
    types.TEXT_DOCUMENT_DID_CLOSE: did_close,
}
