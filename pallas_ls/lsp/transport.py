"""Reading LSP frames: pygls' message loop, made robust against what a broken client may send.

pygls' own loop (`pygls.io_.run_async`) has three failure modes that this one avoids:

- after a frame whose Content-Length is wrong or missing, the rest of that body is glued to the
  next frame's header line, which then never matches: every later message is lost.  Here a header
  line matches when it *ends* with `Content-Length: N`, so the next frame is found again;
- a request whose params do not fit the method's type gets no answer at all (the client waits
  forever).  Here it gets InvalidParams; a body that is not JSON gets ParseError and a JSON value
  that is not a JSON-RPC message InvalidRequest (with id null when there is no usable id), as
  JSON-RPC 2.0 says.  Notifications never get an answer;
- a huge Content-Length makes `read(n)` allocate n bytes at once (a MemoryError ends the server).
  Here bytes are read in chunks, and a length beyond MAX_BODY is not believed: that frame is
  skipped and the reader looks for the next header.

Frames are cut by `FrameReader`, which does no I/O: stdin is read by the event loop when it is a
pipe (or by a thread when it is not, see `serve_stream`), a TCP connection by the event loop (`serve`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import stat
import threading
from collections.abc import Callable
from typing import Any

from lsprotocol import types
from pygls.protocol import JsonRPCProtocol

from . import params as params_module
from .pygls_adapter import handler_for, is_shutting_down, send_message

log = logging.getLogger(__name__)

HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?\n?$", re.IGNORECASE)
MAX_BODY = 1 << 30  # 1 GiB: no editor sends a bigger message
CHUNK = 1 << 20
MAX_HEADER_LINE = 1 << 16
DIRECT_NOTIFICATIONS = frozenset(params_module.STRUCTURE)  # didOpen, didChange, didClose

PARSE_ERROR = types.ErrorCodes.ParseError.value
INVALID_REQUEST = types.ErrorCodes.InvalidRequest.value
INVALID_PARAMS = types.ErrorCodes.InvalidParams.value
SERVER_NOT_INITIALIZED = types.ErrorCodes.ServerNotInitialized.value  # -32002


class FrameReader:
    """LSP frames out of a byte stream fed in chunks of any size (no I/O of its own).

    Header lines end at "\n"; a line that ends with `Content-Length: N` sets the length, an empty
    line ends the header, and the next N bytes are the body.  A header line longer than
    MAX_HEADER_LINE is dropped; a body longer than MAX_BODY is not believed (its bytes are then
    read as header lines, which do not match, until the next real header).
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._position = 0  # where the unread bytes start
        self._length: int | None = None  # from the header lines so far
        self._body: int | None = None  # the length of the body being read

    def feed(self, data: bytes) -> list[bytes]:
        """The bodies completed by `data`, in order."""
        self._buffer += data
        bodies: list[bytes] = []
        while True:
            if self._body is not None:
                end = self._position + self._body
                if end > len(self._buffer):
                    break
                bodies.append(bytes(self._buffer[self._position : end]))
                self._position, self._body = end, None
                continue
            newline = self._buffer.find(b"\n", self._position)
            if newline < 0:
                if len(self._buffer) - self._position > MAX_HEADER_LINE:
                    log.warning("ignored an overlong header line")
                    self._position = len(self._buffer)
                break
            line = bytes(self._buffer[self._position : newline + 1])
            self._position = newline + 1
            self._header_line(line)
        if self._position > len(self._buffer) // 2:  # drop what was read, not on every call
            del self._buffer[: self._position]
            self._position = 0
        return bodies

    def _header_line(self, line: bytes) -> None:
        if line.strip():
            match = HEADER.search(line)
            if match is not None:
                self._length = int(match.group(1))
        elif self._length is None:  # the end of a header without a Content-Length
            log.warning("ignored a message without a Content-Length header")
        elif self._length > MAX_BODY:
            log.warning("ignored a message of %d bytes (more than %d)", self._length, MAX_BODY)
            self._length = None
        else:
            self._body, self._length = self._length, None


