"""DefectReport: the one errors/ok/raise_for_defects of Recovery-, Upgrade- and LoopReport."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pytest_converge import ConvergenceError, RecoveryReport, UpgradeReport
from pytest_converge.analysis.defects import Defect, DefectReport
from pytest_converge.loop import LoopReport


@dataclass
class Report(DefectReport):
    defects: list[Defect] = field(default_factory=list)

    def _failure_header(self) -> str:
        return "modules/app does not converge:"

    def _failure_detail(self) -> str:
        return "cycle 1: 2 changes"


ERROR = Defect("permanent-diff", address="aws_sqs_queue.q", attribute="policy")
WARNING = Defect("needs-second-apply", address="aws_sqs_queue.q", attribute="tags")


def test_warnings_alone_pass():
    report = Report([WARNING])
    assert report.ok and report.errors == []
    assert report.raise_for_defects() is report


def test_an_error_raises_with_the_header_every_defect_and_the_detail():
    raised: list[list[Defect]] = []
    report = Report([ERROR, WARNING])
    report.on_raise = raised.append
    assert not report.ok and report.errors == [ERROR]
    with pytest.raises(ConvergenceError) as info:
        report.raise_for_defects()
    text = str(info.value)
    assert text.startswith("modules/app does not converge:\n")
    assert "permanent-diff: aws_sqs_queue.q" in text and "needs-second-apply" in text
    assert text.endswith("\ncycle 1: 2 changes")
    assert info.value.defects == [ERROR, WARNING]
    assert raised == [[ERROR, WARNING]]


def test_the_three_reports_share_it():
    for cls in (RecoveryReport, UpgradeReport, LoopReport):
        assert issubclass(cls, DefectReport)
        assert cls.raise_for_defects is DefectReport.raise_for_defects


def test_convergence_error_of_words_defects_as_the_report_does():
    from pytest_converge.report import format_defects

    error = ConvergenceError.of([ERROR], header="head:")
    assert str(error) == format_defects([ERROR], header="head:")
    assert error.defects == [ERROR]
