"""A failed recovery and the object the fault left behind are one finding (plain data)."""

from __future__ import annotations

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.left_behind import left_behind
from pytest_converge.analysis.leftovers import find_leftovers
from pytest_converge.inventory import CloudObject
from pytest_converge.report import format_defects

SCENARIO = "crash@CreateSecurityGroup#1@aws_security_group.app"
GROUP = CloudObject("aws_security_group", "sg-0a1", name="app", attributes={"vpc_id": "vpc-1"})
RULE = CloudObject(
    "aws_security_group_rule",
    "sg-0a1/egress/-1/all/0.0.0.0/0",
    attributes={"security_group_id": "sg-0a1"},
)
ERROR = (
    "Error creating Security Group: InvalidGroup.Duplicate: The security group 'app' "
    "already exists [aws_security_group.app, main.tf:40]"
)


def failed(address: str = "aws_security_group.app") -> Defect:
    return Defect(
        kind="recovery-failed",
        address=address,
        module="mods/net",
        scenario=SCENARIO,
        observed=ERROR,
        message=f"after {SCENARIO} the clean re-run failed: {ERROR}",
        why="the re-run cannot complete",
        fix="`terraform import aws_security_group.app <id>`",
    )


def orphans(*created: CloudObject) -> list[Defect]:
    return find_leftovers(created, [], module="mods/net", scenario=SCENARIO)


def test_the_object_left_behind_is_part_of_the_recovery_it_failed() -> None:
    found = left_behind([failed(), *orphans(GROUP, RULE)], [GROUP, RULE], "aws_security_group.app")

    [defect] = found
    assert defect.kind == "recovery-failed" and defect.address == "aws_security_group.app"
    # The group and the rule AWS gave it: one leftover, named by the resource the fault hit.
    assert defect.objects == ["sg-0a1", "sg-0a1/egress/-1/all/0.0.0.0/0"]
    assert "left aws_security_group sg-0a1 (app) in us-east-1 behind" in defect.message
    assert "its name is taken" in defect.why
    # Adopt it into that resource, or remove it with the catalogue's command.
    assert "`terraform import aws_security_group.app sg-0a1`" in defect.fix
    assert "`aws ec2 delete-security-group --group-id sg-0a1 --region us-east-1`" in defect.fix
    assert "<id>" not in defect.fix and "<address>" not in defect.fix


def test_the_why_says_how_the_fault_kept_the_object_out_of_state() -> None:
    """A lost answer did not end terraform; a crash did; a run of several points knows
    neither, and says what is true of both."""
    from dataclasses import replace

    def why_after(scenario: str) -> tuple[str, str]:
        cause = replace(failed(), scenario=scenario)
        [defect] = left_behind([cause, *orphans(GROUP)], [GROUP], "aws_security_group.app")
        return defect.why, defect.fix

    lost, lost_fix = why_after("lost-response@CreateSecurityGroup#1@aws_security_group.app")
    assert "answer was lost" in lost and "died" not in lost
    assert lost_fix.count("A lost answer") == 1 and "crash" not in lost_fix.lower()
    crashed, _ = why_after(SCENARIO)
    assert "died" in crashed and "lost" not in crashed
    several, _ = why_after("4 points together")
    assert "died" not in several and "never recorded it in state" in several


def test_an_orphan_without_a_failed_recovery_is_named_by_the_resource_the_fault_hit() -> None:
    [orphan] = left_behind(orphans(GROUP), [GROUP], "aws_security_group.app")

    assert orphan.kind == "orphan" and orphan.address == "aws_security_group.app"
    assert "`terraform import aws_security_group.app sg-0a1`" in orphan.fix
    text = format_defects([orphan])
    assert "(no address)" not in text and "<address>" not in text
    assert "declared" not in text  # nothing was declared: no `declared null` line


def test_an_orphan_of_another_type_is_named_by_the_hit_but_not_adopted_into_it() -> None:
    table = CloudObject("aws_dynamodb_table", "locks")
    [recovery, orphan] = left_behind([failed(), *orphans(table)], [table], "aws_security_group.app")

    assert recovery == failed()
    assert orphan.address == "aws_security_group.app"
    assert "terraform import aws_security_group.app" not in orphan.fix
    assert "`aws dynamodb delete-table --table-name locks --region us-east-1`" in orphan.fix
    assert "<address>" not in orphan.fix


def test_a_recovery_that_failed_elsewhere_keeps_the_orphan_apart() -> None:
    found = left_behind(
        [failed("aws_subnet.app"), *orphans(GROUP)], [GROUP], "aws_security_group.app"
    )

    assert [d.kind for d in found] == ["recovery-failed", "orphan"]
    assert found[1].address == "aws_security_group.app"


def test_without_a_known_hit_nothing_changes() -> None:
    found = [failed(), *orphans(GROUP)]
    assert left_behind(found, [GROUP], None) == found
    # The orphan's own fix names no placeholder address either.
    assert "<address>" not in found[1].fix


def test_an_orphan_of_the_world_check_is_named_by_the_resource_the_fault_hit() -> None:
    held = Defect(
        kind="orphan",
        module="mods/net",
        scenario=SCENARIO,
        objects=["aws_s3_object bucket=site, key=stray.html"],
        fix="delete the object by hand",
    )
    [orphan] = left_behind([held], [GROUP], "aws_s3_object.page")
    assert orphan.address == "aws_s3_object.page" and orphan.fix == held.fix


def test_an_object_whose_id_another_type_shares_is_told_apart_by_its_type() -> None:
    # vpc v5.21.0 examples/complete names an ElastiCache and a Redshift subnet group
    # "ex-complete": a lost CreateCacheSubnetGroup answer left the ElastiCache one.
    cache = CloudObject("aws_elasticache_subnet_group", "ex-complete", name="ex-complete")
    redshift = CloudObject("aws_redshift_subnet_group", "ex-complete", name="ex-complete")
    hit = "module.vpc.aws_elasticache_subnet_group.elasticache[0]"
    error = "creating ElastiCache Subnet Group (ex-complete): CacheSubnetGroupAlreadyExists"
    refused = Defect(
        kind="recovery-failed", address=hit, observed=error, message=f"re-run failed: {error}"
    )
    [orphan] = find_leftovers([cache], [], module="m", scenario=SCENARIO)

    [joined] = left_behind([refused, orphan], [cache, redshift], hit)

    assert joined.kind == "recovery-failed" and joined.objects == ["ex-complete"]
    assert "left aws_elasticache_subnet_group ex-complete" in joined.message
    assert "redshift" not in joined.fix.lower()
