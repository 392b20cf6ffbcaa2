"""How ``localstack_emulator()`` picks a backend, tested with fakes: no processes, no network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_converge.emulator import localstack as ls
from pytest_converge.errors import EmulatorError, UnsafeTargetError

HEALTH_DOC = {"services": {"s3": "available", "ec2": "available"}, "version": "2026.3.0"}


class FakeDocker:
    """Stands in for ``docker.DockerClient``: ``ping()`` answers or raises."""

    def __init__(self, reachable: bool) -> None:
        self.reachable = reachable
        self.closed = False

    def ping(self) -> bool:
        if not self.reachable:
            raise ConnectionError("Error while fetching server API version: no socket")
        return True

    def close(self) -> None:
        self.closed = True


def docker_factory(reachable: bool) -> Any:
    return lambda: FakeDocker(reachable)


@pytest.fixture(autouse=True)
def isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No endpoint/interpreter from the real environment, an empty venv location, no pythons."""
    for name in (ls.ENDPOINT_ENV, ls.PYTHON_ENV, "AWS_ENDPOINT_URL", "USE_SSL", "DOCKER_HOST"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(ls.VENV_ENV, str(tmp_path / "no-venv"))
    monkeypatch.setattr(ls, "_candidate_pythons", lambda: [])
    monkeypatch.setattr(ls, "probe_localstack_python", lambda path: "not found")


@pytest.fixture
def healthy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every health check succeeds; returns the endpoints that were checked."""
    checked: list[str] = []

    def fake_health(endpoint: str, timeout: float) -> dict[str, Any]:
        checked.append(endpoint)
        return HEALTH_DOC

    monkeypatch.setattr(ls, "_health", fake_health)
    return checked


@pytest.fixture
def unhealthy(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_health(endpoint: str, timeout: float) -> dict[str, Any]:
        raise EmulatorError(f"{endpoint}/_localstack/health did not answer: connection refused")

    monkeypatch.setattr(ls, "_health", fake_health)


def python_that_works(monkeypatch: pytest.MonkeyPatch, good: str) -> None:
    monkeypatch.setattr(
        ls, "probe_localstack_python", lambda path: None if path == good else "not found"
    )


# -- a. external endpoint ---------------------------------------------------------------------


def test_endpoint_argument_wins_over_everything(healthy: list[str]) -> None:
    emulator = ls.localstack_emulator(
        "http://127.0.0.1:4566/", docker_client_factory=docker_factory(True)
    )
    assert isinstance(emulator, ls.ExternalLocalStack)
    assert emulator.endpoint == "http://127.0.0.1:4566"
    assert emulator.name == "localstack" and emulator.mode == "external"
    assert healthy == ["http://127.0.0.1:4566"]


def test_endpoint_from_environment(monkeypatch: pytest.MonkeyPatch, healthy: list[str]) -> None:
    monkeypatch.setenv(ls.ENDPOINT_ENV, "http://localhost:4566")
    emulator = ls.localstack_emulator(docker_client_factory=docker_factory(True))
    assert isinstance(emulator, ls.ExternalLocalStack)
    assert emulator.endpoint == "http://localhost:4566"


@pytest.mark.parametrize(
    "url", ["http://10.0.0.5:4566", "http://example.com:4566", "https://192.168.1.2"]
)
def test_non_loopback_endpoint_is_refused_before_any_request(url: str, healthy: list[str]) -> None:
    with pytest.raises(UnsafeTargetError, match="not on loopback"):
        ls.localstack_emulator(url)
    assert healthy == []


@pytest.mark.parametrize("url", ["http://127.0.0.1:1", "http://[::1]:4566", "http://127.1.2.3"])
def test_loopback_forms_are_accepted(url: str) -> None:
    assert ls.check_loopback(url) == url


def test_unhealthy_endpoint_is_an_error_not_a_fallback(unhealthy: None) -> None:
    # Falling back to a container would silently run the tests somewhere else.
    with pytest.raises(EmulatorError) as info:
        ls.localstack_emulator("http://127.0.0.1:4566", docker_client_factory=docker_factory(True))
    message = str(info.value)
    assert "http://127.0.0.1:4566" in message and "endpoint argument" in message
    assert ls.ENDPOINT_ENV in message


def test_external_reset_deletes_nothing_and_says_so(healthy: list[str]) -> None:
    emulator = ls.localstack_emulator("http://127.0.0.1:4566")
    assert emulator.can_reset is False
    emulator.start()
    emulator.reset()
    emulator.reset()
    assert emulator.reset_count == 2 and emulator.reset_method == "none"
    emulator.stop()  # not ours: nothing to stop, and no error
    emulator.stop()


def test_external_start_reports_a_dead_instance(unhealthy: None) -> None:
    emulator = ls.ExternalLocalStack("http://127.0.0.1:4566")
    with pytest.raises(EmulatorError, match="not healthy"):
        emulator.start()
    assert emulator.is_alive() is False


# -- b. container -----------------------------------------------------------------------------


def test_reachable_docker_gives_a_container_with_the_pinned_image() -> None:
    emulator = ls.localstack_emulator(docker_client_factory=docker_factory(True))
    assert isinstance(emulator, ls.ContainerLocalStack)
    assert emulator.image == ls.DEFAULT_IMAGE
    assert emulator.image.startswith("localstack/localstack:") and "latest" not in emulator.image


def test_image_is_configurable() -> None:
    emulator = ls.localstack_emulator(
        image="localstack/localstack:3.8.1", docker_client_factory=docker_factory(True)
    )
    assert isinstance(emulator, ls.ContainerLocalStack)
    assert emulator.image == "localstack/localstack:3.8.1"


def test_docker_ping_failure_is_reported_and_client_closed() -> None:
    clients: list[FakeDocker] = []

    def factory() -> FakeDocker:
        clients.append(FakeDocker(False))
        return clients[-1]

    ok, why = ls.docker_reachable(factory)
    assert not ok and "no Docker engine reachable" in why and "no socket" in why
    assert clients[0].closed


def test_remote_docker_host_is_never_contacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "tcp://10.1.2.3:2375")
    ok, why = ls.docker_reachable()
    assert not ok and "not local" in why


def test_container_is_published_on_loopback_with_token_passed_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class FakeContainer:
        def __init__(self, image: str, region_name: str) -> None:
            self.image, self.region_name = image, region_name
            self.env: dict[str, str] = {}
            self.ports: dict[int, Any] = {}

        def with_bind_ports(self, container: int, host: Any) -> FakeContainer:
            self.ports[container] = host
            return self

        def with_env(self, key: str, value: str) -> FakeContainer:
            self.env[key] = value
            return self

    monkeypatch.setattr(ls, "_localstack_container_class", lambda: FakeContainer)
    monkeypatch.setenv(ls.AUTH_TOKEN_ENV, "ls-token-123")
    emulator = ls.ContainerLocalStack(docker_client_factory=docker_factory(True))
    emulator._port = 45999
    container = emulator._make_container()
    assert container.ports == {4566: ("127.0.0.1", 45999)}
    assert container.env[ls.AUTH_TOKEN_ENV] == "ls-token-123"
    assert container.env["SQS_ENDPOINT_STRATEGY"] == "off"
    assert container.env["LOCALSTACK_HOST"] == "127.0.0.1:45999"
    assert "OVERRIDE_IN_DOCKER" not in container.env


# -- c. host process --------------------------------------------------------------------------


def test_unreachable_docker_falls_back_to_the_installed_venv(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    venv_python = tmp_path / "venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.touch()
    monkeypatch.setenv(ls.VENV_ENV, str(tmp_path / "venv"))
    python_that_works(monkeypatch, str(venv_python))
    emulator = ls.localstack_emulator(docker_client_factory=docker_factory(False))
    assert isinstance(emulator, ls.HostLocalStack)
    assert emulator.python == str(venv_python)
    assert "dynamodb" in emulator.unsupported_services


def test_python_argument_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    python_that_works(monkeypatch, "/opt/py313/bin/python")
    emulator = ls.localstack_emulator(
        python="/opt/py313/bin/python", docker_client_factory=docker_factory(False)
    )
    assert isinstance(emulator, ls.HostLocalStack) and emulator.python == "/opt/py313/bin/python"

    monkeypatch.setenv(ls.PYTHON_ENV, "/opt/py313/bin/python")
    emulator = ls.localstack_emulator(docker_client_factory=docker_factory(False))
    assert isinstance(emulator, ls.HostLocalStack) and emulator.python == "/opt/py313/bin/python"


def test_python_on_path_or_pyenv_is_the_last_resort(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ls, "_candidate_pythons", lambda: ["/usr/bin/python3.12", "/pyenv/3.13"])
    python_that_works(monkeypatch, "/pyenv/3.13")
    emulator = ls.localstack_emulator(docker_client_factory=docker_factory(False))
    assert isinstance(emulator, ls.HostLocalStack) and emulator.python == "/pyenv/3.13"


def test_explicit_python_that_fails_is_not_replaced_by_another(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ls, "_candidate_pythons", lambda: ["/pyenv/3.13"])
    python_that_works(monkeypatch, "/pyenv/3.13")
    monkeypatch.setenv(ls.PYTHON_ENV, "/usr/bin/python3.11")
    with pytest.raises(EmulatorError) as info:
        ls.localstack_emulator(docker_client_factory=docker_factory(False))
    assert "/usr/bin/python3.11 (from $CONVERGE_LOCALSTACK_PYTHON): not found" in str(info.value)


# -- nothing works ----------------------------------------------------------------------------


def test_error_names_every_way_tried_and_the_fix() -> None:
    with pytest.raises(EmulatorError) as info:
        ls.localstack_emulator(docker_client_factory=docker_factory(False))
    message = str(info.value)
    lines = message.splitlines()
    assert lines[0] == "no way to run LocalStack was available:"
    assert lines[1].startswith("  - external: no endpoint given")
    assert lines[2].startswith("  - container: no Docker engine reachable")
    assert lines[3].startswith("  - host process: no LocalStack venv at")
    assert "no Python >= 3.13 with localstack-core[runtime]" in lines[3]
    assert ".ci/install-localstack.sh" in message and ls.ENDPOINT_ENV in message


def test_probe_reason_for_a_broken_venv_is_shown(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    venv_python = tmp_path / "venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.touch()
    monkeypatch.setenv(ls.VENV_ENV, str(tmp_path / "venv"))
    monkeypatch.setattr(
        ls, "probe_localstack_python", lambda path: "ModuleNotFoundError: No module named 'rolo'"
    )
    with pytest.raises(EmulatorError, match=r"venv/bin/python: ModuleNotFoundError.*rolo"):
        ls.localstack_emulator(docker_client_factory=docker_factory(False))


# -- boto3 through localstack_client ----------------------------------------------------------


def test_clients_go_to_the_emulator_even_when_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    emulator = ls.ExternalLocalStack("http://127.0.0.1:4566")
    session = emulator.session()
    assert type(session).__module__ == "localstack_client.session"
    assert emulator.client("s3").meta.endpoint_url == "http://127.0.0.1:4566"
    assert emulator.client("ec2", region="eu-west-1").meta.region_name == "eu-west-1"

    # localstack_client obeys AWS_ENDPOINT_URL over its argument: fall back to plain boto3.
    monkeypatch.setenv("AWS_ENDPOINT_URL", "https://somewhere-else.example")
    assert type(emulator.session()).__module__.startswith("boto3")
    for service in ("s3", "sqs", "ec2"):
        assert emulator.client(service).meta.endpoint_url == "http://127.0.0.1:4566"


def test_version_ordering_of_pyenv_names() -> None:
    assert ls._version_key("3.13.0") > ls._version_key("3.12.1") > ls._version_key("3.9.18")
    assert ls._version_key("pypy3.10") == ()


def test_host_emulator_stop_is_safe_before_start() -> None:
    emulator = ls.HostLocalStack("/nonexistent/python")
    emulator.stop()
    emulator.stop()
    assert emulator.is_alive() is False
    with pytest.raises(EmulatorError, match="not running"):
        _ = emulator.endpoint
