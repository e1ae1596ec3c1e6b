"""The pygls wiring: LSP methods -> `Session`, process start-up, logging.

`main(args)` is what `pallas-ls serve` and `python -m pallas_ls.lsp` call, with an argparse
namespace holding `stdio`, `tcp`, `host`, `port`, `log_file` and `log_level`.

No handler lets an exception escape into pygls: each one logs it and answers as if there was
nothing to say, so one bad request never takes the server down (a `JsonRpcException` a handler
raises on purpose is the error response it chose).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import logging
import sys
import threading
from typing import Any, BinaryIO, Callable

from lsprotocol import types
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from .actions import FIX_ALL
from .positions import normalise_encoding
from .session import Session
from .transport import serve, serve_stream

log = logging.getLogger("pallas_ls.lsp")

NAME = "pallas-ls"




class PallasProtocol(LanguageServerProtocol):
    """pygls' protocol, except that documents are kept by the session, not pygls' workspace.

    The session's store splits lines and converts columns exactly as LSP says (pygls splits at
    form feeds and U+2028 too), and a document update can never fail before our handler runs.
    """

    def answer_at_once(self, method: str, params: Any) -> str | None:
        """The answer to a request (its params as JSON), as JSON text, when it is ready without
        waiting, else None (transport._answered_at_once); only pulls for diagnostics are answered so."""
        if method == types.TEXT_DOCUMENT_DIAGNOSTIC and method in self.fm.features:
            return self._server.session.diagnostic_report_at_once(params)  # type: ignore[attr-defined]
        return None

    # A TCP connection's own protocol (issue 15): `exit` ends that connection's session only.
    connection_only = False

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        if not self.connection_only:
            yield from LanguageServerProtocol.lsp_exit(self, *args)
            return
        if (user_handler := self.fm.features.get(types.EXIT)) is not None:
            yield user_handler, args, None
        stop_event = getattr(self._server, "_stop_event", None)
        if stop_event is not None:
            stop_event.set()
        if self.writer is not None:
            self.writer.close()  # the connection's reader then sees its end

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """pygls logs a warning for each `$/cancelRequest` of a request already answered (most of
        them): 100k lines under a flood.  Debug level here (issue 15)."""
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            log.debug("cancel notification for a request no longer running (%s)", msg_id)
        elif future.cancel():
            log.debug("cancelled request %s", msg_id)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class PallasServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__, protocol_cls=PallasProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.session = Session(self)
        self.exit_code = 0

    def report_server_error(self, error: Exception, source: Any) -> None:
        # Log instead of a pop-up per failure; our handlers already catch their own errors.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)

    # pygls' transports, with `transport.serve_stream` / `transport.serve` as the message loop (see there for why).
    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve_stream(self._stop_event, stdin or sys.stdin.buffer, self.protocol))
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except KeyboardInterrupt:
            pass
        except SystemExit as exc:  # `exit`: 0 after `shutdown`, 1 without (LSP); pygls' loop dropped it
            self.exit_code = exc.code if isinstance(exc.code, int) else 0
        finally:
            self.shutdown()

    def start_tcp(self, host: str, port: int) -> None:
        self._stop_event = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            # Issue 15: each connection is a session of its own (its own server: documents,
            # settings, workers, writer), so nothing of one client ever reaches another, and a
            # connection that closes (or sends `exit`) ends its own session, not the listener.
            server = create_server()
            server._stop_event = threading.Event()
            server.protocol.connection_only = True
            server.protocol.set_writer(writer)  # type: ignore[arg-type]
            log.info("a client connected")
            try:
                await serve(server._stop_event, reader, server.protocol)
            except (ConnectionError, OSError) as exc:
                log.info("a connection failed: %s", exc)
            finally:
                server.session.shutdown()
                server.shutdown()
                writer.close()
                log.info("a client disconnected")

        async def listen() -> None:
            self._server = await asyncio.start_server(connection, host, port)
            async with self._server:
                await self._server.serve_forever()

        try:
            asyncio.run(listen())
        except asyncio.CancelledError:
            pass


def _guarded(default: Any = None) -> Callable:
    """Log any exception from a handler and return `default` instead."""

    def decorate(fn: Callable) -> Callable:
        if asyncio.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any) -> Any:
                try:
                    return await fn(*args)
                except (asyncio.CancelledError, JsonRpcException):
                    raise  # an error response the handler chose
                except Exception:  # noqa: BLE001
                    log.exception("%s failed", fn.__name__)
                    return default

            return async_wrapper

        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            try:
                return fn(*args)
            except Exception:  # noqa: BLE001
                log.exception("%s failed", fn.__name__)
                return default

        return wrapper

    return decorate


def create_server() -> PallasServer:
    server = PallasServer()
    session = server.session

    @server.feature(types.INITIALIZE)
    @_guarded()
    def initialize(params: types.InitializeParams) -> None:
        encoding = ServerCapabilitiesBuilder.choose_position_encoding(params.capabilities)
        session.initialize(params, normalise_encoding(encoding))

    @server.feature(types.INITIALIZED)
    @_guarded()
    async def initialized(params: types.InitializedParams) -> None:
        await session.initialized()

    @server.feature(types.SHUTDOWN)
    @_guarded()
    def shutdown(params: None) -> None:
        session.shutdown()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @_guarded()
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        session.did_open(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded()
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        session.did_change(params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded()
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        session.did_close(params)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @_guarded()
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        session.did_save(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_guarded()
    def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        session.did_change_configuration(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_guarded()
    def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        session.did_change_watched_files(params)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @_guarded()
    def did_change_workspace_folders(params: types.DidChangeWorkspaceFoldersParams) -> None:
        session.did_change_workspace_folders(params)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    @_guarded(default=types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def document_diagnostic(params: types.DocumentDiagnosticParams):
        return await session.document_diagnostic(params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL],  # type: ignore[list-item]
            resolve_provider=False,
        ),
    )
    @_guarded()
    async def code_action(params: types.CodeActionParams):
        return await session.code_action(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @_guarded()
    async def hover(params: types.HoverParams):
        return await session.hover(params)

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
    handler: logging.Handler = logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler(sys.stderr)
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
    return server.exit_code
