"""`json-lines`: the `json` format's objects, one per line (no enclosing array), as ruff's; a
reader can stream them, and `cat`-ing reports of several runs stays valid."""

from __future__ import annotations

import json

from . import Report
from .jsonfmt import finding_json


def render(report: Report) -> str:
    return "".join(json.dumps(finding_json(f), ensure_ascii=False) + "\n" for f in report.findings)
