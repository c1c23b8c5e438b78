"""Make the plain helper modules in tests/ (such as ``guandan_reference``) importable, and
with ``CHUPAI_NO_SKIP=1`` (set by ``.ci/run``, where every optional extra is installed)
turn every skipped test into a failure, so no test of an extra silently does not run."""
from __future__ import annotations

import os
import sys
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

NO_SKIP = os.environ.get("CHUPAI_NO_SKIP") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Any:
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CHUPAI_NO_SKIP=1 (CI installs every extra): {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    # a module skipped as a whole (pytest.importorskip at import) fails the same way
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped under CHUPAI_NO_SKIP=1 (CI installs every extra): {report.longrepr}"