async def serve_stream(stop_event: threading.Event, stream: Any, protocol: JsonRPCProtocol) -> None:
    """Handle the messages read from a blocking binary `stream` (stdin) until end of file.

    When the stream is a pipe, a socket or a terminal (what editors give us), the event loop itself
    waits for it to be readable and reads what has arrived: no thread hand-off at all, ~0.2 ms
    sooner per message than a reader thread.  Other streams (a regular file, an in-memory stream)
    are read by a thread that hands each body to the loop.  (pygls' StdinAsyncReader sends every
    `readline` and `read` through a thread pool: three hand-offs, ~1 ms before a didOpen is handled.)"""
    loop = asyncio.get_running_loop()
    finished = asyncio.Event()
    frames = FrameReader()

    def handle(body: bytes) -> None:
        if not stop_event.is_set():
            handle_body(protocol, body)

    descriptor = _pollable_descriptor(stream)
    if descriptor is not None and _read_on_loop(loop, descriptor, frames, handle, finished):
        await finished.wait()
        return
    read = _chunk_reader(stream)

    def run() -> None:
        try:
            while chunk := read(CHUNK):
                for body in frames.feed(chunk):
                    loop.call_soon_threadsafe(handle, body)
        except (OSError, ValueError) as exc:  # the stream was closed under us
            log.info("stopped reading the client's messages: %s", exc)
        except RuntimeError:  # the loop is closed: the server is exiting
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(finished.set)

    threading.Thread(target=run, name="pallas-ls-input", daemon=True).start()
    await finished.wait()


def _pollable_descriptor(stream: Any) -> int | None:
    """The file descriptor of `stream` if the event loop can wait on it (a pipe, socket or tty)."""
    try:
        descriptor = stream.fileno()
        mode = os.fstat(descriptor).st_mode
    except (AttributeError, OSError, ValueError):
        return None
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode):
        return descriptor
    return None


def _read_on_loop(
    loop: asyncio.AbstractEventLoop,
    descriptor: int,
    frames: FrameReader,
    handle: Callable[[bytes], None],
    finished: asyncio.Event,
) -> bool:
    """Read `descriptor` whenever the loop sees it readable; False if the loop cannot watch it.

    Each wake-up makes one `os.read`, which never blocks since data (or end of file) is waiting,
    so the descriptor stays in blocking mode (changing it would change it for the parent too)."""

    def stop(reason: str) -> None:
        loop.remove_reader(descriptor)
        log.info("stopped reading the client's messages: %s", reason)
        finished.set()

    def readable() -> None:
        try:
            chunk = os.read(descriptor, CHUNK)
        except BlockingIOError:
            return
        except OSError as exc:  # the stream was closed under us
            stop(str(exc))
            return
        if not chunk:
            stop("end of input")
            return
        for body in frames.feed(chunk):
            handle(body)

    try:
        loop.add_reader(descriptor, readable)
    except (OSError, ValueError, NotImplementedError):  # e.g. epoll refuses this kind of file
        return False
    return True


def _chunk_reader(stream: Any) -> Callable[[int], bytes]:
    """`read(n)`: whatever has arrived, up to n bytes, blocking until something has.

    The file descriptor is read directly: a daemon thread blocked inside a BufferedReader holds its
    lock, and the interpreter aborts at exit when it cannot take that lock ("could not acquire
    lock for <stdin> at interpreter shutdown")."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return getattr(stream, "read1", None) or stream.read
    return lambda size: os.read(descriptor, size)


async def serve(stop_event: threading.Event, reader: Any, protocol: JsonRPCProtocol) -> None:
    """Handle the messages read from `reader` (an asyncio stream: TCP) until end of file."""
    frames = FrameReader()
    while not stop_event.is_set():
        chunk = await reader.read(CHUNK)
        if not chunk:
            break
        for body in frames.feed(chunk):
            if stop_event.is_set():
                break
            handle_body(protocol, body)


def _valid_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def send_body(protocol: JsonRPCProtocol, body: str) -> None:
    """Send a message whose JSON text is ready (pygls' sending would encode a value again)."""
    if protocol.writer is None:
        log.error("cannot send a message: no connection")
        return
    data = body.encode("utf-8")
    protocol.writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))


