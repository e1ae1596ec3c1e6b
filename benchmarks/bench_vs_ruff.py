#!/usr/bin/env python
"""pallas-ls against ruff, side by side in one run (issue 6's five targets), printed as ratios.

    python benchmarks/bench_vs_ruff.py            # all targets
    python benchmarks/bench_vs_ruff.py --edits 60 --only cli,edit

1. `pallas-ls check DIR` vs `ruff check --isolated --no-cache --select ALL DIR` on the installed jax
   package (best of --repeat, both cold: pallas-ls with --no-cache).
2. Language server, jax's largest Pallas file (jax/_src/pallas/mosaic/lowering.py): the time from an
   incremental didChange to its publishDiagnostics, p50 and p95 by kind of edit and overall, for
   `pallas-ls serve` and `ruff server` on the same edits, driven by the same minimal LSP client (push
   diagnostics).  Five kinds as typing produces them, --edits of each, each followed by its undo: a
   space appended to a line; a letter inserted into a name; an unclosed `(` appended to a line; a
   space at column 0 of an indented line; a space and three double quotes appended to a line
   (a string left open).
3. didOpen of that file to its first diagnostics, both servers.
4. Resident memory of one pallas-ls server with every Pallas-using file of the jax package open.
5. A freshly opened kernel file's diagnostics in a running server vs running the file under JAX
   until it raises the same error (medians: --repeat runs under JAX, 10 x --repeat files opened).

ruff is taken from PATH, or installed into a temporary virtual environment (pip, PyPI).  Machines
here are shared: compare the ratios, which both sides of one run share, not the absolute times.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import pathlib
import platform
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = pathlib.Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------- LSP client
class LspClient:
    """Just enough LSP over stdio to time diagnostics: requests, notifications, push diagnostics."""

    def __init__(self, command: list[str], cwd: str):
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self._next_id = 0
        self._responses: dict[int, queue.Queue] = {}
        self.diagnostics: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request from the server: answer null
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message:
                self._responses.setdefault(message["id"], queue.Queue()).put(message)
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics.put((time.perf_counter(), message["params"]))

    def request(self, method: str, params: dict, timeout: float = 60) -> dict:
        self._next_id += 1
        waiter = self._responses.setdefault(self._next_id, queue.Queue())
        self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return waiter.get(timeout=timeout)

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, root: str, capabilities: dict | None = None) -> None:
        capabilities = capabilities or {
            "textDocument": {"publishDiagnostics": {"versionSupport": True}, "synchronization": {"didSave": True}},
            "general": {"positionEncodings": ["utf-16"]},
        }
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": pathlib.Path(root).as_uri(),
                "capabilities": capabilities,
                "workspaceFolders": None,
            },
        )
        self.notify("initialized", {})

    def open(self, path: str, text: str) -> str:
        uri = pathlib.Path(path).as_uri()
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}
        )
        return uri

    def wait_diagnostics(self, uri: str, after: float, version: int | None = None, timeout: float = 30) -> float:
        """The time of the first diagnostics for `uri` (and `version`, when the server sends it)."""
        deadline = time.perf_counter() + timeout
        while True:
            stamp, params = self.diagnostics.get(timeout=max(deadline - time.perf_counter(), 0.01))
            if params["uri"] != uri or stamp < after:
                continue
            if version is not None and params.get("version") not in (None, version):
                continue
            return stamp

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=10)
            self.notify("exit", {})
            self.process.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a benchmark cleans up whatever happens
            self.process.kill()


# ------------------------------------------------------------------------------- helpers
def jax_dir() -> pathlib.Path:
    spec = importlib.util.find_spec("jax")
    if spec is None or not spec.origin:
        sys.exit("jax is not installed (pip install jax): it provides the code to check")
    return pathlib.Path(spec.origin).parent


def ruff_command() -> list[str]:
    found = shutil.which("ruff")
    if found:
        return [found]
    venv = pathlib.Path(tempfile.gettempdir()) / "pallas-ls-bench-ruff"
    if not (venv / "bin" / "ruff").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "ruff"], check=True)
    return [str(venv / "bin" / "ruff")]


def best_time(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


PALLAS_LS_SERVER = [sys.executable, "-m", "pallas_ls", "serve"]


def compile_pallas_ls() -> None:
    """Byte-compile pallas-ls first, as installing its wheel does: from an editable checkout on a
    machine with PYTHONDONTWRITEBYTECODE set (this one), every run would compile its ~60 modules
    again (0.2-0.3 s a start, measured 2026-12-06), a cost no installed copy pays."""
    import pallas_ls

    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.dirname(pallas_ls.__file__)], check=True)


# ------------------------------------------------------------------------------- targets
def target_cli(ruff: list[str], repeat: int) -> dict:
    root = str(jax_dir())
    ours = best_time(
        [sys.executable, "-m", "pallas_ls", "check", "--isolated", "--no-cache", "--exit-zero", root], repeat
    )
    theirs = best_time([*ruff, "check", "--isolated", "--no-cache", "--select", "ALL", "--exit-zero", root], repeat)
    return {"pallas-ls s": ours, "ruff s": theirs, "ratio": ours / theirs, "target": "<= 1"}


def target_tree(ruff: list[str], repeat: int, directory: str | None, option: str) -> dict:
    """`check` of a directory where Pallas is everywhere (the dense corpus: every file uses it; a
    kernel library: tokamax), cold and with a warm cache, pallas-ls and ruff in the same run.

    Cold: both with --no-cache.  Warm: each with its own cache in a fresh temporary directory,
    filled by one run first, then nothing changed (the best of --repeat).  The targets compare
    pallas-ls warm with ruff cold (issue 33: <= 0.5); ruff warm is shown beside it."""
    if not directory or not os.path.isdir(directory):
        sys.exit(f"this target needs {option} DIR (see scripts/pallas_dense_corpus.sh)")
    files = [p for p in pathlib.Path(directory).rglob("*.py")]
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    ours = [sys.executable, "-m", "pallas_ls", "check", "--isolated", "--exit-zero"]
    theirs = [*ruff, "check", "--isolated", "--select", "ALL", "--exit-zero"]
    report: dict = {"files": len(files), "lines": lines}
    report["pallas-ls cold s"] = best_time([*ours, "--no-cache", directory], repeat)
    report["ruff cold s"] = best_time([*theirs, "--no-cache", directory], repeat)
    with tempfile.TemporaryDirectory() as ours_cache, tempfile.TemporaryDirectory() as ruff_cache:
        warm_ours = [*ours, "--cache-dir", ours_cache, directory]
        warm_theirs = [*theirs, "--cache-dir", ruff_cache, directory]
        best_time(warm_ours, 1)
        best_time(warm_theirs, 1)
        report["pallas-ls warm s"] = best_time(warm_ours, repeat)
        report["ruff warm s"] = best_time(warm_theirs, repeat)
    report["cold ratio"] = report["pallas-ls cold s"] / report["ruff cold s"]
    report["warm ratio (vs ruff cold)"] = report["pallas-ls warm s"] / report["ruff cold s"]
    report["warm ratio (vs ruff warm)"] = report["pallas-ls warm s"] / report["ruff warm s"]
    report["target"] = "cold <= 1, warm (vs ruff cold) <= 0.5"
    return report


EDIT_KINDS = (
    "space at end of line",
    "letter in a name",
    "unclosed ( at end of line",
    "space at column 0",
    "string left open",
)


def typing_edits(lines: list[str], per_kind: int) -> list[tuple[str, int, int, str]]:
    """(kind, line, column, inserted text): `per_kind` edits of each kind as typing produces them,
    spread over the file deterministically (the same for both servers)."""
    edits = []
    for kind in EDIT_KINDS:
        found, step = 0, 0
        while found < per_kind and step < 50 * len(lines):
            step += 1
            line = (step * 7919 + len(edits) * 104729) % len(lines)
            text = lines[line]
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            if kind == "space at end of line":
                edit = (line, len(text), " ")
            elif kind == "letter in a name":
                name = re.search(r"[A-Za-z_]\w*", text)
                if name is None:
                    continue
                edit = (line, name.start() + 1, "x")
            elif kind == "unclosed ( at end of line":
                edit = (line, len(text), "(")
            elif kind == "space at column 0":
                if not text.startswith(" "):
                    continue
                edit = (line, 0, " ")
            else:
                edit = (line, len(text), ' """')
            edits.append((kind, *edit))
            found += 1
    return edits


