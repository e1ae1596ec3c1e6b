"""`Diagnostic.data`: what a diagnostic carries for its code actions, typed, with its one conversion.

The server writes it when it makes a diagnostic (`data_json`, straight to JSON: publishing is the
hot path) and reads it back when the client asks for code actions (`DiagnosticData.from_json`):
the document version the edits are for, and each fix with its edits already in the client's
position encoding, so a quick fix needs neither the engine nor a conversion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from lsprotocol import types

from ..engine.findings import Applicability, Fix

if TYPE_CHECKING:
    from .convert import LineSource


class EditJson(TypedDict):
    range: dict[str, Any]
    newText: str


class FixJson(TypedDict):
    title: str
    applicability: str  # an engine Applicability value
    preferred: bool
    suppression: bool  # the engine's own "Disable CODE for this line" (Fix.suppression)
    edits: list[EditJson]


class DataJson(TypedDict):
    version: int | None
    fixes: list[FixJson]


def data_json(version: int | None, fixes: list[Fix], lines: LineSource, encoding: str) -> DataJson:
    return {"version": version, "fixes": [fix_json(fix, lines, encoding) for fix in fixes]}


def fix_json(fix: Fix, lines: LineSource, encoding: str) -> FixJson:
    return {
        "title": fix.title,
        "applicability": Applicability(fix.applicability).value,
        "preferred": bool(fix.preferred),
        "suppression": bool(fix.suppression),
        "edits": [{"range": lines.range_json(edit.range, encoding), "newText": edit.new_text} for edit in fix.edits],
    }


@dataclass(frozen=True)
class FixData:
    title: str
    applicability: str
    preferred: bool
    edits: list[types.TextEdit]
    suppression: bool = False

    @property
    def safe(self) -> bool:
        return self.applicability == Applicability.SAFE.value


@dataclass(frozen=True)
class DiagnosticData:
    version: int | None
    fixes: list[FixData]

    @classmethod
    def from_json(cls, value: Any) -> DiagnosticData | None:
        """What the client sent back; None when it is missing or malformed (clients may drop or mangle it)."""
        if not isinstance(value, dict) or not isinstance(value.get("fixes"), list):
            return None
        fixes = []
        try:
            for item in value["fixes"]:
                edits = [
                    types.TextEdit(range=range_from_json(e["range"]), new_text=str(e["newText"])) for e in item["edits"]
                ]
                fixes.append(
                    FixData(
                        str(item["title"]),
                        str(item.get("applicability", "unsafe")),
                        bool(item.get("preferred")),
                        edits,
                        bool(item.get("suppression")),
                    )
                )
        except (KeyError, TypeError, ValueError):
            return None
        return cls(value.get("version"), fixes)


def range_from_json(value: Any) -> types.Range:
    start, end = value["start"], value["end"]
    return types.Range(
        start=types.Position(line=int(start["line"]), character=int(start["character"])),
        end=types.Position(line=int(end["line"]), character=int(end["character"])),
    )
