"""The suite's xdist groups hold (tests/conftest.py puts the jax tier, the editor tests and the
`serial` tests each in one group, so one worker runs a whole group and its costly fixtures once).

pytest-xdist marks a grouped test by a suffix on its node id; a pytest release whose node ids
ignore that suffix (pytest 9.2 with pytest-xdist 3.8: pytest-dev/pytest-xdist#1386) silently
spreads the groups over the workers.  This test then fails instead of the suite getting slower.
"""

from __future__ import annotations

import pytest


@pytest.mark.serial
def test_a_grouped_test_is_scheduled_with_its_group(request: pytest.FixtureRequest) -> None:
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not run by pytest-xdist's loadgroup scheduler (`-n 0`, `-p no:xdist`)")
    assert request.node.nodeid.endswith("@serial"), (
        "pytest-xdist did not put this `serial` test in its group: the installed pytest and pytest-xdist "
        "disagree on node ids (see pyproject.toml's pin of pytest)"
    )
