"""`pytest --converge` on example roots of widely used public AWS modules.

These modules converge on AWS, so every error-level finding they get here must
be a known emulator gap, marked ``emulator_suspected`` with its ``evidence``
(``pytest_converge/data/emulator_gaps.json``, reproduced in
``test_emulator_gaps.py``); anything else is a false alarm of the plugin.

Committed roots (``tests/corpus/<module>-<tag>/``, Apache-2.0, LICENSE kept,
only the files the roots need) run in CI: a few, to keep the suite short.
The wider corpus runs by hand: fetch the modules below at their tags, unpack
each as ``<dir>/<module>-<tag>/`` and run

    CONVERGE_PUBLIC_CORPUS=<dir> pytest tests/integration/test_public_corpus.py -m slow
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: (root, a finding the emulator is known to cause there, or None): run in CI. vpc
#: ``ipv6`` met moto 5.2's stringified IPv6 association state (every subnet's
#: ipv6_cidr_block read back empty); the fidelity layer answers as AWS does now.
CI_ROOTS: list[tuple[str, tuple[str, str] | None]] = [
    ("sqs-v3.1.0/examples/complete", None),
    ("security-group-v4.17.2/examples/rules-only", None),
    ("vpc-v3.7.0/examples/ipv6", None),
]

#: Run only with CONVERGE_PUBLIC_CORPUS (see the module docstring). Sources:
#: github.com/terraform-aws-modules/terraform-aws-<module> at the tag, Apache-2.0.
#: The IAM roots attach AWS-managed policies: until the emulator has them on its
#: own, run with MOTO_IAM_LOAD_MANAGED_POLICIES=true.
#: Left out, each for a reason of its own:
#: - they need the random provider or a registry module (offline here): vpc
#:   vpc-flow-logs, security-group complete, cloudwatch cis-alarms and the
#:   lambda/metric-filter examples, iam iam-eks-role and the EKS example;
#: - moto cannot serve a call they make (test_emulator_gaps.py): s3-bucket v2.8.0
#:   complete (PutBucketLogging), dynamodb-table v1.2.2 global-tables (UpdateTable
#:   ReplicaUpdates ignored: the wait is stopped and named);
#: - they cannot run on AWS as they stand either (tests/corpus5/FINDINGS.md has the
#:   5.x twins): vpc outpost reads an outpost of its author's account, iam
#:   iam-read-only-policy names a placeholder Identity Center instance ARN AWS refuses;
#: - dynamodb-table v1.2.2 basic and autoscaling use random_pet (they converge
#:   with a fixed name in its place);
#: - iam iam-user fetches a PGP key from keybase.io (network);
#: - iam iam-assumable-roles-with-saml creates roles admin/developer/readonly
#:   twice in one account: it cannot apply on AWS either;
#: - vpc network-acls gets a real permanent diff with provider 3.39, which never
#:   sends the empty Name tag of aws_default_network_acl (not the emulator: see
#:   test_moto_keeps_an_empty_name_tag_on_a_default_network_acl);
#: - sns v3.3.0 reads aws_sns_topic.owner, which provider 3.39 lacks although the
#:   module accepts it (sns v3.2.0 is used instead).
MANUAL_ROOTS = [
    "vpc-v3.7.0/examples/complete-vpc",
    "vpc-v3.7.0/examples/simple-vpc",
    "vpc-v3.7.0/examples/issues",
    "vpc-v3.7.0/examples/manage-default-vpc",
    "vpc-v3.7.0/examples/secondary-cidr-blocks",
    "vpc-v3.7.0/examples/vpc-separate-private-route-tables",
    "security-group-v4.17.2/examples/computed",
    "security-group-v4.17.2/examples/disabled",
    "security-group-v4.17.2/examples/dynamic",
    "security-group-v4.17.2/examples/http",
    "sns-v3.2.0/examples/complete",
    "cloudwatch-v3.3.0/examples/log-group-with-log-stream",
    "iam-v4.24.1/examples/iam-account",
    "iam-v4.24.1/examples/iam-policy",
    "iam-v4.24.1/examples/iam-assumable-role",
    "iam-v4.24.1/examples/iam-assumable-roles",
    "iam-v4.24.1/examples/iam-assumable-role-with-oidc",
    "iam-v4.24.1/examples/iam-assumable-role-with-saml",
    "iam-v4.24.1/examples/iam-group-complete",
    "iam-v4.24.1/examples/iam-group-with-assumable-roles-policy",
    "iam-v4.24.1/examples/iam-group-with-policies",
]


def _converge(pytester: pytest.Pytester, base: Path, root: str) -> dict[str, Any]:
    """Run zero-code mode on one root in a fresh pytest; return its JSON report.

    The module (``<module>-<tag>/``, which its examples call as ``../../``) is
    copied out of this repository first, as a user's checkout would be: under
    ``tests/`` the run would pick up this project's own conftest.
    """
    module = root.split("/", 1)[0]
    shutil.copytree(base / module, pytester.path / module)
    report = pytester.path / "report.json"
    result = pytester.runpytest_subprocess(
        "--converge",
        root,
        "--converge-faults=none",
        "--converge-report",
        str(report),
        "-p",
        "no:cacheprovider",
    )
    assert report.exists(), f"no JSON report for {root}:\n{result.stdout.str()}"
    data = json.loads(report.read_text())
    data["output"] = result.stdout.str()
    return data


def _check(data: dict[str, Any], root: str) -> None:
    outcomes = [s["outcome"] for s in data["scenarios"]]
    # An infrastructure error (emulator, init, provider) is no verdict on the module.
    assert outcomes and "error" not in outcomes, f"{root}: {outcomes}\n{data['output']}"
    errors = [d for d in data["defects"] if d["severity"] == "error"]
    unexplained = [d for d in errors if not d.get("emulator_suspected")]
    assert not unexplained, "\n".join(
        f"{d['kind']} {d.get('address')} {d.get('attribute')}: "
        f"{d.get('declared')!r} -> {d.get('observed')!r} ({d.get('classification')})"
        for d in unexplained
    )
    for d in errors:
        assert d.get("evidence"), f"{d.get('address')}.{d.get('attribute')}: no evidence"


@pytest.mark.slow
@pytest.mark.parametrize(("root", "known_gap"), CI_ROOTS, ids=[root for root, _ in CI_ROOTS])
def test_public_root_has_no_unexplained_error(
    pytester: pytest.Pytester, root: str, known_gap: tuple[str, str] | None
) -> None:
    data = _converge(pytester, CORPUS, root)
    _check(data, root)
    if known_gap is None:
        # Verified: not even a warning that the emulator is suspected of.
        suspected = [d for d in data["defects"] if d.get("emulator_suspected")]
        assert not suspected, suspected
    else:
        # The gap still shows (nothing silently dropped), marked as the emulator's.
        resource_type, attribute = known_gap
        marked = [
            d
            for d in data["defects"]
            if f"{resource_type}." in (d.get("address") or "") and d.get("attribute") == attribute
        ]
        assert marked, f"{resource_type}.{attribute} no longer reported on {root}"
        assert all(d.get("emulator_suspected") for d in marked), marked


@pytest.mark.slow
@pytest.mark.parametrize("root", MANUAL_ROOTS)
def test_public_root_manual(pytester: pytest.Pytester, root: str) -> None:
    base = os.environ.get("CONVERGE_PUBLIC_CORPUS")
    if not base:
        pytest.skip("set CONVERGE_PUBLIC_CORPUS to a directory of unpacked modules to run")
    for where in (Path(base), CORPUS):
        if (where / root).is_dir():
            _check(_converge(pytester, where, root), root)
            return
    pytest.skip(f"{root} is not under {base}")
