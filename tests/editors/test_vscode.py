"""The VS Code extension in a real VS Code: code-server 4.139 (VS Code 1.139) driven by Chromium.

The .vsix is built from the current sources (`npm run package`) and installed into a fresh
code-server profile (`--install-extension`); code-server serves a workspace on 127.0.0.1 in its own
process group, and vscode_e2e.mjs drives Debian's chromium with playwright-core:

- quickfix: the PAL001 squiggle, the "Pallas LS: running" language-status item and the Problems
  count appear, Ctrl+. offers
  "pallas-ls (PAL001): ...", choosing it and saving leaves the fixed text on disk, no diagnostic;
- fixall: "Pallas: Fix All" fixes one file, `editor.codeActionsOnSave` with
  `source.fixAll.pallas-ls` fixes another on Ctrl+S;
- settings: `pallas-ls.severity` and `.ignore` apply at start and on change, without a restart;
- failure: with no usable server, a notification with "Open Settings" and "Show Logs";
- notebook: a real nbformat 4.5 .ipynb in VS Code's own notebook editor: the squiggle in the
  kernel's cell, its quick fix applied there, and the saved file's kernel cell fixed.

Screenshots of each step, logs and results: test-artifacts/vscode/<scenario>/.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from editor_helpers import (
    ARTIFACTS,
    CACHE,
    KERNEL_SOURCE,
    REPO,
    RETURN_LINE,
    artifacts_dir,
    check_fix_matches_title,
    check_fixed,
    is_pal001_fix,
    require,
    server_missing,
)

pytestmark = pytest.mark.editors

CLIENT = REPO / "vscode-client"
NODE24 = CACHE / "node24" / "bin"
CODE_SERVER = CACHE / "code-server" / "node_modules" / ".bin" / "code-server"
PLAYWRIGHT = CACHE / "playwright"
CHROMIUM = pathlib.Path("/usr/bin/chromium")
SCRIPT = pathlib.Path(__file__).with_name("vscode_e2e.mjs")
EXTENSION_ID = "pallas-ls.pallas-ls"

USER_SETTINGS = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoUpdate": False,
    "extensions.autoCheckUpdates": False,
    "extensions.ignoreRecommendations": True,
    "update.mode": "none",
    "chat.disableAIFeatures": True,
    "chat.commandCenter.enabled": False,
    "files.autoSave": "off",
    "editor.minimap.enabled": False,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
}


def _missing() -> list[str]:
    missing = []
    if not shutil.which("node") or not shutil.which("npm"):
        missing.append("node/npm on PATH")
    if not (NODE24 / "node").exists():
        missing.append(f"node 24 in {NODE24}")
    if not CODE_SERVER.exists():
        missing.append(f"code-server in {CODE_SERVER.parent.parent}")
    if not (PLAYWRIGHT / "node_modules" / "playwright-core").exists():
        missing.append(f"playwright-core in {PLAYWRIGHT}")
    if not CHROMIUM.exists():
        missing.append("Debian's chromium (/usr/bin/chromium)")
    if not (CLIENT / "node_modules" / ".bin" / "vsce").exists():
        missing.append("vscode-client/node_modules (npm ci)")
    return missing


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"code-server exited with {proc.returncode} before serving")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.25)
    raise AssertionError(f"code-server did not answer {url} within {timeout} s")


def _kill_group(proc: subprocess.Popen) -> None:
    """code-server forks (extension host, file watcher, the server): end its whole process group."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        # the leader is gone; make sure no child of the group lingers
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        return


