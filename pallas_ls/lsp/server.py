"""The pygls wiring: the server object, its handlers (handlers/), process start-up, logging.

`main(args)` is what `pallas-ls serve` and `python -m pallas_ls.lsp` call, with an argparse
namespace holding `stdio`, `tcp`, `host`, `port`, `log_file` and `log_level`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import sys
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..rule_runner import load_rules
from . import handlers
from .handlers.notebooks import SYNC as NOTEBOOK_SYNC
from .pipeline import Pipeline
from .pygls_adapter import PallasProtocol, keep_tcp_server, new_stop_event
from .session import Session
from .transport import serve, serve_stream

log = logging.getLogger("pallas_ls.lsp")

NAME = "pallas-ls"


class PallasServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            NAME,
            __version__,
            protocol_cls=PallasProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
        )
        self.session = Session(self)
        self.pipeline = Pipeline(self.session)
        self.exit_code = 0

    def report_server_error(self, error: Exception, source: Any) -> None:
        # Log instead of a pop-up per failure; our handlers already catch their own errors.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)

    # pygls' transports, with `transport.serve_stream` / `transport.serve` as the message loop (see there for why).
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        stop_event = new_stop_event(self)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve_stream(stop_event, stdin or sys.stdin.buffer, self.protocol))
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except KeyboardInterrupt:
            pass
        except SystemExit as exc:  # `exit`: 0 after `shutdown`, 1 without (LSP); pygls' loop dropped it
            self.exit_code = exc.code if isinstance(exc.code, int) else 0
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int) -> None:
        new_stop_event(self)

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            # Issue 15: each connection is a session of its own (its own server: documents,
            # settings, workers, writer), so nothing of one client ever reaches another, and a
            # connection that closes (or sends `exit`) ends its own session, not the listener.
            server = create_server()
            stop_event = new_stop_event(server)
            server.protocol.connection_only = True  # type: ignore[attr-defined]  # our flag on pygls' protocol object
            server.protocol.set_writer(writer)
            log.info("a client connected")
            try:
                await serve(stop_event, reader, server.protocol)
            except (ConnectionError, OSError) as exc:
                log.info("a connection failed: %s", exc)
            finally:
                server.session.stop()
                server.shutdown()
                writer.close()
                log.info("a client disconnected")

        async def listen() -> None:
            tcp_server = await asyncio.start_server(connection, host, port)
            keep_tcp_server(self, tcp_server)
            async with tcp_server:
                await tcp_server.serve_forever()

        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(listen())


def create_server() -> PallasServer:
    server = PallasServer()
    handlers.register(server, server.session, server.pipeline)
    return server


# ------------------------------------------------------------------------------- start-up
LOG_LEVELS = ("debug", "info", "warning", "error")


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of `pallas-ls serve` (shared with `python -m pallas_ls.lsp`)."""
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="speak LSP over stdin/stdout (the default)")
    transport.add_argument("--tcp", action="store_true", help="listen on a TCP port instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind with --tcp (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="port to listen on with --tcp (default: 2087)")
    parser.add_argument("--log-file", default=None, help="write the log here instead of stderr")
    parser.add_argument("--log-level", default="info", choices=LOG_LEVELS, type=str.lower, help="default: info")
    return parser


def configure_logging(log_file: str | None, level_name: str | None) -> None:
    level = getattr(logging, (level_name or "info").upper(), logging.INFO)
    handler: logging.Handler = (
        logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level)
    # pygls logs whole messages (document text included) at INFO and DEBUG: keep it quiet unless
    # the user asked for debug output.
    logging.getLogger("pygls").setLevel(logging.DEBUG if level <= logging.DEBUG else logging.WARNING)


def main(args: argparse.Namespace) -> int:
    configure_logging(getattr(args, "log_file", None), getattr(args, "log_level", "info"))
    # A long-lived process holding big syntax trees: with the default threshold (700 allocations)
    # the collector walks them many times per keystroke.  Measured on jax's lowering.py: median
    # edit analysis 11.3 ms -> 9.0 ms, p95 19.8 ms -> 11.2 ms with 20,000.
    gc.set_threshold(20_000, 20, 100)
    load_rules()  # before the first document arrives (a `check` from cache never imports them)
    server = create_server()
    if getattr(args, "tcp", False):
        host = getattr(args, "host", None) or "127.0.0.1"
        port = int(getattr(args, "port", None) or 2087)
        log.info("pallas-ls %s listening on %s:%d", __version__, host, port)
        server.start_tcp(host, port)
        return 0
    log.info("pallas-ls %s on stdio", __version__)
    # Anything printed by accident must not corrupt the protocol stream on stdout.
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr
    server.start_io(sys.stdin.buffer, stdout)
    _exit_now(server.exit_code)
    return server.exit_code  # (not reached)


def _exit_now(code: int) -> None:
    """End the process at once after `exit` (issue 35: a server was still running 5 s after
    `shutdown` and `exit`).  An analysis still running on a worker thread holds the GIL while it
    parses, and finalising the interpreter frees every tree of the session one object at a time;
    neither is of use to anyone now.  The streams and logs are flushed first."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
