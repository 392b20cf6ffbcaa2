"""Failure text, terminal summary, JSON report (own schema) and SARIF (OASIS schema)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pytest_converge.analysis.defects import KINDS, Defect
from pytest_converge.analysis.plan import UNKNOWN
from pytest_converge.report import (
    count_defects,
    format_defects,
    json_report,
    junit_properties,
    junit_suite_properties,
    load_schema,
    merge_reports,
    sarif_report,
    summary_lines,
)

jsonschema = pytest.importorskip("jsonschema")

SARIF_SCHEMA = Path(
    os.environ.get("CONVERGE_SARIF_SCHEMA")
    or next(
        (
            base / "shared/data/sarif-schema-2.1.0.json"
            for base in Path(__file__).parents[2].parents
            if (base / "shared/data/sarif-schema-2.1.0.json").is_file()
        ),
        Path("/work/shared/data/sarif-schema-2.1.0.json"),
    )
)
REPRO = "pytest --converge modules/sqs -k 'sqs::two-run'"


def _diff(scenario="two-run", **changes):
    fields = dict(
        kind="permanent-diff",
        address="aws_sqs_queue.work",
        attribute="redrive_policy",
        declared='{"deadLetterTargetArn":"arn:dlq","maxReceiveCount":"3"}',
        observed='{"deadLetterTargetArn": "arn:dlq", "maxReceiveCount": 3}',
        classification="type-coercion",
        module="modules/sqs",
        scenario=scenario,
        message="aws_sqs_queue.work update: redrive_policy",
        why="the API stores the value with another type",
        fix="Inside redrive_policy, write maxReceiveCount = 3",
        reproduce=REPRO,
    )
    fields.update(changes)
    return Defect(**fields)


def _escape(module_root: Path | None = None):
    return Defect(
        kind="escape-hatch",
        address="terraform_data.build",
        attribute="triggers_replace",
        declared="(known after apply) from timestamp()",
        observed="2026-11-29T16:17:22Z",
        classification="unknown",
        module="modules/build",
        scenario="two-run",
        message="terraform_data.build is replaced on every run",
        fix="use filesha256()",
        file=str(module_root / "main.tf") if module_root else None,
        line=3 if module_root else None,
    )


def _all_kinds():
    found = []
    for kind in KINDS:
        found.append(
            Defect(
                kind=kind,
                address=f"aws_vpc.{kind.replace('-', '_')}",
                module="modules/net",
                scenario="crash@CreateVpc#1",
                declared=UNKNOWN,
                observed={"ids": ("vpc-1", "vpc-2")},
                severity="warning" if kind in ("drift", "needs-second-apply") else "error",
                objects=["vpc-123"],
            )
        )
    return found


def test_format_defects_shows_everything_the_author_needs():
    text = format_defects([_diff()], header="modules/sqs does not converge")
    assert text.splitlines()[0] == "modules/sqs does not converge"
    assert "permanent-diff (type-coercion): aws_sqs_queue.work . redrive_policy" in text
    for label in ("declared", "observed", "why", "fix", "reproduce", "module"):
        assert f"   {label}" in text
    assert '"maxReceiveCount":"3"' in text and '"maxReceiveCount": 3' in text
    assert REPRO in text


def test_format_defects_collapses_duplicates_with_a_count():
    defects = [_diff(), _diff(scenario="crash@CreateQueue#1"), _diff(scenario="throttle@X#1")]
    text = format_defects([*defects, _escape()])
    assert text.count("permanent-diff (type-coercion)") == 1
    assert "(x3: crash@CreateQueue#1, throttle@X#1, two-run)" in text
    assert "2 defects from 4 scenarios: 2 errors, 0 warnings" in text
    assert "2. escape-hatch: terraform_data.build . triggers_replace" in text


def test_format_defects_shows_objects_severity_and_unknown():
    text = format_defects(_all_kinds())
    assert "objects    vpc-123" in text
    assert "[warning]" in text
    assert "(known after apply)" in text


def test_summary_groups_by_module_with_counts_legend_and_next_step():
    lines = summary_lines(
        {
            "modules/sqs": [_diff(), _diff(scenario="crash@X#1")],
            "modules/build": [_escape()],
            "modules/ok": [],
        }
    )
    text = "\n".join(lines)
    assert lines[0].split()[:4] == ["module", "result", "permanent-diff", "escape-hatch"]
    sqs_row = next(line for line in lines if line.startswith("modules/sqs"))
    assert "FAILED" in sqs_row and sqs_row.split()[2:] == ["1", "-"]
    assert next(line for line in lines if line.startswith("modules/ok")).split()[1] == "converged"
    assert "3 modules, 2 defects from 3 scenarios: 2 errors, 0 warnings" in text
    assert "permanent diffs by classification: type-coercion 1" in text
    assert "legend:" in text and "  escape-hatch: " in text
    assert f"next step: reproduce the first one with: {REPRO}" in text
    assert summary_lines({}) == []


def test_json_report_validates_against_the_shipped_schema(tmp_path):
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    report = json_report(
        ["modules/sqs", Path("modules/build")],
        [
            {"module": "modules/sqs", "scenario": "two-run", "outcome": "failed", "seconds": 3.2},
            type(
                "Result",
                (),
                {
                    "module": "modules/net",
                    "scenario": "crash@CreateVpc#1",
                    "outcome": "passed",
                    "seconds": 1,
                },
            )(),
        ],
        [_diff(), _escape(tmp_path), *_all_kinds()],
    )
    jsonschema.Draft202012Validator(schema).validate(report)
    text = json.dumps(report)  # everything serialisable, UNKNOWN included
    assert json.loads(text)["version"] == 1
    assert report["modules"] == ["modules/sqs", "modules/build"]
    assert report["scenarios"][1]["seconds"] == 1.0
    assert report["defects"][2]["declared"] == "(known after apply)"
    assert report["defects"][2]["observed"] == {"ids": ["vpc-1", "vpc-2"]}


TOOLCHAINS = {
    "modules/sqs": {
        "engine": {"flavor": "terraform", "version": "1.11.4"},
        "providers": {"registry.terraform.io/hashicorp/aws": "5.100.0"},
    }
}


def test_reports_name_the_engine_and_providers_each_module_ran_with(tmp_path):
    validator = jsonschema.Draft202012Validator(load_schema())
    report = json_report(["modules/sqs"], [], [_diff()], toolchains=TOOLCHAINS)
    validator.validate(report)
    assert report["toolchains"] == TOOLCHAINS
    assert not validator.is_valid(
        {**report, "toolchains": {"modules/sqs": {"engine": {"flavor": "terraform"}}}}
    )
    other = json_report(
        ["modules/net"], [], [], toolchains={"modules/net": TOOLCHAINS["modules/sqs"]}
    )
    assert set(merge_reports([report, other])["toolchains"]) == {"modules/sqs", "modules/net"}
    run = sarif_report([_diff()], tmp_path, toolchains=TOOLCHAINS)["runs"][0]
    assert run["properties"]["toolchains"] == TOOLCHAINS
    assert run["results"][0]["properties"]["toolchain"] == TOOLCHAINS["modules/sqs"]


def test_json_report_schema_rejects_bad_documents():
    validator = jsonschema.Draft202012Validator(load_schema())
    good = json_report([], [], [_diff()])
    for broken in (
        {**good, "version": 2},
        {**good, "defects": [{**good["defects"][0], "kind": "flaky"}]},
        {**good, "defects": [{**good["defects"][0], "classification": "Close enough!"}]},
        {**good, "defects": [{**good["defects"][0], "emulator_suspected": "yes"}]},
        {**good, "defects": [{**good["defects"][0], "severity": "fatal"}]},
        {**good, "scenarios": [{"module": "m", "scenario": "s", "outcome": "passed"}]},
    ):
        assert not validator.is_valid(broken)


def test_sarif_report(tmp_path):
    module = tmp_path / "modules" / "build"
    module.mkdir(parents=True)
    (module / "main.tf").write_text('\n\nresource "terraform_data" "build" {\n}\n')
    sqs = tmp_path / "modules" / "sqs"
    sqs.mkdir()
    (sqs / "main.tf").write_text('resource "aws_sqs_queue" "work" {\n}\n')
    defects = [_escape(module), _diff(), _diff(scenario="crash@X#1"), *_all_kinds()]
    sarif = sarif_report(defects, tmp_path)
    json.dumps(sarif)
    run = sarif["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == list(KINDS)
    assert all(r["help"]["text"] for r in run["tool"]["driver"]["rules"])
    escape, diff = run["results"][:2]
    assert escape["ruleId"] == "escape-hatch" and escape["level"] == "error"
    physical = escape["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "modules/build/main.tf"
    assert physical["region"]["startLine"] == 3
    assert escape["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == (
        "terraform_data.build"
    )
    # No file on the defect: looked up in root / module.
    assert diff["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "modules/sqs/main.tf"
    )
    assert diff["properties"]["classification"] == "type-coercion"
    assert diff["properties"]["declared"].endswith('"maxReceiveCount":"3"}')
    assert diff["properties"]["scenarios"] == ["crash@X#1", "two-run"]
    assert len(run["results"]) == 2 + len(KINDS)  # the duplicate diff collapsed
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels["drift"] == "warning"


def test_sarif_validates_against_the_oasis_schema(tmp_path):
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"SARIF 2.1.0 schema not found at {SARIF_SCHEMA} (set CONVERGE_SARIF_SCHEMA)")
    schema = json.loads(SARIF_SCHEMA.read_text())
    sarif = sarif_report([_escape(tmp_path), _diff(), *_all_kinds()], tmp_path)
    validator_cls = jsonschema.validators.validator_for(schema)
    validator_cls(schema).validate(sarif)


def test_junit_properties_are_string_pairs():
    props = dict(junit_properties(_diff()))
    assert props["converge.kind"] == "permanent-diff"
    assert props["converge.classification"] == "type-coercion"
    assert props["converge.attribute"] == "redrive_policy"
    assert props["converge.reproduce"] == REPRO
    unknown = dict(junit_properties(_all_kinds()[0]))
    assert unknown["converge.declared"] == "(known after apply)"
    assert all(isinstance(v, str) for pair in junit_properties(_escape()) for v in pair)


def _signal_defects():
    """A suspected emulator gap, a grouped finding, a user's class and an info line."""
    gap = _diff(
        address="aws_subnet.public",
        attribute="ipv6_cidr_block",
        declared="2001:db8::/64",
        observed=None,
        classification="dropped",
        severity="warning",
        emulator_suspected=True,
        evidence="catalogue: moto >=5.0 does not keep a subnet's IPv6 CIDR; reproduction: ...",
    )
    grouped = _diff(
        address="aws_lb_listener.l",
        attribute="default_action",
        classification="order",
        elements=[
            {"path": f"default_action[{i}].order", "declared": i, "observed": 1 - i}
            for i in range(2)
        ],
    )
    mine = _diff(classification="api-rounding")
    info = Defect(
        kind="drift",
        address="aws_security_group.this",
        module="modules/sg",
        scenario="two-run",
        severity="info",
        message="aws_security_group.this changed outside terraform (ingress), not part of "
        "the plan; also written by aws_security_group_rule.ingress[0]",
        writers=["aws_security_group_rule.ingress[0]"],
    )
    return [gap, grouped, mine, info]


