"""A run is isolated from the user's AWS configuration and from the network.

Each test runs pytest in a subprocess with a hostile environment, the way a
developer machine or CI runner has it: a profile that does not exist, a
``~/.aws/config`` whose ``credential_process`` would leave a marker file,
real-looking keys, another region, an endpoint override and proxies on an
unroutable address.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_converge.storage import cache_dir

REPO = Path(__file__).resolve().parents[2]
MODULES = REPO / "tests" / "modules"
EXAMPLES = REPO / "examples"
#: The session's real cache (mirror, plugin cache): a new HOME must not refill it.
CACHE = cache_dir()
UNROUTABLE_PROXY = "http://10.255.255.1:3128"


def hostile_env(pytester: pytest.Pytester) -> tuple[dict[str, str], Path]:
    """Environment variables of a hostile shell, and the marker credential_process would write."""
    home = pytester.path / "home"
    marker = pytester.path / "credential-process-ran"
    (home / ".aws").mkdir(parents=True)
    (home / ".aws" / "config").write_text(
        "[default]\n"
        f"credential_process = sh -c 'touch {marker}; echo {{}}'\n"
        "region = eu-central-1\n"
        "[profile production]\n"
        f"credential_process = sh -c 'touch {marker}; echo {{}}'\n"
    )
    (home / ".aws" / "credentials").write_text(
        "[default]\naws_access_key_id = AKIAREALLOOKINGKEY00\naws_secret_access_key = real\n"
    )
    env = {
        "HOME": str(home),
        "CONVERGE_CACHE_DIR": str(CACHE),
        "AWS_PROFILE": "does-not-exist",
        "AWS_DEFAULT_REGION": "eu-central-1",
        "AWS_REGION": "eu-central-1",
        "AWS_ACCESS_KEY_ID": "AKIAREALLOOKINGKEY00",
        "AWS_SECRET_ACCESS_KEY": "real-looking-secret",
        "AWS_SESSION_TOKEN": "real-looking-token",
        "AWS_ENDPOINT_URL": "https://endpoint.example.invalid",
        "HTTP_PROXY": UNROUTABLE_PROXY,
        "HTTPS_PROXY": UNROUTABLE_PROXY,
        "http_proxy": UNROUTABLE_PROXY,
        "https_proxy": UNROUTABLE_PROXY,
        "ALL_PROXY": UNROUTABLE_PROXY,
    }
    return env, marker


TEST_FILE = f"""
from pytest_converge.emulator.base import FAKE_ACCESS_KEY


def test_network_converges(converge):
    stack = converge(r"{EXAMPLES / "network"}")
    # What terraform is started with: none of the shell's AWS settings or proxies.
    env = stack.workspace.runner.env
    assert env["AWS_ACCESS_KEY_ID"] == FAKE_ACCESS_KEY
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "ALL_PROXY"):
        assert name not in env, name
    # The shell's endpoint is replaced by the emulator's (for SDKs a provisioner runs).
    assert env["AWS_ENDPOINT_URL"].startswith("http://127.0.0.1:"), env["AWS_ENDPOINT_URL"]
    assert env["AWS_REGION"] == "us-east-1"
    assert env["HTTPS_PROXY"].startswith("http://127.0.0.1:")  # the egress guard, not the shell's
    stack.assert_converged()


def test_emulator_clients_ignore_the_shell(converge_emulator):
    identity = converge_emulator.client("sts").get_caller_identity()
    assert identity["Account"]
    converge_emulator.client("s3").create_bucket(Bucket="isolated")
    names = [b["Name"] for b in converge_emulator.client("s3").list_buckets()["Buckets"]]
    assert "isolated" in names
"""


def test_the_users_aws_configuration_plays_no_part(pytester: pytest.Pytester, monkeypatch) -> None:
    env, marker = hostile_env(pytester)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    pytester.makepyfile(test_hostile=TEST_FILE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=600)
    result.assert_outcomes(passed=2)
    assert not marker.exists(), "a credential_process of the user's ~/.aws/config ran"


KEYBASE_TEST = f"""
def test_keybase(converge):
    converge(r"{MODULES / "keybase_login_profile"}").assert_converged()
