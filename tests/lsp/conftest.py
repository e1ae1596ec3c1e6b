"""Fixtures for the language server tests (the harness itself is in lsp_harness.py).

Async tests use pytest-asyncio in strict mode: each test module marks itself with
`pytestmark = pytest.mark.asyncio` and fixtures are `pytest_asyncio.fixture`s.
"""

from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator

import pytest_asyncio
from lsp_harness import Editor, capabilities, editor_session

CLIENTS = {
    "vscode": lambda: capabilities("visual-studio-code"),
    "neovim": lambda: capabilities("neovim"),
}


@pytest_asyncio.fixture(params=sorted(CLIENTS))
async def editor(request, tmp_path: pathlib.Path) -> AsyncIterator[Editor]:
    """A session with each recorded client: VS Code 1.65 (push diagnostics, UTF-16, documentChanges)
    and Neovim 0.11 (pull diagnostics, UTF-8, plain `changes`).  No debounce, to keep tests quick."""
    async with editor_session(tmp_path, CLIENTS[request.param](), initialization_options={"debounce": 0}) as ed:
        yield ed