@pytest.fixture(scope="module")
def vsix(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The .vsix built from the current sources with `npm run package` (copied out of the tree)."""
    require(_missing() + server_missing())
    # Another test run building at the same time would write the same dist/ and .vsix: take turns.
    with open(CLIENT / "node_modules" / ".pallas-ls-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # PYTHON: the interpreter whose pip builds bundled/libs (scripts/bundle.py; default python3).
        build = subprocess.run(
            ["npm", "run", "package"],
            cwd=CLIENT,
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "PYTHON": sys.executable},
        )
        output = build.stdout + build.stderr
        (artifacts_dir("vscode/build") / "vsce.log").write_text(output)
        assert build.returncode == 0, f"npm run package failed:\n{output}"
        assert "WARNING" not in output, output
        path = tmp_path_factory.mktemp("vsix") / "pallas-ls.vsix"
        shutil.copy(CLIENT / "pallas-ls.vsix", path)
    return path


def run_in_code_server(
    tmp_path: pathlib.Path,
    vsix: pathlib.Path,
    scenario: str,
    files: dict[str, str],
    settings: dict,
    path_env: str | None = None,
    extra: dict | None = None,
) -> tuple[dict, pathlib.Path]:
    """Install `vsix` into a fresh code-server, serve a workspace of `files` + `settings`, run `scenario`."""
    artifacts = artifacts_dir(f"vscode/{scenario}")
    timings: dict[str, float] = {}

    user_data = tmp_path / "user-data"
    extensions = tmp_path / "extensions"
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps(USER_SETTINGS, indent=2))
    env = dict(os.environ)
    env["PATH"] = f"{NODE24}{os.pathsep}{path_env if path_env is not None else env.get('PATH', '')}"
    env["EXTENSIONS_GALLERY"] = "{}"  # no marketplace: nothing leaves the machine
    for var in ("VSCODE_IPC_HOOK_CLI", "VSCODE_PID", "VSCODE_CWD"):
        env.pop(var, None)
    profile = ["--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]

    t = time.monotonic()
    install = subprocess.run(
        [str(CODE_SERVER), *profile, "--install-extension", str(vsix)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, f"--install-extension failed:\n{install.stdout}\n{install.stderr}"
    assert any(p.name.startswith(EXTENSION_ID) for p in extensions.iterdir()), install.stdout
    timings["install extension"] = time.monotonic() - t

    workspace = tmp_path / "workspace"
    (workspace / ".vscode").mkdir(parents=True)
    (workspace / ".vscode" / "settings.json").write_text(json.dumps(settings, indent=2))
    for name, text in files.items():
        (workspace / name).write_text(text)

    port = _free_port()
    log = open(artifacts / "code-server.log", "w")  # noqa: SIM115 - closed in the finally below
    proc = subprocess.Popen(
        [
            str(CODE_SERVER),
            "--auth",
            "none",
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            "--disable-getting-started-override",
            "--ignore-last-opened",
            *profile,
            str(workspace),
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # setsid: the test ends the whole group
    )
    try:
        t = time.monotonic()
        _wait_http(f"http://127.0.0.1:{port}/healthz", proc, timeout=120)
        timings["code-server up"] = time.monotonic() - t
        options = {
            "scenario": scenario,
            "url": f"http://127.0.0.1:{port}/?folder={workspace}",
            "files": list(files),
            "artifacts": str(artifacts),
            "playwright": str(PLAYWRIGHT),
            "chromium": str(CHROMIUM),
            "timeoutMs": 120_000,
            "settingsFile": str(workspace / ".vscode" / "settings.json"),
            **(extra or {}),
        }
        t = time.monotonic()
        run = subprocess.run(["node", str(SCRIPT), json.dumps(options)], capture_output=True, text=True, timeout=600)
        timings["browser session"] = time.monotonic() - t
    finally:
        _kill_group(proc)
        log.close()
        logs = user_data / "logs"
        if logs.exists():  # the extension host's and the "Pallas LS" output channel's logs
            shutil.copytree(logs, artifacts / "vscode-logs", dirs_exist_ok=True)

    (artifacts / "e2e.log").write_text(run.stderr + run.stdout)
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"vscode_e2e.mjs printed no result (exit {run.returncode}):\n{run.stderr[-4000:]}"
    result = json.loads(lines[-1][len("RESULT ") :])
    (artifacts / "result.json").write_text(json.dumps({**result, "timings": timings}, indent=2))
    if not result["ok"] and result.get("panelWithoutViews"):
        raise PanelWithoutViews("\n".join(result["steps"]))
    assert result["ok"], f"the VS Code session failed (screenshots in {artifacts}):\n" + "\n".join(result["steps"])
    return result, workspace


class PanelWithoutViews(Exception):
    """code-server's workbench came up with an empty panel: no output channel can be shown in it."""


def hostile_modules(tmp_path: pathlib.Path) -> tuple[dict[str, str], pathlib.Path]:
    """Workspace modules that `python -m pallas_ls` started in the workspace would import before
    pallas-ls's own code runs (issue 35); (files, marker that exists once one of them ran)."""
    marker = tmp_path / "workspace-module-ran"
    body = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    return {name: body for name in ("pallas_ls.py", "importlib.py", "runpy.py")}, marker


def test_quick_fix_in_code_server(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    settings = {"pallas-ls.interpreter": sys.executable, "pallas-ls.logLevel": "info"}
    hostile, marker = hostile_modules(tmp_path)
    result, workspace = run_in_code_server(
        tmp_path, vsix, "quickfix", {"kernels.py": KERNEL_SOURCE, **hostile}, settings
    )
    assert not marker.exists(), marker.read_text()

    # the language-status item: state, version (serverInfo) and interpreter
    assert "Pallas LS: running" in result["languageStatus"], result["languageStatus"]
    assert "pallas-ls " in result["languageStatus"] and sys.executable in result["languageStatus"], result[
        "languageStatus"
    ]
    assert re.search(r"[1-9]", result["problems"]), result["problems"]
    assert "PAL001" in result["problemsRow"] and "returns a value" in result["problemsRow"], result["problemsRow"]
    assert any(t.startswith("pallas-ls (PAL001): ") for t in result["titles"]), result["titles"]
    assert is_pal001_fix(result["chosen"]), result["chosen"]
    text = (workspace / "kernels.py").read_text()
    check_fixed(text)
    check_fix_matches_title(result["chosen"], text)


TPU_KERNEL = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def scale(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2.0


x = jnp.ones((2560, 1024), jnp.float32)
y = pl.pallas_call(
    scale,
    grid=(2,),
    in_specs=[pl.BlockSpec((1280, 1024), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((1280, 1024), lambda i: (i, 0)),
    out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
    compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
)(x)
"""


def test_vmem_hover_in_code_server(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    """The `tpuGeneration` setting from VS Code's settings, PAL102's squiggle and the VMEM hover
    (issue 37; the screenshot `*-vmem-hover.png` is the README's)."""
    settings = {"pallas-ls.interpreter": sys.executable, "pallas-ls.tpuGeneration": "v5e"}
    result, _ = run_in_code_server(tmp_path, vsix, "hover", {"tpu_kernel.py": TPU_KERNEL}, settings)
    hover = result["hover"]
    assert "VMEM on a TPU: at least 20 MiB of 16 MiB — over the limit" in hover, hover
    assert "(1280, 1024)" in hover and "double-buffered" in hover and "TPU v5e" in hover, hover


def test_fix_all_command_and_on_save(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    settings = {
        "pallas-ls.interpreter": sys.executable,
        "[python]": {"editor.codeActionsOnSave": {"source.fixAll.pallas-ls": "explicit"}},
    }
    files = {"by_command.py": KERNEL_SOURCE, "on_save.py": KERNEL_SOURCE}
    _result, workspace = run_in_code_server(tmp_path, vsix, "fixall", files, settings)
    for name in files:
        check_fixed((workspace / name).read_text())


def test_settings_reach_the_running_server(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    """pallas-ls.severity / .ignore: sent at start, and synced on change without a restart; a
    pallas-ls.logLevel change restarts the server once, without 'Sending notification ... failed'."""
    base = {"pallas-ls.interpreter": sys.executable}
    steps = [
        {"settings": {**base, "pallas-ls.severity": {"PAL001": "warning"}}, "expect": "squiggly-warning"},
        {"settings": {**base, "pallas-ls.ignore": ["PAL001"]}, "expect": None},
        {"settings": base, "expect": "squiggly-error"},
        # logLevel restarts the server; the old client is not told about the change (it is
        # stopping), so the warning squiggle can only come from the restarted server.
        {
            "settings": {**base, "pallas-ls.logLevel": "debug", "pallas-ls.severity": {"PAL001": "warning"}},
            "expect": "squiggly-warning",
        },
    ]
    result, _ = run_in_code_server(
        tmp_path, vsix, "settings", {"kernels.py": KERNEL_SOURCE}, steps[0]["settings"], extra={"settingsSteps": steps}
    )
    assert result["settingsSeen"] == [s["expect"] for s in steps]
    log = "".join(p.read_text() for p in (ARTIFACTS / "vscode" / "settings").rglob("Pallas LS.log"))
    # one start, and one restart for the logLevel change only (the rule settings did not restart it)
    assert log.count("Starting the server") == 2, f"expected exactly one restart:\n{log}"
    assert log.count("restarting the server") == 1, log
    assert "failed" not in log.lower(), f"the restart logged a failure:\n{log}"


def test_start_failure_is_reported(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    """No usable server: a notification with "Open Settings" and "Show Logs", never silence."""
    path_env = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (pathlib.Path(d) / "pallas-ls").exists()
    )
    # fromEnvironment: the server installed in the environment (none here), not the bundled one
    # (which would start with python3 from PATH).
    settings = {
        "pallas-ls.interpreter": str(tmp_path / "no-such-python"),
        "pallas-ls.importStrategy": "fromEnvironment",
    }
    for attempt in (1, 2, 3):  # a new session when the workbench's panel came up broken (see the .mjs)
        try:
            result, _ = run_in_code_server(
                tmp_path / f"session-{attempt}", vsix, "failure", {"kernels.py": KERNEL_SOURCE}, settings, path_env
            )
            break
        except PanelWithoutViews:
            if attempt == 3:
                raise
    assert "pallas-ls" in result["notification"], result["notification"]
    assert "Open Settings" in result["buttons"] and "Show Logs" in result["buttons"], result["buttons"]
    assert "no-such-python" in result["log"] and "not found on PATH" in result["log"], result["log"]


def test_bundled_server_without_any_pallas_ls(
    tmp_path: pathlib.Path, vsix: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default importStrategy (useBundled): the server shipped in the .vsix runs with a bare
    python3 (a fresh venv without pallas_ls, the only Python on PATH ahead of the system's), with no
    pallas-ls importable or on PATH anywhere; the squiggle, the fix and the status item appear."""
    bare = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    bare_python = bare / "bin" / "python3"
    probe = subprocess.run(
        [str(bare_python), "-c", "import pallas_ls"],
        env={"PATH": str(bare / "bin")},
        cwd=bare,
        capture_output=True,
        timeout=60,
    )
    assert probe.returncode != 0, "the bare venv must not see pallas_ls"
    for var in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONSTARTUP"):
        monkeypatch.delenv(var, raising=False)
    path_env = os.pathsep.join(
        [str(bare / "bin")]
        + [
            d
            for d in os.environ.get("PATH", "").split(os.pathsep)
            if d
            and not (pathlib.Path(d) / "pallas-ls").exists()
            and pathlib.Path(d).resolve() != pathlib.Path(sys.prefix, "bin").resolve()
        ]
    )
    settings = {"pallas-ls.logLevel": "info"}  # no interpreter, no path, no importStrategy: the defaults
    hostile, marker = hostile_modules(tmp_path)
    result, workspace = run_in_code_server(
        tmp_path, vsix, "quickfix", {"kernels.py": KERNEL_SOURCE, **hostile}, settings, path_env
    )
    assert not marker.exists(), marker.read_text()

    assert "Pallas LS: running" in result["languageStatus"], result["languageStatus"]
    # Which python3 is found depends on the PATH code-server gives the extension host (VS Code adds
    # the login shell's, e.g. pyenv shims ahead of ours): whichever it is, it has no pallas_ls.
    found = re.search(r"bundled, Python (\S+?)(?:Show Logs|$)", result["languageStatus"])
    assert found, result["languageStatus"]
    bare_check = subprocess.run(
        [found.group(1), "-c", "import pallas_ls"],
        cwd=bare,
        capture_output=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert bare_check.returncode != 0, f"{found.group(1)} can import pallas_ls: the bundled server was not needed"
    assert any(t.startswith("pallas-ls (PAL001): ") for t in result["titles"]), result["titles"]
    check_fixed((workspace / "kernels.py").read_text())


# KERNEL_SOURCE as a notebook, as Jupyter (nbformat 5.x) writes it: the imports, the kernel that
# returns its result (PAL001) and its launch in three code cells, after a markdown cell.
NOTEBOOK_CELLS = [
    ("markdown", "# Prototype\n\nA kernel that returns its result."),
    ("code", KERNEL_SOURCE.split("\n\n\n")[0]),
    ("code", KERNEL_SOURCE.split("\n\n\n")[1]),
    ("code", KERNEL_SOURCE.split("\n\n\n")[2].rstrip("\n")),
]


def notebook_json(cells: list[tuple[str, str]]) -> str:
    def cell(index: int, kind: str, source: str) -> dict:
        common = {"cell_type": kind, "id": f"cell-{index}", "metadata": {}, "source": source.splitlines(keepends=True)}
        return {**common, "execution_count": None, "outputs": []} if kind == "code" else common

    metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    return (
        json.dumps(
            {
                "cells": [cell(i, k, s) for i, (k, s) in enumerate(cells)],
                "metadata": metadata,
                "nbformat": 4,
                "nbformat_minor": 5,
            },
            indent=1,
        )
        + "\n"
    )


def test_quick_fix_in_a_notebook_cell(tmp_path: pathlib.Path, vsix: pathlib.Path) -> None:
    settings = {"pallas-ls.interpreter": sys.executable, "pallas-ls.logLevel": "info"}
    files = {"proto.ipynb": notebook_json(NOTEBOOK_CELLS)}
    result, workspace = run_in_code_server(tmp_path, vsix, "notebook", files, settings)

    assert result["squiggleCell"] == 2, result["steps"]  # the kernel's cell, not the launch's
    assert re.search(r"[1-9]", result["problems"]), result["problems"]
    # The launch is the file's 4th cell: VS Code syncs the markdown cell too, so it is counted.
    assert "cell 4, line" in result["problemsRow"], result["problemsRow"]
    assert is_pal001_fix(result["chosen"]), result["chosen"]
    assert RETURN_LINE.strip() not in result["cellText"] and "def add_one_kernel(x_ref, o_ref):" in result["cellText"]
    saved = json.loads((workspace / "proto.ipynb").read_text())
    sources = ["".join(c["source"]) for c in saved["cells"]]
    assert [c["cell_type"] for c in saved["cells"]] == [kind for kind, _ in NOTEBOOK_CELLS]
    assert sources[:2] == [s for _, s in NOTEBOOK_CELLS[:2]] and sources[3] == NOTEBOOK_CELLS[3][1]
    # The fixed kernel cell, put back into the module, is the file check_fixed expects.
    check_fixed("\n\n\n".join(sources[1:]) + "\n")
    check_fix_matches_title(result["chosen"], sources[2])
