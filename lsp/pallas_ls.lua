-- pallas-ls: the JAX Pallas kernel linter as a language server, for Neovim 0.11+.
--
-- Use it by putting this repository on 'runtimepath' (or copying this file to
-- ~/.config/nvim/lsp/pallas_ls.lua), then in init.lua:
--
--   vim.lsp.enable('pallas_ls')
--
-- Override any field with vim.lsp.config, e.g. a project virtualenv's server:
--
--   vim.lsp.config('pallas_ls', { cmd = { '.venv/bin/pallas-ls', 'serve' } })
--
-- (Not `python -m pallas_ls`: Neovim starts the server in the project's root, and `python -m` would
-- import a `pallas_ls.py` or `importlib.py` found there. `python -P -m pallas_ls` is safe on 3.11+.)
--
-- `settings['pallas-ls']` is what the server reads (workspace/configuration section `pallas-ls`),
-- over `[tool.pallas-ls]` in the nearest pyproject.toml: select, ignore, severity, exclude,
-- tpuGeneration (the TPU your kernels compile for: 'v5e', 'v6e'; the TPU rules use its limits),
-- showSyntaxErrors. Quick fixes are code actions (`gra` in 0.11); fix-all is the code action kind
-- `source.fixAll.pallas-ls`.
---@type vim.lsp.Config
return {
  cmd = { 'pallas-ls', 'serve' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt', '.git' },
  settings = {
    ['pallas-ls'] = {
      -- select = { 'PAL001', 'PAL002' },
      -- ignore = {},
      -- severity = { PAL002 = 'warning' },
      -- tpuGeneration = 'v5e',
      showSyntaxErrors = false,
    },
  },
}
