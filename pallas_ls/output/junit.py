"""`junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure) show as test results: one
testsuite per file, one failing testcase per finding, named and laid out as ruff's `junit`.
A clean run is one passing testcase, so the report is never an empty suite."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from itertools import groupby

from ..engine.findings import Finding
from . import Report, display_path, one_based

PACKAGE = "org.pallas-ls"

# Characters XML 1.0 cannot contain even escaped (a message quoting a string with a control
# character would make the whole report unparsable): shown as U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _classname(shown_path: str) -> str:
    """`pkg/kern.py` -> `pkg.kern` (a test class name: a dotted path without the suffix)."""
    return os.path.splitext(shown_path)[0].replace(os.sep, ".").replace("/", ".")


def _testcase(suite: ET.Element, finding: Finding, shown_path: str) -> None:
    row, col = one_based(finding.range.start)
    case = ET.SubElement(
        suite,
        "testcase",
        name=f"{PACKAGE}.{finding.code}",
        classname=_classname(shown_path),
        line=str(row),
        column=str(col),
    )
    where = f"line {row}, col {col}"
    if finding.cell is not None:  # rows are the cell's
        case.set("cell", str(finding.cell))
        where = f"cell {finding.cell}, {where}"
    message = _xml_text(finding.message)
    failure = ET.SubElement(case, "failure", message=message)
    failure.text = f"{where}, {message}"


def _counts(element: ET.Element, tests: int, failures: int) -> None:
    element.set("tests", str(tests))
    element.set("failures", str(failures))
    element.set("errors", "0")


def junit_tree(report: Report) -> ET.Element:
    root = ET.Element("testsuites", name="pallas-ls")
    _counts(root, max(len(report.findings), 1), len(report.findings))
    if not report.findings:
        suite = ET.SubElement(root, "testsuite", name="pallas-ls")
        _counts(suite, 1, 0)
        ET.SubElement(suite, "testcase", name="No errors found", classname="pallas-ls")
        return root
    # Findings arrive sorted by file: each run of one path is that file's suite.
    for path, group in groupby(report.findings, key=lambda f: f.path):
        findings = list(group)
        shown = _xml_text(display_path(path, report.cwd))
        suite = ET.SubElement(root, "testsuite", name=shown, package=PACKAGE, disabled="0")
        _counts(suite, len(findings), len(findings))
        for finding in findings:
            _testcase(suite, finding, shown)
    return root


def render(report: Report) -> str:
    tree = junit_tree(report)
    ET.indent(tree, space="    ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(tree, encoding="unicode") + "\n"
