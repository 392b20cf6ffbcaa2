"""`pytest --converge` on public AWS modules at their newest tags for aws 5.x.

The 5.x twin of ``test_public_corpus.py``: example roots of
terraform-aws-modules at the newest tag whose ``versions.tf`` still accepts
aws 5.x (``tests/corpus5/<module>-<tag>/``, Apache-2.0, LICENSE kept, only the
files the roots need), run on the real aws provider 5.100.0. Every root is either
verified (the two-run passes with no error, warning, suspected emulator gap or
stall: the embedded moto's fidelity layer answers as AWS does where moto 5.2
does not) or ends ``xfail`` with its cause named, after checking that the cause
still shows and the root still fails; the evidence for each is in
``tests/corpus5/FINDINGS.md``.

Skipped by default: a 5.x two-run costs 20-200 s a root (the 35 roots about
30 minutes on two cores, the two fault matrices 40 more; select with -k), and
the offline mirror bundles aws 3.39 only.
To run it, point ``CONVERGE_PUBLIC_CORPUS5`` at a filesystem mirror holding
``registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/`` (these machines:
``/opt/tf-plugins``)::

    CONVERGE_PUBLIC_CORPUS5=/opt/tf-plugins pytest -n 0 -m slow \\
        tests/integration/test_public_corpus5.py

The runs use a private cache (``CONVERGE_CACHE_DIR`` in a temp dir), never the
user's ``~/.cache/pytest-converge``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(__file__).resolve().parents[1] / "corpus5"
MIRROR_ENV = "CONVERGE_PUBLIC_CORPUS5"
TIMEOUT = "180"

#: Roots verified here: the two-run passes with no finding that is an error, a
#: warning, a suspected emulator gap or a stall (the fidelity layer answers as
#: AWS does where moto 5.2 does not: tests/corpus5/FINDINGS.md).
VERIFIED = [
    "vpc-v5.21.0/examples/simple",
    "vpc-v5.21.0/examples/manage-default-vpc",
    "vpc-v5.21.0/examples/secondary-cidr-blocks",
    "vpc-v5.21.0/examples/separate-route-tables",
    "vpc-v5.21.0/examples/complete",
    "vpc-v5.21.0/examples/network-acls",
    "vpc-v5.21.0/examples/block-public-access",
    "vpc-v5.21.0/examples/ipv6-dualstack",
    "vpc-v5.21.0/examples/ipv6-only",
    "iam-v5.60.0/examples/iam-account",
    "iam-v5.60.0/examples/iam-assumable-role",
    "iam-v5.60.0/examples/iam-assumable-role-with-oidc",
    "iam-v5.60.0/examples/iam-assumable-role-with-saml",
    "iam-v5.60.0/examples/iam-assumable-roles",
    "iam-v5.60.0/examples/iam-assumable-roles-with-saml",
    "iam-v5.60.0/examples/iam-group-with-assumable-roles-policy",
    "iam-v5.60.0/examples/iam-group-with-policies",
    "iam-v5.60.0/examples/iam-policy",
    # No provider block: the default provider's override covers STS on 5.x too.
    "iam-v5.60.0/examples/iam-group-complete",
    "security-group-v5.3.1/examples/computed",
    "security-group-v5.3.1/examples/disabled",
    "security-group-v5.3.1/examples/dynamic",
    "security-group-v5.3.1/examples/http",
    "security-group-v5.3.1/examples/rules-only",
    "sqs-v4.3.1/examples/complete",
    "cloudwatch-v5.7.2/examples/log-group-with-log-stream",
    "cloudwatch-v5.7.2/examples/log-group-with-data-protection-policy",
    "cloudwatch-v5.7.2/examples/query-definition",
]

#: The account vpc ``outpost`` was written for (shaped so, the root reaches its
#: own bug, see KNOWN): its provider assumes the role
#: ``outpost-shared-anton`` of account 562806027032 and reads the outpost
#: ``SEA19.07`` there. An account has an outpost only if one was ordered for it,
#: so a real account shaped for this example holds both; this conftest shapes
#: the emulator so (at its start and after every reset), through the public
#: ``pytest_converge_make_emulator`` hook, as a user whose module reads an
#: existing object would. (An Emulator without ``launch()``: the session
#: starts it and waits, so the account is shaped before the first run.)
OUTPOST_ACCOUNT = """
import json

from pytest_converge.emulator import Emulator, MotoEmulator

ACCOUNT = "562806027032"


class AuthorsAccount(Emulator):
    name = "moto"

    def __init__(self):
        self.moto = MotoEmulator()

    @property
    def endpoint(self):
        return self.moto.endpoint

    def start(self):
        self.moto.start()
        self.shape()

    def reset(self):
        self.moto.reset()
        self.shape()

    def stop(self):
        self.moto.stop()

    def is_alive(self):
        return self.moto.is_alive()

    def world(self):
        return self.moto.world()

    def client_of(self, service):
        client = self.client(service, region="eu-west-1")
        client.meta.events.register(
            "before-sign",
            lambda request, **_: request.headers.__setitem__("x-moto-account-id", ACCOUNT),
        )
        return client

    def shape(self):
        me = self.client("sts").get_caller_identity()["Account"]
        allow = {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{me}:root"},
                 "Action": "sts:AssumeRole"}
        self.client_of("iam").create_role(
            RoleName="outpost-shared-anton",
            AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [allow]}),
        )
        outposts = self.client_of("outposts")
        site = outposts.create_site(Name="SEA19")["Site"]["SiteId"]
        outposts.create_outpost(Name="SEA19.07", SiteId=site, AvailabilityZone="eu-west-1a")


