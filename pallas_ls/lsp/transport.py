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
  Here bodies are read in chunks, and a length beyond MAX_BODY is not believed: that frame is
  skipped and the reader looks for the next header.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from typing import Any

from lsprotocol import types
from pygls.protocol import JsonRPCProtocol

log = logging.getLogger(__name__)

HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?\n?$", re.IGNORECASE)
MAX_BODY = 1 << 30  # 1 GiB: no editor sends a bigger message
CHUNK = 1 << 20

PARSE_ERROR = types.ErrorCodes.ParseError.value
INVALID_REQUEST = types.ErrorCodes.InvalidRequest.value
INVALID_PARAMS = types.ErrorCodes.InvalidParams.value


async def serve(stop_event: threading.Event, reader: Any, protocol: JsonRPCProtocol) -> None:
    """Read frames from `reader` (`readline()` and `readexactly(n)`, both awaitable) until EOF."""
    length: int | None = None
    while not stop_event.is_set():
        try:
            line = await reader.readline()
        except ValueError:  # asyncio.StreamReader: a line beyond its limit (discarded)
            log.warning("ignored an overlong header line")
            continue
        if not line:
            break
        if line.strip():
            match = HEADER.search(line)
            if match is not None:
                length = int(match.group(1))
            continue
        if length is None:  # the end of a header without a Content-Length
            log.warning("ignored a message without a Content-Length header")
            continue
        if length > MAX_BODY:
            log.warning("ignored a message of %d bytes (more than %d)", length, MAX_BODY)
            length = None
            continue
        body = await _read_body(reader, length)
        length = None
        if body is None:
            break
        handle_body(protocol, body)


async def _read_body(reader: Any, length: int) -> bytes | None:
    chunks = []
    remaining = length
    while remaining > 0:
        try:
            chunk = await reader.readexactly(min(remaining, CHUNK))
        except asyncio.IncompleteReadError:
            return None
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _valid_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def send_error(protocol: JsonRPCProtocol, msg_id: Any, code: int, message: str) -> None:
    protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})


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
    if (not is_request and method.startswith("$/") and protocol.get_message_type(method) is None
            and method not in protocol.fm.features):
        log.debug("ignored the notification %s", method)  # the protocol lets '$/' ones be ignored
        return
    if is_request and getattr(protocol, "_shutdown", False) and method != types.EXIT:
        send_error(protocol, msg_id, INVALID_REQUEST, "The server is shutting down")
        return
    _dispatch(protocol, data, msg_id if is_request else None)


def _dispatch(protocol: JsonRPCProtocol, data: dict, request_id: Any) -> None:
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
    try:
        protocol.handle_message(message)
    except Exception:  # noqa: BLE001 - pygls answers requests itself; never end the loop
        log.exception("cannot handle a message")