def test_reports_carry_classification_emulator_suspected_and_evidence(tmp_path):
    defects = _signal_defects()
    report = json_report(["modules/sqs"], [], defects)
    jsonschema.Draft202012Validator(load_schema()).validate(report)
    gap = report["defects"][0]
    assert gap["classification"] == "dropped"
    assert gap["emulator_suspected"] is True and gap["evidence"].startswith("catalogue:")
    assert report["defects"][1]["elements"][0]["path"] == "default_action[0].order"
    assert report["defects"][2]["classification"] == "api-rounding"
    assert report["defects"][3]["severity"] == "info"

    sarif = sarif_report(defects, tmp_path)
    results = sarif["runs"][0]["results"]
    assert results[0]["properties"]["emulator_suspected"] is True
    assert results[0]["properties"]["evidence"] == gap["evidence"]
    assert results[0]["properties"]["classification"] == "dropped"
    assert "Suspected emulator gap" in results[0]["message"]["text"]
    assert results[3]["level"] == "note"
    if SARIF_SCHEMA.is_file():
        schema = json.loads(SARIF_SCHEMA.read_text())
        jsonschema.validators.validator_for(schema)(schema).validate(sarif)

    props = dict(junit_properties(defects[0]))
    assert props["converge.classification"] == "dropped"
    assert props["converge.emulator_suspected"] == "true"
    assert props["converge.evidence"] == gap["evidence"]
    assert dict(junit_properties(defects[1]))["converge.emulator_suspected"] == "false"


