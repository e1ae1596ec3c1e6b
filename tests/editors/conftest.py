"""The real-editor tests: `pytest -m editors` (helpers in editor_helpers.py).

`bash .ci/editors-setup.sh VENV` installs what they need. Without it they skip and say what is
missing; with PALLAS_LS_REQUIRE_EDITORS=1 (set it in CI) a missing prerequisite fails instead.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "editors: real-editor tests (code-server + Chromium, Neovim); slow")
