"""File-level suppression: `# pallas-ls: noqa[: CODES]` on a line of its own (engine/noqa.py)."""

from __future__ import annotations

import pytest

from pallas_ls.lint import analyze_source

KERNEL = '''import jax
from jax.experimental import pallas as pl
{header}

def kernel(x_ref, o_ref):
    return x_ref[...] * 2


def f(x):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
'''


def codes(header: str) -> list[str]:
    return [finding.code for finding in analyze_source(KERNEL.format(header=header), "kern.py")]


def test_without_a_file_noqa_the_finding_is_reported():
    assert codes("# an ordinary comment") == ["PAL001"]


@pytest.mark.parametrize("header", [
    "# pallas-ls: noqa",
    "# pallas-ls: noqa: PAL001",
    "#pallas-ls:noqa:PAL001,PAL002",
    "    # PALLAS-LS: NOQA: pal001",
    "# ruff: noqa: PAL001",
    "# flake8: noqa: E501, PAL001",
])
def test_file_noqa_silences(header):
    assert codes(header) == []


@pytest.mark.parametrize("header", [
    "# pallas-ls: noqa: PAL002",  # another code
    "# ruff: noqa",  # addressed to ruff
    "# flake8: noqa",
    "# ruff: noqa: E501",
    'x = 1  # pallas-ls: noqa',  # not on a line of its own
    '"""\n# pallas-ls: noqa\n"""',  # text inside a string
    "# pallas-ls: noqa: PAL001 because",  # not a noqa comment
])
def test_not_a_file_noqa_for_this_finding(header):
    assert codes(header) == ["PAL001"]