def test_a_confirmed_finding_is_marked_in_every_report(tmp_path):
    """``--converge-confirm-with``: an error the second emulator showed too names it (and
    its version and second plan) in the failure text, the JSON report (schema-valid),
    SARIF and JUnit; one it did not confirm carries no mark."""
    confirmed, alone = _diff(), _diff()
    confirmed.confirmed_by = {"emulator": "ministack", "version": "1.5.33", "plan": "1 to add"}
    text = format_defects([confirmed], header="modules/sqs does not converge:")
    assert "[confirmed on ministack 1.5.33]:" in text
    assert "confirmed  ministack 1.5.33 shows it too (its second plan: 1 to add)" in text
    assert "confirmed" not in format_defects([alone])
    report = json_report(["modules/sqs"], [], [confirmed, alone])
    jsonschema.Draft202012Validator(load_schema()).validate(report)
    assert [d["confirmed_by"] for d in report["defects"]] == [confirmed.confirmed_by, None]
    results = sarif_report([confirmed], tmp_path)["runs"][0]["results"]
    assert results[0]["properties"]["confirmed_by"] == confirmed.confirmed_by
    assert "Confirmed: ministack 1.5.33 shows it too" in results[0]["message"]["text"]
    assert dict(junit_properties(confirmed))["converge.confirmed_by"] == "ministack 1.5.33"
    assert "converge.confirmed_by" not in dict(junit_properties(alone))


