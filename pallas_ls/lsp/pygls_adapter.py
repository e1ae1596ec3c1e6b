"""Every use of pygls' internals, in one place, each saying why pygls' public API does not do it.

pygls 2.1 keeps these as attributes without a public accessor; upstream issues worth filing are
named where they apply.  The rest of the server uses pygls' public API only (and these functions).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

log = logging.getLogger("pallas_ls.lsp")


# ------------------------------------------------------------------------------ the protocol
def handler_for(protocol: JsonRPCProtocol, method: str) -> Callable | None:
    """The handler registered with `@server.feature(method)`.  pygls has no public lookup (upstream:
    "a public FeatureManager.get(method)"); the transport calls document notifications' handlers
    directly, skipping pygls' per-message machinery, and needs to know which methods are ours."""
    return protocol.fm.features.get(method)


def is_shutting_down(protocol: JsonRPCProtocol) -> bool:
    """pygls sets `_shutdown` on `shutdown` and checks it only on its own dispatch path, which
    transport.py replaces (upstream: "expose the shutdown state")."""
    return bool(getattr(protocol, "_shutdown", False))


def send_message(protocol: JsonRPCProtocol, message: dict[str, Any]) -> None:
    """Send a JSON-RPC message as is: pygls can only answer a request it dispatched itself, and
    an error for a message it could not read (id null, JSON-RPC 2.0 §5) has none (upstream: "a
    public send for raw messages")."""
    protocol._send_data(message)


class PallasProtocol(LanguageServerProtocol):
    """pygls' protocol, except that documents are kept by the session, not pygls' workspace.

    The session's store splits lines and converts columns exactly as LSP says (pygls splits at
    form feeds and U+2028 too), and a document update can never fail before our handler runs.
    """

    # A TCP connection's own protocol (issue 15): `exit` ends that connection's session only.
    connection_only = False

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args):
        # pygls' exit ends the process; a TCP connection's must end that connection only, and
        # pygls offers no hook for it (upstream: "exit per connection with --tcp").
        if not self.connection_only:
            yield from LanguageServerProtocol.lsp_exit(self, *args)
            return
        if (user_handler := handler_for(self, types.EXIT)) is not None:
            yield user_handler, args, None
        stop_event = stop_event_of(self._server)
        if stop_event is not None:
            stop_event.set()
        if self.writer is not None:
            self.writer.close()  # the connection's reader then sees its end

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """pygls logs a warning for each `$/cancelRequest` of a request already answered (most of
        them): 100k lines under a flood.  Debug level here (issue 15); pygls keeps the running
        requests in `_request_futures` (upstream: "log stale cancellations at debug")."""
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            log.debug("cancel notification for a request no longer running (%s)", msg_id)
        elif future.cancel():
            log.debug("cancelled request %s", msg_id)

    # pygls' own didOpen/didChange/didClose update its workspace first, which can fail (and
    # splits lines otherwise than LSP); these hand the notification to our handler only.
    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):
        if (handler := handler_for(self, types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        if (handler := handler_for(self, types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if (handler := handler_for(self, types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    # The same for notebooks: the session keeps their cells (notebook_sync.py).
    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def lsp_notebook_document__did_open(self, params: types.DidOpenNotebookDocumentParams):
        if (handler := handler_for(self, types.NOTEBOOK_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams):
        if (handler := handler_for(self, types.NOTEBOOK_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(self, params: types.DidCloseNotebookDocumentParams):
        if (handler := handler_for(self, types.NOTEBOOK_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


# -------------------------------------------------------------------------------- the server
def stop_event_of(server: Any) -> threading.Event | None:
    """pygls' Server keeps its stop flag in `_stop_event` and its shutdown() sets it; our message
    loop (transport.py) runs until it is set, so both must share the one pygls made."""
    return getattr(server, "_stop_event", None)


def new_stop_event(server: Any) -> threading.Event:
    """A fresh stop flag for a run of our message loop (pygls' start_io/start_tcp make one the same way)."""
    server._stop_event = threading.Event()
    return server._stop_event


def keep_tcp_server(server: Any, tcp_server: Any) -> None:
    """pygls' Server.shutdown() closes the listening socket it finds in `_server`."""
    server._server = tcp_server