def send_error(protocol: JsonRPCProtocol, msg_id: Any, code: int, message: str) -> None:
    send_message(protocol, {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


def handle_body(protocol: JsonRPCProtocol, body: bytes) -> None:
    """Hand one message to pygls, or answer it with the JSON-RPC error it deserves."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        log.warning("a message that is not JSON: %s", exc)
        send_error(protocol, None, PARSE_ERROR, "Parse error: the message is not JSON")
        return
    if not isinstance(data, dict):
        log.warning("a message that is not a JSON object")
        send_error(protocol, None, INVALID_REQUEST, "Invalid request: not a JSON-RPC message")
        return
    has_method = "method" in data
    msg_id = data.get("id")
    is_request = has_method and "id" in data
    if not has_method:
        if "id" in data and ("result" in data or "error" in data) and data.get("jsonrpc") == "2.0":
            _dispatch(protocol, data, None)  # a response to one of our requests
        else:
            log.warning("a message that is neither a request, a notification nor a response")
            send_error(protocol, None, INVALID_REQUEST, "Invalid request: not a JSON-RPC message")
        return
    if data.get("jsonrpc") != "2.0" or not isinstance(data["method"], str) or (is_request and not _valid_id(msg_id)):
        if is_request:
            send_error(protocol, msg_id if _valid_id(msg_id) else None, INVALID_REQUEST, "Invalid request")
        else:
            log.warning("ignored an invalid notification")
        return
    method = data["method"]
    if (
        not is_request
        and method.startswith("$/")
        and protocol.get_message_type(method) is None
        and handler_for(protocol, method) is None
    ):
        log.debug("ignored the notification %s", method)  # the protocol lets '$/' ones be ignored
        return
    if is_request and is_shutting_down(protocol) and method != types.EXIT:
        send_error(protocol, msg_id, INVALID_REQUEST, "The server is shutting down")
        return
    # LSP: until the initialize request, every other request gets ServerNotInitialized (issue 15).
    if method == types.INITIALIZE:
        protocol.initialize_seen = True  # type: ignore[attr-defined]  # our flag on pygls' protocol object
    elif is_request and not getattr(protocol, "initialize_seen", False):
        send_error(protocol, msg_id, SERVER_NOT_INITIALIZED, "The server is not initialized yet")
        return
    _dispatch(protocol, data, msg_id if is_request else None)


def _dispatch(protocol: JsonRPCProtocol, data: dict, request_id: Any) -> None:
    method = data.get("method")
    if request_id is None and method in DIRECT_NOTIFICATIONS and handler_for(protocol, method) is not None:
        params = params_module.STRUCTURE[method](data.get("params"))
        if params is not None:
            _handle_directly(protocol, method, params)
            return
    if "method" in data and "params" not in data:
        data = {**data, "params": None}  # JSON-RPC lets params be omitted; pygls' plain types need the key
    try:
        message = protocol.structure_message(data)
    except Exception:  # noqa: BLE001 - params that do not fit the method's type
        method = data.get("method")
        if request_id is not None:
            log.warning("invalid params for %s", method)
            send_error(protocol, request_id, INVALID_PARAMS, f"Invalid params for {method}")
        else:
            log.warning("ignored a message with invalid params (%s)", method or "a response")
        return
    if request_id is None and method in DIRECT_NOTIFICATIONS and handler_for(protocol, method) is not None:
        _handle_directly(protocol, method, message.params)
        return
    try:
        protocol.handle_message(message)
    except Exception:  # noqa: BLE001 - pygls answers requests itself; never end the loop
        log.exception("cannot handle a message")


def _handle_directly(protocol: JsonRPCProtocol, method: str, params: Any) -> None:
    """Document notifications go straight to their handler: pygls' generic path (a Future, a uuid,
    its generator runner) costs a few hundred microseconds on every keystroke."""
    try:
        handler_for(protocol, method)(params)  # type: ignore[misc]  # the caller checked it is there
    except Exception:  # noqa: BLE001 - never end the loop
        log.exception("cannot handle %s", method)
