"""The engine never raises, whatever the text (issue 7): hypothesis with a small budget."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from pallas_ls.engine.analysis import analyze
from pallas_ls.engine.edits import apply_fixes
from pallas_ls.engine.source import SourceFile
from pallas_ls.lint import run_rules

SEED = """\
import functools
import jax
from jax.experimental import pallas as pl

def k(x_ref, o_ref):
    if x_ref.shape[0]:
        return x_ref[...] + 1
    return ()

r = jax.new_ref(x)
pl.pallas_call(k, out_shape=jax.ShapeDtypeStruct((8,), jnp.float32))(r, r)
pl.kernel(lambda a, b: a, mesh=m)(r, r)
"""

FRAGMENTS = st.sampled_from(
    [
        "\n",
        " ",
        "\t",
        "(",
        ")",
        "[",
        "]",
        ":",
        "return ",
        "def ",
        "lambda ",
        "é",
        "😀",
        "漢",
        "\r\n",
        "\x00",
        "pl.pallas_call(",
        "functools.partial(",
        "yield",
        "async ",
        "@pl.kernel(mesh=m)\n",
        "'",
        '"""',
        "#",
        "\\",
    ]
)


def check_everything(text: str) -> None:
    source = SourceFile.from_text(text, "fuzz.py")
    findings = run_rules(analyze(source))
    for finding in findings:
        assert finding.range.start <= finding.range.end
        # Applying every fix must not raise (overlaps are skipped, not crashed on).
        apply_fixes(source, [fix for fix in finding.fixes])


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_arbitrary_text(text):
    check_everything(text)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(SEED)), FRAGMENTS), max_size=8))
def test_mutations_of_a_kernel_file(mutations):
    text = SEED
    for position, fragment in mutations:
        position = min(position, len(text))
        text = text[:position] + fragment + text[position:]
    check_everything(text)


def test_a_failing_rule_reports_nothing_and_the_others_still_report(monkeypatch):
    from pallas_ls import rules
    from pallas_ls.rules.base import Rule

    def half_then_fail(analysis):
        for finding in rules.RULES["PAL001"].check(analysis):
            finding.code = "PAL999"
            yield finding  # findings made before the failure: not reported
        raise RuntimeError("rule bug")

    broken = Rule("PAL999", "broken", rules.RULES["PAL001"].severity, "", "", (), half_then_fail)
    monkeypatch.setitem(rules.RULES, "PAL999", broken)
    findings = run_rules(analyze(SourceFile.from_text(SEED, "f.py")))
    codes = [f.code for f in findings]
    assert "PAL999" not in codes and "PAL001" in codes and "PAL002" in codes