def test_failure_text_names_suspected_gaps_elements_and_keeps_info_to_one_line():
    text = format_defects(_signal_defects(), header="modules/sqs does not converge:")
    assert "[warning] [suspected emulator gap]: aws_subnet.public . ipv6_cidr_block" in text
    assert "evidence   catalogue: moto" in text
    assert "element    default_action[0].order: 1 -> 0" in text
    assert "1 resource(s) drifted without changing the plan" in text
    [line] = [ln for ln in text.splitlines() if "aws_security_group.this" in ln]
    assert "also written by aws_security_group_rule.ingress[0]" in line


def test_one_count_groups_findings_by_cause_and_adds_up() -> None:
    drift = Defect(
        kind="drift",
        address="aws_sqs_queue.work",
        module="modules/sqs",
        scenario="two-run",
        severity="info",
        message="aws_sqs_queue.work changed outside terraform",
    )
    suspected = _diff(
        attribute="tags.Name", severity="warning", emulator_suspected=True, scenario="two-run"
    )
    findings = [
        _diff(),
        _diff(scenario="crash@CreateQueue#1"),
        _diff(scenario="crash@CreateQueue#1", declared="other"),  # same cause, same scenario
        suspected,
        drift,
    ]
    count = count_defects(findings)
    assert (count.defects, count.errors, count.warnings) == (2, 1, 1)
    assert (count.findings, count.scenarios, count.suspected, count.details) == (4, 2, 1, 1)
    assert count.words() == (
        "2 defects from 4 findings in 2 scenarios: 1 error, 1 warning "
        "(1 suspected emulator gap); 1 drifted without changing the plan (detail, not a defect)"
    )
    # The same words in the summary, the failure text, the JSON and JUnit's suite.
    summary = summary_lines({"modules/sqs": findings})
    assert f"1 module, {count.words()}" in summary
    assert count.words() in format_defects(findings)
    assert json_report(["modules/sqs"], [], findings)["counts"] == count.to_dict()
    assert ("converge.summary", count.words()) in junit_suite_properties(findings)
    assert ("converge.defects", "2") in junit_suite_properties(findings)
    # One cause, one id: what JUnit's and the JSON's findings carry.
    causes = {dict(junit_properties(d)).get("converge.cause") for d in findings}
    assert len(causes - {None}) == count.defects
    assert count_defects([]).words() == "no defects"


def test_a_failure_shows_the_resource_file_under_its_module_and_no_empty_side(
    tmp_path: Path,
) -> None:
    here = tmp_path / "modules" / "build"
    text = format_defects([_escape(here)])
    assert "   module     modules/build (main.tf:3)" in text
    assert str(tmp_path) not in text
    failed = Defect(
        kind="recovery-failed", address="aws_vpc.main", module="m", observed="boom", message="x"
    )
    rows = format_defects([failed]).splitlines()
    assert '   observed   "boom"' in rows
    assert not any(row.startswith("   declared") for row in rows)
