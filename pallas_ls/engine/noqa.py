"""`# noqa` comments: `# noqa` silences every finding on its line, `# noqa: PAL001, PAL002` those codes."""

from __future__ import annotations

import re

_NOQA = re.compile(r"#\s*noqa(?P<colon>\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?", re.IGNORECASE)
_CODE = re.compile(r"[A-Za-z]+[0-9]+")


def noqa_codes(line: str) -> frozenset[str] | None:
    """None: no noqa comment; empty set: a bare `# noqa` (everything); else the codes named."""
    if "#" not in line:
        return None
    match = _NOQA.search(line)
    if match is None:
        return None
    if not match.group("codes"):
        return frozenset()
    return frozenset(code.upper() for code in _CODE.findall(match.group("codes")))


def is_suppressed(code: str, line: str) -> bool:
    codes = noqa_codes(line)
    return codes is not None and (not codes or code in codes)
