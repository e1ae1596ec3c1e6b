"""How the property tests run (issue 33).

- `ci` (the default): derandomized. Each test draws the same examples on every run (a seed fixed
  by the test's name), after its `@example`s: the sequences that once failed, kept so they stay
  fixed. Nothing is read from or written to an example database, so CI never depends on what an
  earlier run found. A failure is a bug, never a flake: rerunning gives the same result.
- `explore`: randomized, with `EXPLORE_FACTOR` times the examples, failures saved in
  `.hypothesis/` and replayed first by the next `explore` run. For developers hunting bugs:

      HYPOTHESIS_PROFILE=explore python -m pytest -p no:xdist tests/test_incremental.py

  A failure it finds becomes an `@example` of its test (and the bug gets fixed).

Property tests check results, not speed: on a shared, loaded machine one example can take a
second (measured: 845 ms for a 20 ms example), so neither profile has a deadline.
"""

from __future__ import annotations

import os

from hypothesis import settings

EXPLORE_FACTOR = 10
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")

settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", deadline=None, derandomize=False, print_blob=True)


def load() -> None:
    settings.load_profile(PROFILE if PROFILE in ("ci", "explore") else "ci")


def examples(count: int) -> int:
    """A test's number of examples under the profile in use."""
    return count * EXPLORE_FACTOR if PROFILE == "explore" else count