def pytest_converge_make_emulator(config, backend):
    return AuthorsAccount() if backend == "moto" else None
"""
#: Roots run with a conftest that shapes the account they were written for.
SHAPED = {"vpc-v5.21.0/examples/outpost": OUTPOST_ACCOUNT}

#: Roots that end with a named cause (FINDINGS.md has the evidence): none is an
#: emulator gap: root -> (cause, text of the run's output that shows it).
KNOWN: dict[str, tuple[str, str]] = {
    "vpc-v5.21.0/examples/ipam": (
        "needs a targeted first apply (its README: apply -target the CIDR preview first)",
        "Invalid count argument",
    ),
    "vpc-v5.21.0/examples/issues": (
        "module bug: with database/elasticache subnets and no private subnets, "
        "coalescelist() of two empty route-table lists fails at plan",
        'Call to function "coalescelist" failed',
    ),
    "vpc-v5.21.0/examples/outpost": (
        "module bug: three outpost_subnet_ipv6_prefixes for two outpost_subnets make a third "
        'outpost subnet whose cidr_block is "" (and aws 5.x requires customer_owned_ipv4_pool '
        "and map_customer_owned_ip_on_launch beside outpost_arn)",
        '"" is not a valid CIDR block',
    ),
    "iam-v5.60.0/examples/iam-read-only-policy": (
        "module example: its permission set names the placeholder instance ARN "
        "arn:aws:sso:::instance/example, which AWS refuses (ValidationException: not an "
        "IAM Identity Center instance ARN)",
        "'arn:aws:sso:::instance/example' at 'instanceArn' failed to satisfy constraint",
    ),
    "iam-v5.60.0/examples/iam-user": (
        "offline: the provider fetches a PGP key from keybase.io",
        "keybase.io",
    ),
    "kms-v3.1.1/examples/complete": (
        "module bug: root outputs of the sensitive grants output lack sensitive = true "
        "(fixed upstream in v4.0.0)",
        "Output refers to sensitive values",
    ),
    "s3-bucket-v4.11.0/examples/account-public-access": (
        "offline: versions.tf requires hashicorp/random (unused)",
        "hashicorp/random",
    ),
}

#: Fault matrices: root, faults, the scenarios run (all when empty) and the
#: kinds of error-level finding they end with, all real on AWS too
#: (FINDINGS.md, "Fault matrices").
FAULT_MATRICES: list[tuple[str, str, list[str], set[str]]] = [
    (
        # CreatePolicy carries no idempotency token: a retried or re-run create
        # makes a second name_prefix policy (duplicate) or collides with the
        # fixed-name one it made (recovery-failed, and the first one is an orphan).
        "iam-v5.60.0/examples/iam-policy",
        "lost-response,crash",
        [],
        {"duplicate", "recovery-failed", "orphan"},
    ),
    (
        # The first call of each operation (43 scenarios in all; these 18 take
        # half an hour here). A VPC, route table or subnet created but never
        # recorded is made again on the re-run (duplicate), or its fixed CIDR
        # collides (InvalidSubnet.Conflict: recovery-failed, orphan).
        "vpc-v5.21.0/examples/simple",
        "lost-response,crash",
        [
            f"{kind}@{op}#1"
            for kind in ("lost-response", "crash")
            for op in (
                "CreateVpc",
                "CreateSubnet",
                "CreateRouteTable",
                "AssociateRouteTable",
                "CreateNetworkAclEntry",
                "ModifyVpcAttribute",
                "CreateTags",
                "RevokeSecurityGroupEgress",
                "DeleteNetworkAclEntry",
            )
        ],
        {"duplicate", "recovery-failed", "orphan"},
    ),
]


@pytest.fixture(scope="module")
def aws5_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private pytest-converge cache whose offline mirror also holds aws 5.x.

    Terraform's filesystem mirror does not follow a symlinked version
    directory, so the provider's files are linked one by one.
    """
    source = os.environ.get(MIRROR_ENV)
    if not source:
        pytest.skip(
            f"set {MIRROR_ENV} to a filesystem mirror holding hashicorp/aws 5.x "
            "(e.g. /opt/tf-plugins) to run the aws 5.x public corpus (30-70 minutes)"
        )
    found = sorted(Path(source).glob("registry.terraform.io/hashicorp/aws/5.*/*_*/"))
    if not found:
        pytest.skip(f"{MIRROR_ENV}={source} holds no registry.terraform.io/hashicorp/aws/5.*")
    cache = tmp_path_factory.mktemp("converge-cache")
    for platform in found:
        dest = cache / "mirror" / platform.relative_to(source)
        dest.mkdir(parents=True)
        for f in platform.iterdir():
            (dest / f.name).symlink_to(f)
    return cache