def _edit_latencies(command: list[str], path: str, per_kind: int) -> tuple[tuple[float, float], dict[str, list[float]]]:
    """didOpen to first diagnostics and to a code action's answer; then, by kind, the latency of
    each typing edit and (under "undo") of the didChange that takes it back, 50 ms apart."""
    text = pathlib.Path(path).read_text()
    client = LspClient(command, cwd=str(pathlib.Path(path).parent))  # as an editor would start it
    try:
        client.initialize(str(pathlib.Path(path).parent))
        start = time.perf_counter()
        uri = client.open(path, text)
        # A code action request right behind the didOpen is answered once the whole file is
        # analysed (pallas-ls publishes the kernel slice's findings before that: see slicing.py).
        complete = threading.Thread(
            target=lambda: client.request(
                "textDocument/codeAction",
                {
                    "textDocument": {"uri": uri},
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "context": {"diagnostics": []},
                },
            ),
            daemon=True,
        )
        complete.start()
        opened = client.wait_diagnostics(uri, start) - start
        complete.join(timeout=60)
        analysed = time.perf_counter() - start
        latencies: dict[str, list[float]] = {kind: [] for kind in (*EDIT_KINDS, "undo")}
        version = 1
        for kind, line, column, inserted in typing_edits(text.splitlines(), per_kind):
            at = {"line": line, "character": column}
            after = {"line": line, "character": column + len(inserted)}  # ASCII: UTF-16 units = characters
            for change, bucket in (
                ({"range": {"start": at, "end": at}, "text": inserted}, kind),
                ({"range": {"start": at, "end": after}, "text": ""}, "undo"),
            ):
                version += 1
                start = time.perf_counter()
                client.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
                )
                latencies[bucket].append(client.wait_diagnostics(uri, start, version) - start)
                time.sleep(0.05)  # a typist, not a flood: each edit is measured on its own
        return (opened, analysed), latencies
    finally:
        client.close()


