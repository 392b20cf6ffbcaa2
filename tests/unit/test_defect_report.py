"""DefectReport: the one errors/ok/raise_for_defects of Recovery-, Upgrade- and LoopReport,
and which reads of a report count as looking at its defects."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pytest_converge import ApplyResult, ConvergenceError, RecoveryReport, UpgradeReport
from pytest_converge.analysis.defects import Defect, WatchedList
from pytest_converge.analysis.reconciliation import Flapping
from pytest_converge.run.loop import LoopReport
from pytest_converge.run.results import DefectReport


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
    from pytest_converge.report import convergence_error, format_defects

    error = convergence_error([ERROR], header="head:")
    assert isinstance(error, ConvergenceError)
    assert str(error) == format_defects([ERROR], header="head:")
    assert error.defects == [ERROR]


# -- which reads count as looking at the defects (the converge fixture's rule) --
DUPLICATE = Defect("duplicate", address="aws_vpc.main")
ORPHAN = Defect("orphan", address="aws_vpc.main")


def _counted(read) -> int:
    reads: list[None] = []
    items = WatchedList([ERROR, WARNING], on_read=lambda: reads.append(None))
    read(items)
    return len(reads)


@pytest.mark.parametrize(
    "read",
    [
        list,
        len,
        bool,
        lambda x: x[0],
        lambda x: x[:1],
        lambda x: ERROR in x,
        lambda x: x == [ERROR, WARNING],
        lambda x: x != [],
        repr,
        lambda x: x.index(WARNING),
        lambda x: x.count(ERROR),
        lambda x: x.copy(),
        reversed,
        lambda x: [d.kind for d in x],
    ],
)
def test_every_read_of_a_watched_list_is_told(read):
    assert _counted(read) >= 1


def test_writes_to_a_watched_list_are_not_reads():
    assert _counted(lambda x: (x.append(ORPHAN), x.extend([DUPLICATE]))) == 0
    assert WatchedList([ERROR]) == [ERROR]  # no watcher: a plain list


def _recovery(defects: list[Defect]) -> RecoveryReport:
    first = ApplyResult(ok=True, error=None, seconds=0.0)
    return RecoveryReport("modules/app", "lost-response@CreateVpc#1", defects, first, None, None, 0)


@pytest.mark.parametrize(
    "look",
    [
        lambda r: r.defects[0].kind,
        lambda r: r.errors,
        lambda r: r.ok,
        lambda r: r.duplicates,
        lambda r: r.orphans,
        lambda r: list(r.defects),
        lambda r: len(r.replayed),
    ],
)
def test_reading_what_a_watched_report_found_is_looking_at_its_defects(look):
    seen: list[list[Defect]] = []
    report = _recovery([DUPLICATE, WARNING])
    # The plugin's own reads, before the report is handed to the test, do not count.
    assert not report.ok and report.errors == report.duplicates == [DUPLICATE]
    assert report.watch(seen.append) is report
    assert seen == []
    look(report)
    assert seen and seen[-1] == [DUPLICATE, WARNING]


def test_raise_for_defects_is_looking_whether_or_not_it_raises():
    seen: list[list[Defect]] = []
    report = _recovery([DUPLICATE]).watch(seen.append)
    with pytest.raises(ConvergenceError, match="duplicate"):
        report.raise_for_defects()
    assert seen[-1] == [DUPLICATE]
    quiet: list[list[Defect]] = []
    _recovery([WARNING]).watch(quiet.append).raise_for_defects()
    assert quiet[-1] == [WARNING]


def test_other_attributes_of_a_report_are_not_looking():
    seen: list[list[Defect]] = []
    report = _recovery([DUPLICATE]).watch(seen.append)
    assert report.first.ok and not report.flaky and report.hit is None
    assert report.module == "modules/app" and report.created == []
    assert seen == []


def test_duplicates_and_orphans_are_the_defects_of_their_kind():
    report = _recovery([DUPLICATE, ORPHAN, ERROR])
    assert report.duplicates == [DUPLICATE] and report.orphans == [ORPHAN]


def test_a_loop_reports_flapping_and_drift_are_its_findings():
    flap = Flapping("aws_sqs_queue.work", "visibility_timeout_seconds", [60, 120], [], [1, 2])
    defect = Defect("flapping", address="aws_sqs_queue.work")
    for look in (lambda r: r.flapping[0], lambda r: r.drift == [], lambda r: r.defects[0]):
        seen: list[list[Defect]] = []
        report = LoopReport("modules/app", [], [], [flap], [defect]).watch(seen.append)
        assert report.cycles == [] and report.module == "modules/app"  # not findings
        assert seen == []
        look(report)
        assert seen[-1] == [defect]
    watched = LoopReport("m", [], [], [flap], [defect]).watch(lambda d: None)
    assert watched.flapping == [flap] and watched.defects == [defect]


def test_an_upgrade_reports_defects_are_watched_too():
    assert UpgradeReport._findings == ("defects", "replayed")