def _converge(
    pytester: pytest.Pytester, cache: Path, root: str, faults: str = "none", *scenarios: str
) -> dict[str, Any]:
    """Run zero-code mode on one root in a fresh pytest; return its JSON report.

    The module is copied out of this repository first (under ``tests/`` the
    run would pick up this project's own conftest).
    """
    module = root.split("/", 1)[0]
    shutil.copytree(CORPUS / module, pytester.path / module)
    if root in SHAPED:
        (pytester.path / "conftest.py").write_text(SHAPED[root])
    report = pytester.path / "report.json"
    pytester._monkeypatch.setenv("CONVERGE_CACHE_DIR", str(cache))
    result = pytester.runpytest_subprocess(
        "--converge",
        root,
        f"--converge-faults={faults}",
        "--converge-timeout",
        TIMEOUT,
        "--converge-report",
        str(report),
        "-p",
        "no:cacheprovider",
        *(f"{root}::{scenario}" for scenario in scenarios),
    )
    assert report.exists(), f"no JSON report for {root}:\n{result.stdout.str()}"
    data = json.loads(report.read_text())
    data["output"] = result.stdout.str()
    return data


def _errors(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Error-level findings that are not a catalogued emulator gap."""
    return [
        d for d in data["defects"] if d["severity"] == "error" and not d.get("emulator_suspected")
    ]


def _describe(defects: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{d['scenario']}: {d['kind']} {d.get('address')} {d.get('attribute')}: "
        f"{d.get('declared')!r} -> {d.get('observed')!r} ({d.get('classification')})"
        for d in defects
    )


def _check(data: dict[str, Any], root: str) -> None:
    outcomes = [s["outcome"] for s in data["scenarios"]]
    # An infrastructure error (emulator, init, provider) is no verdict on the module.
    assert outcomes and "error" not in outcomes, f"{root}: {outcomes}\n{data['output']}"
    unexplained = _errors(data)
    assert not unexplained, _describe(unexplained)
    for d in data["defects"]:
        if d["severity"] == "error":
            assert d.get("evidence"), f"{d.get('address')}.{d.get('attribute')}: no evidence"


def _roots() -> list[Any]:
    return [pytest.param(root, id=root) for root in [*VERIFIED, *KNOWN]]


def _verified(data: dict[str, Any], root: str) -> None:
    """Two-run passed; no error, warning, suspected emulator gap or stall among its findings."""
    _check(data, root)
    assert [s["outcome"] for s in data["scenarios"]] == ["passed"], data["scenarios"]
    unverified = [
        d
        for d in data["defects"]
        if d["severity"] != "info" or d.get("emulator_suspected") or d["kind"] == "stalled"
    ]
    assert not unverified, _describe(unverified)


def _providers_used(cache: Path) -> set[str]:
    """The aws provider versions the runs' lock files selected."""
    return {
        line.split('"')[1]
        for lock in cache.glob("templates/**/.terraform.lock.hcl")
        for line in lock.read_text().splitlines()
        if line.strip().startswith("version ")
    }


def test_every_root_of_the_corpus_is_verified_or_has_its_cause_named() -> None:
    roots = {str(p.relative_to(CORPUS)) for p in CORPUS.glob("*/examples/*") if p.is_dir()}
    assert sorted([*VERIFIED, *KNOWN]) == sorted(roots)
    assert len(VERIFIED) == 28 and len(KNOWN) == 7


@pytest.mark.slow
@pytest.mark.parametrize("root", _roots())
def test_aws5_public_root(pytester: pytest.Pytester, aws5_cache: Path, root: str) -> None:
    data = _converge(pytester, aws5_cache, root)
    if root not in KNOWN:
        _verified(data, root)
        used = _providers_used(aws5_cache)
        assert used and all(v.startswith("5.") for v in used), f"aws provider used: {used}"
        return
    cause, sign = KNOWN[root]
    # The named cause still shows, and the root still does not pass: when the
    # module is fixed, move the root to VERIFIED.
    assert sign in data["output"], (
        f"{root}: {cause!r} no longer shows ({sign!r}):\n{data['output']}"
    )
    with pytest.raises(AssertionError):
        _check(data, root)
    pytest.xfail(cause)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("root", "faults", "scenarios", "kinds"),
    FAULT_MATRICES,
    ids=[f"{root}[{faults}]" for root, faults, _, _ in FAULT_MATRICES],
)
def test_aws5_fault_matrix(
    pytester: pytest.Pytester,
    aws5_cache: Path,
    root: str,
    faults: str,
    scenarios: list[str],
    kinds: set[str],
) -> None:
    data = _converge(pytester, aws5_cache, root, faults, *scenarios)
    outcomes = {s["scenario"]: s["outcome"] for s in data["scenarios"]}
    assert len(outcomes) > 1 and "error" not in outcomes.values(), outcomes
    if scenarios:
        assert set(scenarios) <= set(outcomes), outcomes
    errors = _errors(data)
    assert {d["kind"] for d in errors} == kinds, _describe(errors)