def _p95(xs: list[float]) -> float:
    return sorted(xs)[max(math.ceil(len(xs) * 0.95) - 1, 0)]


def target_edit(ruff: list[str], per_kind: int) -> dict:
    path = str(jax_dir() / "_src" / "pallas" / "mosaic" / "lowering.py")
    (ours_open, ours_analysed), ours = _edit_latencies(PALLAS_LS_SERVER, path, per_kind)
    (theirs_open, theirs_analysed), theirs = _edit_latencies([*ruff, "server"], path, per_kind)
    ours["all"] = [x for kind in (*EDIT_KINDS, "undo") for x in ours[kind]]
    theirs["all"] = [x for kind in (*EDIT_KINDS, "undo") for x in theirs[kind]]
    edits = {}
    for kind in ours:
        edits[kind] = {
            "n": len(ours[kind]),
            "p50 ms": {"pallas-ls": statistics.median(ours[kind]) * 1e3, "ruff": statistics.median(theirs[kind]) * 1e3},
            "p95 ms": {"pallas-ls": _p95(ours[kind]) * 1e3, "ruff": _p95(theirs[kind]) * 1e3},
            "p50 ratio": statistics.median(ours[kind]) / statistics.median(theirs[kind]),
            "p95 ratio": _p95(ours[kind]) / _p95(theirs[kind]),
        }
    return {
        "file": path,
        "lines": len(pathlib.Path(path).read_text().splitlines()),
        "edit -> diagnostics": edits,
        "edit target": "all: p50 and p95 ratios <= 1",
        "open ms": {"pallas-ls": ours_open * 1e3, "ruff": theirs_open * 1e3},
        "open ratio": ours_open / theirs_open,
        "open target": "<= 1",
        # Not a target: didOpen until a code action is answered (the whole file analysed).
        "open to code action ms": {"pallas-ls": ours_analysed * 1e3, "ruff": theirs_analysed * 1e3},
    }


def target_memory() -> dict:
    root = jax_dir()
    files = [p for p in root.rglob("*.py") if "pallas" in p.read_text(errors="replace")]
    client = LspClient(PALLAS_LS_SERVER, cwd=tempfile.gettempdir())
    try:
        client.initialize(str(root))
        for path in files:
            start = time.perf_counter()
            uri = client.open(str(path), path.read_text(errors="replace"))
            with contextlib.suppress(queue.Empty):
                client.wait_diagnostics(uri, start, timeout=60)
        return {"open files": len(files), "rss MB": client.rss_mb(), "target": "< 300"}
    finally:
        client.close()


KERNEL_FILE = """\
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_one(x_ref, o_ref):
    return x_ref[...] + 1


x = jnp.zeros((8, 128), jnp.float32)
pl.pallas_call(add_one, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
"""


