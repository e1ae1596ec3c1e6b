"""Issue 7: after any sequence of incremental edits, the server's diagnostics equal a fresh analysis
of the final text.

Hypothesis generates edit sequences (insertions, deletions, replacements at random places, with
é, 😀, 漢, tabs, LF, CR and CRLF) over a kernel file.  They go through the real server as
`didChange` notifications of one or more incremental changes each, with positions computed here
in the negotiated encoding.  The final diagnostics must equal (1) those of a second document
opened with the final text in the same server, and (2) an in-process `analyze_source` of it.

Hypothesis drives its examples synchronously, so the server session (one for all examples, a new
URI per example) lives on an event loop in a thread of its own.
"""

from __future__ import annotations

import asyncio
import itertools
import pathlib
import re
import threading
from collections.abc import Coroutine
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from lsp_harness import DEADLINE, capabilities, editor_session
from lsprotocol import types

from pallas_ls.lint import analyze_source

START = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    s = "é😀漢"; return x_ref[...] + 1


def twice(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2
    return ()


x = jnp.ones((8, 128), jnp.float32)
t = "😀😀"; a = pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
b = pl.pallas_call(twice, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
"""

FRAGMENTS = [
    "x",
    " ",
    "é",
    "😀",
    "漢",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "(",
    ")",
    ":",
    "#",
    "'",
    "return ",
    "o_ref[...] = ",
    "def k(a_ref, b_ref):\n",
    "    ",
    "pl.pallas_call(k, out_shape=x)(x)\n",
]

# (where, how much to delete, what to insert): `where` is taken modulo the text's length then.
EDIT = st.tuples(
    st.integers(0, 1 << 20), st.integers(0, 24), st.lists(st.sampled_from(FRAGMENTS), max_size=4).map("".join)
)
# Each inner list is one didChange notification (its changes apply in order).
NOTIFICATIONS = st.lists(st.lists(EDIT, min_size=1, max_size=3), min_size=1, max_size=6)

LINE_END = re.compile(r"\r\n|\r|\n")


def position(text: str, offset: int, encoding: str) -> types.Position:
    """The LSP position of `offset`, computed independently of the server's code."""
    line, line_start = 0, 0
    for match in LINE_END.finditer(text, 0, offset):
        line, line_start = line + 1, match.end()
    before = text[line_start:offset]
    if encoding == "utf-16":
        character = len(before.encode("utf-16-le")) // 2
    elif encoding == "utf-8":
        character = len(before.encode("utf-8"))
    else:
        character = len(before)
    return types.Position(line=line, character=character)


def not_inside_crlf(text: str, offset: int, forward: bool) -> int:
    """A position between \\r and \\n does not exist in LSP: step over it."""
    if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
        return offset + 1 if forward else offset - 1
    return offset


def to_client(rng, lines: list[str], encoding: str) -> tuple:
    """An engine range (code points) in client units; a column past the end of its line (the
    engine may point at the line break) is the line's end, as LSP has it."""

    def column(line: int, col: int) -> int:
        prefix = lines[line][:col] if line < len(lines) else ""
        return position(prefix, len(prefix), encoding).character

    return (
        (rng.start.line, column(rng.start.line, rng.start.column)),
        (rng.end.line, column(rng.end.line, rng.end.column)),
    )


class ServerThread:
    """One editor session on an event loop in its own thread; `run(coro)` from the test thread."""

    def __init__(self, root: pathlib.Path, encoding: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="lsp-client", daemon=True)
        self.thread.start()
        self.session = editor_session(
            root,
            capabilities("neovim", encodings=[encoding]),
            initialization_options={"debounce": 0, "showSyntaxErrors": True},
        )
        self.editor = self.run(self.session.__aenter__())
        assert self.editor.encoding == encoding

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 4 * DEADLINE) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        try:
            self.run(self.session.__aexit__(None, None, None))
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(DEADLINE)


@pytest.fixture(scope="module", params=["utf-16", "utf-8"])
def server(request, tmp_path_factory):
    server = ServerThread(tmp_path_factory.mktemp("incremental"), request.param)
    yield server
    server.close()


counter = itertools.count()


def comparable(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    return [
        (d.code, (d.range.start.line, d.range.start.character), (d.range.end.line, d.range.end.character), d.message)
        for d in diagnostics
    ]


async def edit_and_compare(ed, notifications: list[list[tuple[int, int, str]]]) -> None:
    n = next(counter)
    uri = ed.open(f"edited_{n}.py", START)
    text, version = START, 1
    for changes in notifications:
        content_changes = []
        for where, length, new_text in changes:
            start = not_inside_crlf(text, where % (len(text) + 1), forward=False)
            end = not_inside_crlf(text, min(start + length, len(text)), forward=True)
            rng = types.Range(start=position(text, start, ed.encoding), end=position(text, end, ed.encoding))
            content_changes.append(types.TextDocumentContentChangePartial(range=rng, text=new_text))
            text = text[:start] + new_text + text[end:]
        version += 1
        ed.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=content_changes,
            )
        )
    ed.texts[uri], ed.versions[uri] = text, version
    await compare_with_fresh(ed, uri)


async def compare_with_fresh(ed, uri: str) -> None:
    """`uri`'s diagnostics equal a fresh document's with the editor's text, and the engine's."""
    text = ed.texts[uri]
    got = comparable(await ed.diagnostics(uri))
    name = f"fresh_{next(counter)}.py"
    fresh = ed.open(name, text)
    expected = comparable(await ed.diagnostics(fresh))
    ed.close(uri)
    ed.close(fresh)
    assert got == expected, f"final text: {text!r}"
    lines = LINE_END.split(text)
    engine = [
        (f.code, *to_client(f.range, lines, ed.encoding), f.message) for f in analyze_source(text, str(ed.root / name))
    ]
    assert sorted(expected) == sorted(engine), f"final text: {text!r}"


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(notifications=NOTIFICATIONS)
def test_diagnostics_after_random_edits_equal_a_fresh_analysis(server, notifications):
    server.run(edit_and_compare(server.editor, notifications))


def test_a_known_hard_sequence(server):
    """Edits that split and join a CRLF pair next to multi-byte characters."""
    crlf = START.replace("\n", "\r\n")
    ed = server.editor

    async def go():
        uri = ed.open(f"crlf_{next(counter)}.py", crlf)
        await ed.diagnostics(uri)
        # Join line 6 to line 5 by deleting its CRLF, then split it again with a lone \r and a \n.
        ed.edit(uri, (5, 26), (6, 0), "")
        assert ed.texts[uri].splitlines()[5].startswith("def add_one(x_ref, o_ref):    s = ")
        await compare_with_fresh(ed, uri)
        ed.open(uri=uri, name="", text=ed.texts[uri])
        ed.edit(uri, (5, 26), (5, 26), "\r")
        ed.edit(uri, (6, 0), (6, 0), "\n")  # the lone \r and this \n make one CRLF
        assert ed.texts[uri] == crlf
        # After 漢: `    s = "` then é, 😀, 漢 are 9 + 1 + 2 + 1 UTF-16 units, 9 + 2 + 4 + 3 UTF-8 bytes.
        character = {"utf-16": 13, "utf-8": 18}[ed.encoding]
        ed.edit(uri, (6, character), (6, character), "😀\r\n")
        await compare_with_fresh(ed, uri)

    server.run(go())
