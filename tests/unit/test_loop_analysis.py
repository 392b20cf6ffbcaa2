"""The loop's analysis on plain data: drift events, flapping, not-converging, destructive fixes."""

from __future__ import annotations

from typing import Any

from pytest_converge.analysis.plan import parse_plan
from pytest_converge.analysis.reconciliation import (
    Observation,
    OutOfBand,
    analyse,
    drifted,
    track_drift,
)

QUEUE = "aws_sqs_queue.work"


def rc(address: str, actions: list[str], before: Any, after: Any, **extra: Any) -> dict:
    rtype, name = address.split(".")[-2:]
    return {
        "address": address,
        "mode": "managed",
        "type": rtype,
        "name": name,
        "change": {"actions": actions, "before": before, "after": after, **extra},
    }


def plan(changes: list[dict] = (), drift: list[dict] = ()):  # type: ignore[assignment]
    return parse_plan({"resource_changes": list(changes), "resource_drift": list(drift)})


def timeout_drift(state: int, found: int) -> dict:
    return rc(QUEUE, ["update"], {"name": "q", "vt": state}, {"name": "q", "vt": found})


def timeout_revert(found: int, declared: int) -> dict:
    return rc(QUEUE, ["update"], {"name": "q", "vt": found}, {"name": "q", "vt": declared})


def cycle(
    n: int,
    p=None,
    *,
    paused: bool = False,
    calls: list[OutOfBand] = (),  # type: ignore[assignment]
    applied: bool | None = None,
    apply_error: str | None = None,
    writes: int = 0,
) -> Observation:
    p = p if p is not None else plan()
    changed = {c.address for c in p.changes}
    applied = (not paused and not p.is_empty) if applied is None else applied
    return Observation(
        number=n,
        paused=paused,
        started=100.0 * n,
        seconds=2.0,
        reads=10,
        writes=writes,
        plan=p,
        applied=applied,
        apply_error=apply_error,
        completed={a: 100.0 * n + 1.5 for a in changed} if applied else {},
        out_of_band=list(calls),
        resources=2,
    )


def call(writer: str, n: int, op: str = "SetQueueAttributes", **kw: Any) -> OutOfBand:
    return OutOfBand(writer, op, at=100.0 * n - 1.0, cycle=n, **kw)


def test_drifted_lists_attributes_and_deletions_without_tags_all_echo():
    p = plan(
        drift=[
            rc(
                "aws_vpc.a",
                ["update"],
                {"tags": {"env": "a"}, "tags_all": {"env": "a"}, "x": None},
                {"tags": {"env": "b"}, "tags_all": {"env": "b"}, "x": ""},
            ),
            rc("aws_sqs_queue.q", ["delete"], {"name": "q"}, None),
        ]
    )
    found = [(d.address, d.attribute, d.change) for d in drifted(p)]
    assert found == [("aws_vpc.a", "tags.env", "modify"), ("aws_sqs_queue.q", None, "delete")]


def test_autoscaler_every_cycle_is_flapping_between_two_values():
    cycles = [
        cycle(
            n,
            plan([timeout_revert(120, 60)], [timeout_drift(60, 120)]),
            calls=[call("autoscaler", n)],
            writes=1,
        )
        for n in (1, 2, 3)
    ]
    result = analyse(cycles, alert=2)
    [flap] = result.flapping
    assert (flap.address, flap.attribute) == (QUEUE, "vt")
    assert flap.values == [60, 120]
    assert flap.writers == ["terraform", "autoscaler"]
    assert flap.cycles == [1, 2, 3]
    # Reverting another writer's change is flapping, not a loop that cannot converge.
    assert [d.kind for d in result.defects] == ["flapping"]
    assert [(e.detected_cycle, e.reverted_cycle, e.lifetime_cycles) for e in result.drift] == [
        (1, 1, 1),
        (2, 2, 1),
        (3, 3, 1),
    ]
    assert result.drift[0].lifetime_seconds == 2.5  # call at 99.0, revert completed at 101.5


def test_paused_drift_lives_until_the_first_cycle_after_resume():
    drift = plan([timeout_revert(300, 60)], [timeout_drift(60, 300)])
    cycles = [
        cycle(1, drift, paused=True, calls=[call("oncall", 1, once=True, targets=(QUEUE,))]),
        cycle(2, drift, paused=True),
        cycle(3, drift, paused=True),
        cycle(4, drift),
    ]
    events = track_drift(cycles)
    [event] = events
    assert (event.by, event.detected_cycle, event.reverted_cycle) == ("oncall", 1, 4)
    assert event.lifetime_cycles == 4
    assert event.lifetime_seconds == 401.5 - 99.0
    result = analyse(cycles[:3])
    assert result.drift[0].reverted_cycle is None and not result.defects
    # One run's report: the event from an earlier run, reverted in this one, is in it.
    later = analyse(cycles, since=4)
    assert [c.number for c in later.cycles] == [4] and later.drift[0].reverted_cycle == 4


