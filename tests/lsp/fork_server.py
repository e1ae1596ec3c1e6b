"""Language servers for the tests, forked from one process that imported the server once (tests only).

A test session starts its own server process, as an editor does.  Most of a start is imports
(lsprotocol alone takes ~0.45 s, the whole server ~0.85 s of CPU) and the suite starts ~250 servers,
so each xdist worker keeps one *zygote*: a process that imported `pallas_ls.lsp` and loaded the
rules, then waits on a Unix socket.  `SERVER_COMMAND` (lsp_harness) runs this file as a *client*:
it hands its own stdin, stdout and stderr to the zygote, which forks; the child becomes the server
on those streams (`python -m pallas_ls.lsp ARGS`, from the client's directory and environment),
and the client exits with the child's exit status.  So a test still talks LSP to a process over
its stdio, kills it with `kill()`, and reads its exit code; only the imports are shared.  What
runs at import time is tested by starting the real command (test_process.py, the workspace-import
tests): they do not use this.

    python fork_server.py zygote SOCKET     (lsp_harness starts it)
    python fork_server.py client SOCKET [SERVER ARGS...]

PALLAS_LS_TEST_FORK=0 starts every server the plain way.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import sys
import time
import traceback

# How long a client waits for its zygote to listen (it starts with the first test of a worker).
CONNECT_DEADLINE_S = 30.0


def client(path: str, argv: list[str]) -> int:
    """Become a server forked by the zygote at `path`, on this process's stdio; its exit status."""
    connection = _connect(path)
    request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(connection, [json.dumps(request).encode()], [0, 1, 2])
    for fd in (0, 1, 2):  # the server holds them now: the test sees EOF when the server ends
        os.close(fd)
    reply = b""
    while chunk := connection.recv(64):
        reply += chunk
    code = int(reply) if reply.strip() else 1
    if code < 0:  # the server was killed by a signal: so is this process, as if it were the server
        os.kill(os.getpid(), -code)
    return code


def _connect(path: str) -> socket.socket:
    deadline = time.monotonic() + CONNECT_DEADLINE_S
    while True:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(path)
            return connection
        except (FileNotFoundError, ConnectionRefusedError):
            connection.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def zygote(path: str) -> None:
    """Import the server, then fork one per connection (each until its client goes away)."""
    from pallas_ls.lsp import __main__ as entry
    from pallas_ls.rule_runner import load_rules

    load_rules()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".tmp")
    os.rename(path + ".tmp", path)  # clients connect once it listens
    listener.listen(64)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the selector through the pipe
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    children: dict[int, socket.socket] = {}  # pid -> its client's connection
    parent = os.getppid()
    while os.getppid() == parent:  # a worker that died without stopping it: stop too
        for key, _ in selector.select(timeout=1.0):
            if key.fileobj is listener:
                connection, _ = listener.accept()
                pid = _fork_server(entry, connection, (listener, selector, wake_read, wake_write))
                if pid:
                    children[pid] = connection
                    selector.register(connection, selectors.EVENT_READ, pid)
            elif key.fileobj == wake_read:
                os.read(wake_read, 512)
                _reap(children, selector)
            else:  # the client's end closed: it was killed, and its server goes with it
                _kill(key.data)
                selector.unregister(key.fileobj)


def _fork_server(entry, connection: socket.socket, inherited: tuple) -> int:
    """Fork the server for one client: 0 in the child, which never returns."""
    message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    request = json.loads(message)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        for fd in fds:
            os.close(fd)
        return pid
    code = 1
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        listener, selector, wake_read, wake_write = inherited
        selector.close()
        listener.close()
        connection.close()
        os.close(wake_read)
        os.close(wake_write)
        for target, fd in zip((0, 1, 2), fds, strict=True):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [entry.__file__, *request["argv"]]
        code = entry.run(request["argv"])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        traceback.print_exc()
    finally:
        os._exit(code)


def _reap(children: dict[int, socket.socket], selector: selectors.BaseSelector) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = children.pop(pid, None)
        if connection is None:
            continue
        with contextlib.suppress(KeyError, ValueError):
            selector.unregister(connection)
        with contextlib.suppress(OSError):
            connection.sendall(str(os.waitstatus_to_exitcode(status)).encode())
        connection.close()


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "zygote":
        zygote(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "client":
        sys.exit(client(sys.argv[2], sys.argv[3:]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
