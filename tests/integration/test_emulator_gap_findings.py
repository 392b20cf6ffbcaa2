"""Known emulator gaps as findings: marked, with evidence, never dropped.

``tests/modules/emulator_gaps`` declares a value the embedded moto keeps
nothing of although AWS keeps it (reproduced on its own in
test_emulator_gaps.py). The finding is still listed, marked
``emulator_suspected`` with the catalogue entry as evidence, and is a warning
(an error with ``--converge-strict``). What follows from a gap is shown on
moto as released (the fidelity layer off, the gaps it retired catalogued):
the gap it needs, a dropped value that forces replacement, is one moto 5.2 has.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_converge.analysis.gaps import load_catalogue

MODULE = Path(__file__).resolve().parents[1] / "modules" / "emulator_gaps"

#: (address, attribute) -> the catalogue entry (resource type, attribute) it reproduces.
REPRODUCED = {
    ("aws_security_group_rule.office", "description"): ("aws_security_group_rule", "description"),
}


def test_catalogue_entries_reproduce_and_are_marked_not_dropped(converge):
    stack = converge(MODULE)
    stack.assert_converged()  # every finding is a suspected emulator gap: warnings only
    found = {(d.address, d.attribute): d for d in stack.defects if d.kind == "permanent-diff"}
    assert set(found) == set(REPRODUCED), found
    catalogue = {(g.resource_type, g.attribute): g for g in load_catalogue()}
    for key, entry in REPRODUCED.items():
        defect = found[key]
        assert defect.emulator_suspected, defect
        assert defect.severity == "warning"
        assert catalogue[entry].real_api.rstrip(".") in defect.evidence
        assert "reproduced with moto" in defect.evidence
    # A value the API keeps nothing of: `dropped`.
    assert found[("aws_security_group_rule.office", "description")].classification == "dropped"


FOLLOWERS_TEST = """
def test_followers(converge):
    stack = converge({module!r})
    stack.assert_converged()  # the outputs' changes follow from the gap: warnings only
    found = {{d.address: d for d in stack.defects}}
    gateways = ['module.gw.aws_customer_gateway.this["office"]', "aws_customer_gateway.branch"]
    outputs = ["output.cgw_ids", "output.this_customer_gateway", "output.branch_id"]
    assert set(found) == {{*gateways, *outputs}}, found
    for address in gateways:
        assert found[address].attribute == "device_name" and found[address].emulator_suspected
        # One finding for the replaced gateway: not its id/arn "known after apply" as well.
        assert found[address].classification == "dropped"
    for address in outputs:
        defect = found[address]
        assert defect.kind == "output-change" and defect.emulator_suspected, defect
        assert defect.severity == "warning"
        assert defect.evidence.startswith("follows from the suspected emulator gap of "), defect
    assert "aws_customer_gateway.branch device_name" in found["output.branch_id"].evidence
"""


def test_outputs_built_from_a_suspected_gap_are_suspected_too(moto_as_released):
    """moto as released drops a customer gateway's device_name, which forces its
    replacement: outputs built from the attribute, or from the replaced gateway."""
    moto_as_released.makepyfile(FOLLOWERS_TEST.format(module=str(MODULE.parent / "gap_outputs")))
    result = moto_as_released.runpytest_subprocess("-p", "no:cacheprovider", "-n", "0")
    result.assert_outcomes(passed=1)


def test_zero_code_lists_suspected_gaps_and_strict_keeps_them_errors(pytester):
    shutil.copytree(MODULE, pytester.path / "mods" / "gaps")
    args = ["--converge", "mods", "--converge-faults=none", "-p", "no:cacheprovider"]
    relaxed = pytester.runpytest_subprocess(*args, "--converge-report", "report.json")
    relaxed.assert_outcomes(passed=1)
    out = relaxed.stdout.str()
    assert "suspected emulator gaps (1 of the defects above, probably not the module's):" in out
    assert "aws_security_group_rule.office . description: known moto" in out
    report = json.loads((pytester.path / "report.json").read_text())
    diffs = [d for d in report["defects"] if d["kind"] == "permanent-diff"]
    assert len(diffs) == 1
    assert all(d["emulator_suspected"] and d["evidence"] for d in diffs)

    strict = pytester.runpytest_subprocess(*args, "--converge-strict")
    strict.assert_outcomes(failed=1)
    assert "[suspected emulator gap]" in strict.stdout.str()


@pytest.mark.parametrize(
    "entry", load_catalogue(), ids=lambda g: f"{g.resource_type}.{g.attribute}"
)
def test_every_catalogue_entry_says_what_aws_does_and_how_it_was_reproduced(entry):
    assert entry.emulator in ("moto", "localstack", "ministack")
    assert len(entry.real_api) > 20
    assert "reproduc" in entry.evidence or "http" in entry.evidence


def test_an_operation_the_emulator_does_not_implement_is_named(converge):
    stack = converge(MODULE.parent / "unimplemented_api")
    result = stack.apply()
    assert not result.ok
    text = str(result.error)
    assert (
        text.splitlines()[1]
        .strip()
        .startswith("the moto emulator does not implement `codeartifact:GetAuthorizationToken`")
    )
    assert "3c 21 64 6f" not in text  # no hex dump of moto's HTML page
    assert [c.label for c in result.calls if c.unimplemented]


def test_an_unimplemented_action_of_an_implemented_service_is_named(converge, tmp_path):
    (tmp_path / "main.tf").write_text(
        'provider "aws" {\n  region = "us-east-1"\n}\n'
        'resource "aws_spot_datafeed_subscription" "c" {\n'
        '  bucket = "spot-datafeed"\n'
        "}\n"
    )
    result = converge(tmp_path).apply()
    assert not result.ok
    assert "the moto emulator does not implement `ec2:CreateSpotDatafeedSubscription`" in str(
        result.error
    )


def test_junit_xml_carries_classification_emulator_suspected_and_evidence(pytester):
    import xml.etree.ElementTree as ET

    pytester.makepyfile(
        f"""
        def test_gaps(converge):
            converge({str(MODULE)!r}).assert_converged()
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--junitxml=junit.xml")
    result.assert_outcomes(passed=1)
    case = ET.parse(pytester.path / "junit.xml").find(".//testcase")
    assert case is not None
    props = [(p.get("name"), p.get("value")) for p in case.iter("property")]
    assert ("converge.classification", "dropped") in props
    assert ("converge.emulator_suspected", "true") in props
    evidence = [v for n, v in props if n == "converge.evidence"]
    assert len(evidence) == 1 and all("reproduced with moto" in v for v in evidence)


def test_an_error_page_to_an_operation_moto_serves_names_the_request(converge, tmp_path):
    # moto serves DescribeVpcs, and fails (an HTML 500) on a filter it has no code for.
    (tmp_path / "main.tf").write_text(
        'provider "aws" {\n  region = "us-east-1"\n}\n'
        'resource "aws_vpc" "v" {\n  cidr_block = "10.0.0.0/16"\n}\n'
        'data "aws_vpcs" "pooled" {\n'
        "  filter {\n"
        '    name   = "ipv6-cidr-block-association.ipv6-pool"\n'
        "    values = [aws_vpc.v.id]\n"
        "  }\n"
        "}\n"
    )
    result = converge(tmp_path).apply()
    assert not result.ok
    text = str(result.error)
    assert "the moto emulator failed on a `ec2:DescribeVpcs` request" in text, text
    assert "Filter.1.Name=ipv6-cidr-block-association.ipv6-pool" in text
    assert "does not implement `ec2:DescribeVpcs`" not in text
