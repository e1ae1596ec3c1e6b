"""Cutting LSP frames out of a byte stream (transport.FrameReader), fed in chunks of any size."""

from __future__ import annotations

import json

import pytest

from pallas_ls.lsp import transport
from pallas_ls.lsp.transport import FrameReader


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


MESSAGES = [{"jsonrpc": "2.0", "method": "m", "params": {"i": i, "text": "é" * i}} for i in range(5)]
STREAM = b"".join(frame(m) for m in MESSAGES)


@pytest.mark.parametrize("size", [1, 2, 7, 64, len(STREAM)])
def test_any_chunking_gives_the_same_bodies(size):
    reader = FrameReader()
    bodies = [body for start in range(0, len(STREAM), size) for body in reader.feed(STREAM[start : start + size])]
    assert [json.loads(b) for b in bodies] == MESSAGES


def test_other_headers_and_lowercase_names():
    body = b'{"jsonrpc": "2.0", "method": "m"}'
    data = b"content-type: application/vscode-jsonrpc\r\ncontent-length:%d\r\n\r\n" % len(body) + body
    assert FrameReader().feed(data) == [body]


def test_a_wrong_length_loses_only_its_own_frame():
    short = b'Content-Length: 5\r\n\r\n{"jsonrpc": "2.0", "method": "lost"}'
    bodies = FrameReader().feed(short + frame(MESSAGES[1]))
    assert bodies[0] == b'{"jso'
    assert json.loads(bodies[-1]) == MESSAGES[1]


def test_a_header_without_length_is_skipped():
    assert [json.loads(b) for b in FrameReader().feed(b"X-Other: 1\r\n\r\n" + frame(MESSAGES[2]))] == [MESSAGES[2]]


def test_an_unbelievable_length_is_skipped(monkeypatch):
    monkeypatch.setattr(transport, "MAX_BODY", 100)
    data = b"Content-Length: 1000\r\n\r\n" + frame(MESSAGES[3])
    assert [json.loads(b) for b in FrameReader().feed(data)] == [MESSAGES[3]]


def test_an_overlong_header_line_is_dropped(monkeypatch):
    monkeypatch.setattr(transport, "MAX_HEADER_LINE", 50)
    reader = FrameReader()
    assert reader.feed(b"x" * 200) == []
    assert [json.loads(b) for b in reader.feed(b"\r\n" + frame(MESSAGES[4]))] == [MESSAGES[4]]


def test_the_buffer_does_not_keep_what_was_read():
    reader = FrameReader()
    for _ in range(100):
        reader.feed(STREAM)
    assert len(reader._buffer) < 2 * len(STREAM)


# ------------------------------------------------------------------------ serve_stream
class _Recorder:
    """Stands in for the pygls protocol: `handle_body` is patched to record what reaches it."""


def _serve(monkeypatch, stream, threads_seen: list) -> list[dict]:
    """The bodies serve_stream hands on; `threads_seen` gets the thread names that handled them,
    plus "reader thread" if a reader thread was started."""
    import asyncio
    import threading

    handled: list[dict] = []
    chunk_reader = transport._chunk_reader

    def spy(stream):
        threads_seen.append("reader thread")
        return chunk_reader(stream)

    monkeypatch.setattr(transport, "_chunk_reader", spy)

    def record(protocol, body):
        handled.append(json.loads(body))
        threads_seen.append(threading.current_thread().name)

    monkeypatch.setattr(transport, "handle_body", record)
    asyncio.run(asyncio.wait_for(transport.serve_stream(threading.Event(), stream, _Recorder()), 10))
    return handled


def test_a_pipe_is_read_by_the_event_loop_itself(monkeypatch):
    import os

    read_end, write_end = os.pipe()
    messages = [{"jsonrpc": "2.0", "method": "m", "params": {"n": n}} for n in range(50)]
    os.write(write_end, b"".join(frame(m) for m in messages))
    os.close(write_end)  # end of input ends serve_stream
    threads: list[str] = []
    with os.fdopen(read_end, "rb") as stream:
        assert _serve(monkeypatch, stream, threads) == messages
    assert set(threads) == {"MainThread"}  # no reader thread, no hand-off


def test_a_regular_file_is_read_by_a_thread(monkeypatch, tmp_path):
    path = tmp_path / "input"
    messages = [{"jsonrpc": "2.0", "method": "m", "params": {"n": n}} for n in range(5)]
    path.write_bytes(b"".join(frame(m) for m in messages))
    threads: list[str] = []
    with open(path, "rb") as stream:  # epoll cannot watch a regular file
        assert _serve(monkeypatch, stream, threads) == messages
    assert set(threads) == {"reader thread", "MainThread"}  # bodies are still handled on the loop
