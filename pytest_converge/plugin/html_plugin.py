"""pytest-html integration: the run's summary and fault matrix in pytest-html's report.

Registered as the plugin ``converge-html``; its hook is optional, so nothing
happens without pytest-html (``pip install pytest-html``, then ``pytest --html=report.html``).
"""

from __future__ import annotations

from typing import Any

import pytest

from ..report.html import html_fragment
from .session import get_session


@pytest.hookimpl(optionalhook=True)
def pytest_html_results_summary(
    prefix: list[str], summary: list[str], postfix: list[str], session: pytest.Session
) -> None:
    """pytest-html is writing its summary: add the page's content (summary and matrix)."""

    converge = get_session(session.config)
    if converge.scenarios:
        data: dict[str, Any] = converge.report_data()
        prefix.append(html_fragment(data, title="pytest-converge: convergence scenarios"))
