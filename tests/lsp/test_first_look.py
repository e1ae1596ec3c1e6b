"""A newly opened big document: the kernel slice's findings first, then the whole file's (issue 6).

The first look (engine/slicing.py) is published before the whole file is parsed.  When the whole
analysis finds more (a syntax error outside the slice), push clients get a second publish and pull
clients a workspace/diagnostic/refresh; when it finds the same, nothing more is sent.  (Syntax
errors are shown only with `showSyntaxErrors`; without it, a syntax error elsewhere still changes
the diagnostics: a file that does not parse gets no fixes.)
"""

from __future__ import annotations

import pytest
from lsp_harness import KERNEL, capabilities, editor_session, wait_for

pytestmark = pytest.mark.asyncio

# Enough unrelated code that the kernel slice is a small part of the file.
UNRELATED = "".join(
    f'''

def unrelated_{i}(values):
    """Nothing to do with kernels."""
    return sum(v * {i} for v in values)
'''
    for i in range(300)
)
BIG = KERNEL + UNRELATED
BROKEN_ELSEWHERE = KERNEL + UNRELATED + "\n\ndef broken(:\n    pass\n"

CLIENTS = [("visual-studio-code", {}), ("neovim", {"refresh": True})]


def codes(diagnostics) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_same_findings_are_sent_once(tmp_path, client, extra):
    async with editor_session(tmp_path, capabilities(client, **extra), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("big.py", BIG)
        assert codes(await ed.diagnostics(uri)) == ["PAL001"]
        await ed.hover(uri, 0, 0)  # waits for the whole analysis
        if ed.pull:
            assert ed.client.diagnostic_refresh_count == 0
        else:
            assert [codes(p.diagnostics) for p in ed.client.published if p.uri == uri] == [["PAL001"]]


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_a_syntax_error_outside_the_slice_follows(tmp_path, client, extra):
    options = {"debounce": 0, "showSyntaxErrors": True}
    async with editor_session(tmp_path, capabilities(client, **extra), initialization_options=options) as ed:
        uri = ed.open("big.py", BROKEN_ELSEWHERE)
        first = codes(await ed.diagnostics(uri))
        assert "PAL001" in first
        if ed.pull:
            await ed.hover(uri, 0, 0)
            await wait_for(lambda: ed.client.diagnostic_refresh_count > 0, "workspace/diagnostic/refresh")
            assert codes(await ed.diagnostics(uri)) == ["PAL000", "PAL001"]
        else:
            await wait_for(
                lambda: (
                    [codes(p.diagnostics) for p in ed.client.published if p.uri == uri]
                    == [["PAL001"], ["PAL000", "PAL001"]]
                ),
                "the first look, then the whole file's findings",
            )


@pytest.mark.parametrize("client, extra", CLIENTS, ids=["push", "pull"])
async def test_fixes_are_withdrawn_when_the_file_does_not_parse(tmp_path, client, extra):
    async with editor_session(tmp_path, capabilities(client, **extra), initialization_options={"debounce": 0}) as ed:
        uri = ed.open("big.py", BROKEN_ELSEWHERE)
        await ed.diagnostics(uri)
        await ed.hover(uri, 0, 0)  # waits for the whole analysis
        if ed.pull:
            await wait_for(lambda: ed.client.diagnostic_refresh_count > 0, "workspace/diagnostic/refresh")
        else:
            await wait_for(lambda: len([p for p in ed.client.published if p.uri == uri]) == 2, "a second publish")
        [diagnostic] = await ed.diagnostics(uri)
        assert [fix["title"] for fix in diagnostic.data["fixes"]] == ["Disable PAL001 for this line"]
