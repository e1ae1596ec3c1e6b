"""`guarded`: a handler's exception is logged and answered with a default, never raised into pygls."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any

from pygls.exceptions import JsonRpcException

log = logging.getLogger("pallas_ls.lsp")


def guarded(default: Any = None) -> Callable:
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