def _kernel_file(index: int) -> str:
    """A different kernel file each time (different names), so that nothing one open learnt can
    answer another."""
    return KERNEL_FILE.replace("add_one", f"add_one_{index}")


PULL_CAPABILITIES = {
    "textDocument": {"diagnostic": {"dynamicRegistration": False}, "synchronization": {"didSave": True}},
    "workspace": {"diagnostics": {"refreshSupport": True}},
    "general": {"positionEncodings": ["utf-16"]},
}


def _open_latencies(tmp: pathlib.Path, opens: int, on_disk: bool, pull: bool) -> list[float]:
    """Seconds from didOpen to diagnostics for `opens` kernel files opened one by one in a running
    server.  on_disk: the files are in the workspace when the server starts (the server indexed
    them, as it does a project's files); else each is a new file the server never saw.  pull: the
    client asks for the diagnostics right after didOpen (as VS Code does), else they are pushed."""
    folder = tmp / f"{'workspace' if on_disk else 'new'}-{'pull' if pull else 'push'}"
    folder.mkdir()
    paths = [folder / f"kernel_{index}.py" for index in range(opens + 1)]
    if on_disk:
        for index, path in enumerate(paths):
            path.write_text(_kernel_file(index))
    client = LspClient(PALLAS_LS_SERVER, cwd=str(folder))
    latencies = []
    try:
        client.initialize(str(folder), PULL_CAPABILITIES if pull else None)
        time.sleep(2.0)  # the server is already running (and has indexed its workspace) when the user opens the file
        for index, path in enumerate(paths):
            start = time.perf_counter()
            uri = client.open(str(path), _kernel_file(index))
            if pull:
                response = client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
                opened = time.perf_counter()
                assert len(response["result"]["items"]) == 1, response
            else:
                opened = client.wait_diagnostics(uri, start)
            if index:  # the first open warms the server up
                latencies.append(opened - start)
            time.sleep(0.05)  # the user does not open a file every millisecond: the server idles in between
    finally:
        client.close()
    return latencies


def target_vs_jax(runs: int) -> dict:
    """Medians: `runs` runs of a kernel file under JAX; `10 * runs` kernel files opened one by one
    in a running server: files of its workspace and files it never saw, diagnostics pushed and pulled."""
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "kernel.py"
        path.write_text(KERNEL_FILE)
        under_jax = []
        for _ in range(runs):
            start = time.perf_counter()
            run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True)
            under_jax.append(time.perf_counter() - start)
            assert "should return None" in run.stderr, run.stderr[-500:]
        jax_s = statistics.median(under_jax)
        report: dict = {"jax s": jax_s}
        for on_disk, pull in ((True, False), (True, True), (False, False), (False, True)):
            ours_s = statistics.median(_open_latencies(pathlib.Path(tmp), 10 * runs, on_disk, pull))
            case = f"{'workspace' if on_disk else 'new'} file, {'pull' if pull else 'push'}"
            report[case] = {"pallas-ls ms": ours_s * 1e3, "speed-up": jax_s / ours_s}
    report["target"] = ">= 1000"
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--edits", type=int, default=10, help="edits of each kind (each followed by its undo)")
    parser.add_argument("--only", default="cli,edit,memory,jax", help="any of cli,edit,memory,jax,dense,library")
    parser.add_argument("--corpus", help="for `dense`: a directory of Pallas-using files")
    parser.add_argument("--library", help="for `library`: a kernel library's checkout (tokamax)")
    args = parser.parse_args()
    only = set(args.only.split(","))
    compile_pallas_ls()
    ruff = ruff_command() if only & {"cli", "edit", "dense", "library"} else []
    report = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
            "load": os.getloadavg(),
        }
    }
    if ruff:
        report["ruff"] = subprocess.run([*ruff, "--version"], capture_output=True, text=True).stdout.strip()
    if "cli" in only:
        report["1 check jax package"] = target_cli(ruff, args.repeat)
    if "dense" in only:
        report["1b check Pallas-dense code"] = target_tree(ruff, args.repeat, args.corpus, "--corpus")
    if "library" in only:
        report["1c check a kernel library"] = target_tree(ruff, args.repeat, args.library, "--library")
    if "edit" in only:
        report["2-3 server edit/open"] = target_edit(ruff, args.edits)
    if "memory" in only:
        report["4 memory"] = target_memory()
    if "jax" in only:
        report["5 vs jax"] = target_vs_jax(args.repeat)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