def test_codified_value_is_kept_not_reverted():
    cycles = [
        cycle(
            1,
            plan([timeout_revert(300, 60)], [timeout_drift(60, 300)]),
            paused=True,
            calls=[call("oncall", 1, once=True)],
        ),
        # The code now declares 300: refresh still finds drift, the plan changes nothing.
        cycle(2, plan([], [timeout_drift(60, 300)]), applied=True),
        cycle(3, plan()),
    ]
    [event] = track_drift(cycles)
    assert (event.outcome, event.reverted_cycle, event.kept_cycle) == ("kept", None, 2)
    assert event.lifetime_cycles == 2


def test_permanent_change_is_not_converging_after_the_threshold_only():
    change = rc("aws_sqs_queue.orders", ["update"], {"p": '{"a":3}'}, {"p": '{"a":"3"}'})
    cycles = [cycle(n, plan([change]), writes=1) for n in (1, 2, 3)]
    assert analyse(cycles[:2], alert=3).defects == []
    [defect] = analyse(cycles, alert=3).defects
    assert defect.kind == "not-converging"
    assert defect.address == "aws_sqs_queue.orders" and defect.attribute == "p"
    assert "3 consecutive cycles (1-3)" in defect.message
    assert "update aws_sqs_queue.orders (p)" in defect.message


def test_paused_cycles_break_a_streak_and_errors_repeat():
    change = rc("aws_sqs_queue.orders", ["update"], {"p": 1}, {"p": 2})
    cycles = [
        cycle(1, plan([change])),
        cycle(2, plan([change]), paused=True),
        cycle(3, plan([change])),
    ]
    assert analyse(cycles, alert=2).defects == []
    failing = [cycle(n, plan([change]), apply_error="AccessDenied: no", writes=0) for n in (1, 2)]
    [defect] = analyse(failing, alert=2).defects
    assert "error: AccessDenied: no" in defect.message


def test_revert_that_replaces_a_table_is_destructive():
    table = "aws_dynamodb_table.orders"
    replace = rc(
        table,
        ["delete", "create"],
        {"hash_key": "id"},
        {"hash_key": "pk"},
        replace_paths=[["hash_key"]],
    )
    drift = rc(table, ["update"], {"hash_key": "pk"}, {"hash_key": "id"})
    cycles = [cycle(1, plan([replace], [drift]), calls=[call("oncall", 1, op="UpdateTable")])]
    [defect] = analyse(cycles).defects
    assert defect.kind == "destructive-correction"
    assert defect.address == table and defect.attribute == "hash_key"
    assert "replace" in defect.message


def test_console_change_no_plan_sees_is_unnoticed():
    cycles = [
        cycle(
            1,
            plan(),
            calls=[
                call(
                    "oncall",
                    1,
                    op="DeleteSecret",
                    once=True,
                    targets=("aws_secretsmanager_secret.s",),
                )
            ],
        ),
        cycle(2, plan()),
    ]
    [defect] = analyse(cycles).defects
    assert defect.kind == "unnoticed-drift" and defect.address == "aws_secretsmanager_secret.s"
    assert "DeleteSecret by oncall" in defect.message
    # A recurring writer's no-op calls are not findings.
    quiet = [cycle(1, plan(), calls=[call("autoscaler", 1, targets=(QUEUE,))])]
    assert analyse(quiet).defects == []


def test_drift_with_no_out_of_band_call_is_kept_unattributed():
    cycles = [cycle(1, plan([timeout_revert(120, 60)], [timeout_drift(60, 120)]))]
    [event] = analyse(cycles).drift
    assert event.by is None and event.calls == []


def test_terraform_and_each_writer_sign_with_their_own_key():
    from pytest_converge.emulator.base import (
        FAKE_ACCESS_KEY,
        TERRAFORM_ACCESS_KEY,
        access_key_for,
    )
    from pytest_converge.terraform.workspace import (
        ProviderConfig,
        ProviderSchema,
        provider_override,
    )

    keys = {TERRAFORM_ACCESS_KEY, FAKE_ACCESS_KEY, access_key_for("autoscaler")}
    assert len(keys) == 3
    # 20 characters, AKIA: moto and LocalStack map them all to their default account.
    assert all(len(k) == 20 and k.startswith("AKIA") for k in keys)
    schema = ProviderSchema("3.39.0", frozenset({"access_key"}), frozenset({"sqs"}))
    ours, _ = provider_override("http://127.0.0.1:1", [ProviderConfig(None, True)], schema)
    assert f'access_key = "{TERRAFORM_ACCESS_KEY}"' in ours
    console, _ = provider_override(
        "http://127.0.0.1:1", [ProviderConfig(None, True)], schema, access_key_for("console")
    )
    assert f'access_key = "{access_key_for("console")}"' in console


def test_read_back_after_our_own_apply_is_not_drift():
    policy = rc("aws_sqs_queue.q", ["update"], {"policy": ""}, {"policy": "{}"})
    cycles = [cycle(1, plan([timeout_revert(120, 60)]), applied=True), cycle(2, plan([], [policy]))]
    assert analyse(cycles).drift == []
