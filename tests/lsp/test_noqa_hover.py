"""Hover over a rule code in a `# noqa:` comment shows the rule's docs; elsewhere hover is as before."""

from __future__ import annotations

import pytest
from lsp_harness import KERNEL, capabilities, editor_session
from lsprotocol import types

from pallas_ls.rules import RULES

pytestmark = pytest.mark.asyncio

TEXT = KERNEL.replace("    return x_ref[...] + 1", "    return x_ref[...] + 1  # noqa: PAL003, PAL001") + (
    "# pallas-ls: noqa: PAL002\n# noqa: E501\n"
)
RETURN_LINE = next(i for i, line in enumerate(TEXT.splitlines()) if "# noqa: PAL003" in line)
DEF_LINE = RETURN_LINE - 1
FILE_NOQA_LINE = TEXT.splitlines().index("# pallas-ls: noqa: PAL002")


def column_of(text: str, line: int, needle: str) -> int:
    return text.splitlines()[line].index(needle)


async def test_hover_on_noqa_codes(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim")) as ed:
        uri = ed.open("kernel.py", TEXT)
        at = column_of(TEXT, RETURN_LINE, "PAL001")
        hover = await ed.hover(uri, RETURN_LINE, at + 2)
        assert hover is not None and hover.contents.kind == types.MarkupKind.Markdown
        rule = RULES["PAL001"]
        assert rule.summary in hover.contents.value and rule.docs.splitlines()[0] in hover.contents.value
        assert hover.range == types.Range(
            start=types.Position(line=RETURN_LINE, character=at), end=types.Position(line=RETURN_LINE, character=at + 6)
        )
        other = await ed.hover(uri, RETURN_LINE, column_of(TEXT, RETURN_LINE, "PAL003"))
        assert other is not None and RULES["PAL003"].summary in other.contents.value
        file_level = await ed.hover(uri, FILE_NOQA_LINE, column_of(TEXT, FILE_NOQA_LINE, "PAL002") + 1)
        assert file_level is not None and RULES["PAL002"].summary in file_level.contents.value


async def test_hover_elsewhere_is_unchanged(tmp_path):
    async with editor_session(tmp_path, capabilities("neovim")) as ed:
        uri = ed.open("kernel.py", TEXT)
        assert await ed.hover(uri, RETURN_LINE, 6) is None  # `return`: the body, no noqa code
        assert await ed.hover(uri, RETURN_LINE, column_of(TEXT, RETURN_LINE, "noqa")) is None
        foreign = TEXT.splitlines().index("# noqa: E501")
        assert await ed.hover(uri, foreign, 9) is None  # not one of ours
        kernel = await ed.hover(uri, DEF_LINE, 6)  # the def line: the kernel hover as before
        assert kernel is not None and "`add_one`" in kernel.contents.value
