"""Columns in the negotiated position encoding <-> code points.

The engine counts columns in code points; LSP counts them in UTF-8 bytes, UTF-16 code units or
UTF-32 code units (= code points), whichever was negotiated.  Lines are split at `\\r\\n`, `\\r`
and `\\n` only, as LSP and Python's tokenizer do (not at form feeds or U+2028 as `str.splitlines`
would).
"""

from __future__ import annotations

UTF8 = "utf-8"
UTF16 = "utf-16"
UTF32 = "utf-32"
ENCODINGS = (UTF8, UTF16, UTF32)


def normalise_encoding(value: object) -> str:
    text = str(getattr(value, "value", value) or UTF16).lower()
    return text if text in ENCODINGS else UTF16


def units(text: str, encoding: str) -> int:
    """The length of `text` in the encoding's code units."""
    if encoding == UTF32 or text.isascii():
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", errors="surrogatepass"))
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def _char_units(ch: str, encoding: str) -> int:
    code = ord(ch)
    if encoding == UTF8:
        return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return 2 if code > 0xFFFF else 1


def to_client_column(line: str, column: int, encoding: str) -> int:
    """Code-point column on `line` -> client units (clamped to the line)."""
    column = max(0, min(column, len(line)))
    if encoding == UTF32:
        return column
    return units(line[:column], encoding)


def from_client_column(line: str, character: int, encoding: str) -> int:
    """Client-unit column on `line` -> code points.

    A column past the end of the line is clamped to its end; one that falls inside a character
    (half a surrogate pair, the middle of a UTF-8 sequence) is moved to that character's end, as
    the LSP specification asks.
    """
    if character <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(character, len(line))
    consumed = 0
    for index, ch in enumerate(line):
        if consumed >= character:
            return index
        consumed += _char_units(ch, encoding)
    return len(line)
