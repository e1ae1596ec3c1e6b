"""Run rule examples under real JAX, in one process, and report each outcome as JSON.

Usage: python jax_runner.py REQUEST.json RESULT.json [WORKDIR]

REQUEST.json is a list of {"id": str, "source": str, "interpret": bool (optional: every
pallas_call in interpret mode, for the TPU rules' examples), "root": str (optional: a program of
several modules, run as `root/main.py` from that directory)}.  The runner imports jax once, then for each
example writes the source to its own file (so JAX's messages and tracebacks carry a real
file:line), compiles it under that filename and exec()s it in a fresh `__main__`-like namespace.
Between examples it restores every `jax.config` option to the value it had at start-up (the
defaults: the parent process strips JAX_* variables from the environment), so one example cannot
leak settings into the next; compiled kernels cannot leak either, JAX's caches being keyed by the
functions each example makes afresh (see _CLEAR_CACHES_EVERY).

RESULT.json is a list of {"id", "path", "ok", "type", "message", "chain", "traceback", "seconds"};
`message` is "ExceptionType: text" of the raised exception and `chain` adds its causes and
contexts, in case JAX wraps the error it means.

This file is a helper of tests/test_jax_examples.py, not a test module; it has no pytest imports.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
import tempfile
import time
import traceback

PER_EXAMPLE_TIMEOUT_S = int(os.environ.get("PALLAS_LS_EXAMPLE_TIMEOUT", "120"))
# JAX's caches are keyed by the functions an example makes (weakly: a dead function's entries go
# with it), and every example makes its own, so nothing compiled for one is found by the next.
# Clearing them after each example cost two thirds of the holdout's run under JAX (59 s -> 34 s for
# 947 programs, issue 33): they are cleared now and then, only to bound the memory they hold.
_CLEAR_CACHES_EVERY = 200


class ExampleTimeout(Exception):
    pass


def _on_alarm(signum, frame):  # pragma: no cover - only when an example hangs
    raise ExampleTimeout(f"example did not finish within {PER_EXAMPLE_TIMEOUT_S} s")


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _chain(exc: BaseException) -> list[str]:
    seen: set[int] = set()
    out: list[str] = []
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        out.append(_describe(current))
        current = current.__cause__ or current.__context__
    return out


@contextlib.contextmanager
def _interpreted():
    """Every pallas_call in interpret mode (what a laptop runs), its TPU compiler parameters
    dropped as interpret mode drops them: a TPU rule's example written for a TPU runs here."""
    from jax.experimental import pallas as pl

    original = pl.pallas_call

    def pallas_call(*args, **kwargs):
        kwargs["interpret"] = True
        kwargs.pop("compiler_params", None)
        return original(*args, **kwargs)

    pl.pallas_call = pallas_call
    try:
        yield
    finally:
        pl.pallas_call = original


@contextlib.contextmanager
def _in_case_directory(root: str):
    """A program of several modules (`root/main.py` importing its siblings) runs as `python
    main.py` would, from its directory; afterwards the modules it imported from there are
    forgotten (the next case may name its own `config` or `kernels`)."""
    previous = os.getcwd()
    os.chdir(root)
    sys.path.insert(0, root)
    try:
        yield
    finally:
        os.chdir(previous)
        sys.path.remove(root)
        for name, module in list(sys.modules.items()):
            places = [getattr(module, "__file__", None) or "", *list(getattr(module, "__path__", None) or [])]
            if any(str(place).startswith(root + os.sep) for place in places):
                del sys.modules[name]


def run_all(requests: list[dict], workdir: str) -> list[dict]:
    import jax  # imported once for every example

    holders = jax.config._value_holders
    defaults = {name: holder.value for name, holder in holders.items()}

    def restore_config() -> list[str]:
        changed = [name for name, holder in holders.items() if holder.value != defaults[name]]
        for name in changed:
            jax.config.update(name, defaults[name])
        return changed

    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        signal.signal(signal.SIGALRM, _on_alarm)

    results = []
    for index, request in enumerate(requests):
        root = request.get("root")  # a program of several modules: its own files, in place
        if root:
            path = os.path.join(root, "main.py")
        else:
            # One directory per example: file names stay short and readable in JAX's messages.
            directory = os.path.join(workdir, f"{index:03d}")
            os.makedirs(directory)
            path = os.path.join(directory, "example.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(request["source"])
        namespace = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
        captured = io.StringIO()
        result = {
            "id": request["id"],
            "path": path,
            "ok": True,
            "type": None,
            "message": None,
            "chain": [],
            "traceback": None,
        }
        start = time.perf_counter()
        if use_alarm:
            signal.alarm(PER_EXAMPLE_TIMEOUT_S)
        try:
            # dont_inherit: not this file's `from __future__ import annotations` (dataclass KW_ONLY, InitVar)
            code = compile(request["source"], path, "exec", dont_inherit=True)
            interpreted = _interpreted() if request.get("interpret") else contextlib.nullcontext()
            located = _in_case_directory(root) if root else contextlib.nullcontext()
            with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured), interpreted, located:
                exec(code, namespace)
                jax.effects_barrier()  # flush debug callbacks while stdout is still captured
        except BaseException as exc:  # noqa: BLE001 - every outcome is data for the test
            if isinstance(exc, KeyboardInterrupt):
                raise
            result.update(
                ok=False,
                type=type(exc).__name__,
                message=_describe(exc),
                chain=_chain(exc),
                traceback="".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
            )
        finally:
            if use_alarm:
                signal.alarm(0)
        result["seconds"] = round(time.perf_counter() - start, 3)
        result["output"] = captured.getvalue()[-4000:]
        leaked = restore_config()
        if leaked:
            result["config_leaked"] = leaked
        if index % _CLEAR_CACHES_EVERY == _CLEAR_CACHES_EVERY - 1:
            jax.clear_caches()  # only to bound memory: see _CLEAR_CACHES_EVERY
        results.append(result)
    return results


def main(argv: list[str]) -> int:
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        requests = json.load(f)
    if len(argv) == 4:  # keep the example files (the test passes pytest's tmp dir)
        results = run_all(requests, argv[3])
    else:
        with tempfile.TemporaryDirectory(prefix="pallas-ls-examples-") as workdir:
            results = run_all(requests, workdir)
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