"""

_CONNECT = re.compile(r"connect\(\d+, \{sa_family=(AF_INET6?), sin6?_port=htons\((\d+)\), (.*?)\}")


def outside_connections(trace: str) -> list[str]:
    """``connect()`` lines of an ``strace -f`` log that leave loopback or talk DNS (port 53)."""
    found = []
    for line in trace.splitlines():
        match = _CONNECT.search(line)
        if not match:
            continue
        family, port, address = match.groups()
        loopback = (
            re.search(r'inet_addr\("127\.', address)
            if family == "AF_INET"
            else re.search(r'inet_pton\(AF_INET6, "(::1|::ffff:127\.[^"]*)"', address)
        )
        if not loopback or port == "53":
            found.append(line)
    return found


def test_outside_connections_are_found_in_a_trace() -> None:
    # The parser above must see what it is meant to catch.
    lines = [
        '1 connect(3, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}, 16)',
        '2 connect(4, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")})',
        "3 connect(5, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), "
        'inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28)',
        '4 connect(6, {sa_family=AF_INET, sin_port=htons(5000), sin_addr=inet_addr("127.0.0.1")})',
        '5 connect(7, {sa_family=AF_UNIX, sun_path="/tmp/plugin1"}, 23)',
    ]
    trace = "\n".join(line + " = 0" for line in lines)
    assert [line[0] for line in outside_connections(trace)] == ["1", "2", "3"]


@pytest.mark.skipif(
    shutil.which("strace") is None, reason="strace is not installed (apt-get install strace)"
)
def test_no_connection_leaves_loopback_and_egress_is_a_finding(
    pytester: pytest.Pytester, monkeypatch
) -> None:
    env, marker = hostile_env(pytester)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    pytester.makepyfile(test_hostile=TEST_FILE, test_keybase=KEYBASE_TEST)
    trace = pytester.path / "connect.trace"
    report = pytester.path / "report.json"
    probe = subprocess.run(
        ["strace", "-f", "-o", "/dev/null", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"strace cannot trace here: {probe.stderr.decode().strip()}")
    proc = subprocess.run(
        ["strace", "-f", "-e", "trace=connect", "-o", str(trace),
         sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
         f"--converge-report={report}"],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )  # fmt: skip
    output = proc.stdout + proc.stderr
    assert "1 failed, 2 passed" in output, output
    assert "the module tried to reach keybase.io" in output
    defects = json.loads(report.read_text())["defects"]
    assert [(d["kind"], d["address"], d["observed"]) for d in defects] == [
        ("egress", "aws_iam_user_login_profile.developer", "CONNECT keybase.io:443")
    ]
    text = trace.read_text()
    assert "connect(" in text and "127.0.0.1" in text  # the trace saw the emulator traffic
    assert outside_connections(text) == []
    assert not marker.exists()


#: A provisioner running the AWS SDK, as `aws s3 sync` in a local-exec does.
PROVISIONER = """
resource "terraform_data" "seed" {{
  provisioner "local-exec" {{
    interpreter = [{python}, "-c"]
    command     = "import boto3; boto3.client('sqs').create_queue(QueueName='seeded')"
  }}
}}
"""


def test_an_sdk_a_provisioner_runs_reaches_the_emulator(converge, tmp_path: Path) -> None:
    """The SDK in a ``local-exec`` is pointed at the emulator (``AWS_ENDPOINT_URL``), as
    the provider is: its queue is made there, and nothing reaches AWS."""
    module = tmp_path / "seeding"
    module.mkdir()
    (module / "main.tf").write_text(PROVISIONER.format(python=json.dumps(sys.executable)))
    stack = converge(module)
    stack.apply().raise_for_error()
    queues = stack.emulator.client("sqs").list_queues().get("QueueUrls", [])
    assert [q.rsplit("/", 1)[1] for q in queues] == ["seeded"]
    stack.assert_converged()
