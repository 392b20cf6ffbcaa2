"""Shared test configuration: pytester, and the aws provider line a test runs on.

``provider_line`` runs a test on aws provider 3.39 (bundled) or 5.x::

    @pytest.mark.parametrize("provider_line", ["3.39", "5.x"], indirect=True)
    def test_x(converge, provider_line):
        stack = converge(provider_line.pin(MODULES / "vpc_and_subnet"))

``pin`` copies the module and adds an override file fixing the aws version
(terraform merges ``required_providers`` of an ``*_override.tf`` per
provider). The 5.x leg finds a 5.x build as a user would offer one: a user
CLI config (``TF_CLI_CONFIG_FILE``) naming a ``filesystem_mirror`` that holds
it, read when the plugin resolves its toolchain. The mirror is
``$CONVERGE_TEST_AWS5_MIRROR`` (the mirror directory, or the provider binary
``find / -xdev -name 'terraform-provider-aws_v5*'`` printed; ``.ci/run`` sets
it), else ``/opt/tf-plugins``; without one the 5.x legs skip, saying why.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

#: Names an aws 5.x build for the 5.x legs (a mirror directory or the binary itself).
AWS5_MIRROR_ENV = "CONVERGE_TEST_AWS5_MIRROR"
#: Where these machines keep one (filesystem-mirror layout).
AWS5_DEFAULT_MIRROR = Path("/opt/tf-plugins")
#: Provider line -> the version constraint its pin writes.
PROVIDER_LINES = {"3.39": "= 3.39.0", "5.x": "~> 5.0"}
PIN_FILE = "converge_provider_line_override.tf"
AWS = "registry.terraform.io/hashicorp/aws"


@pytest.fixture
def examples() -> Path:
    return EXAMPLES


def mirror_root(path: Path) -> Path:
    """The filesystem mirror a path names: itself, or the directory above the
    ``registry.terraform.io`` a provider binary or zip sits in."""
    for parent in [path, *path.parents]:
        if parent.name == "registry.terraform.io":
            return parent.parent
    return path


def aws5_builds(mirror: Path) -> list[Path]:
    """aws 5.x builds in ``mirror``, unpacked (``5.*/linux_amd64/``) or packed (zips)."""
    base = mirror / AWS
    return sorted(
        [
            *base.glob("5.*/linux_amd64/terraform-provider-aws_v5*"),
            *base.glob("terraform-provider-aws_5.*_linux_amd64.zip"),
        ]
    )


def find_aws5_mirror() -> tuple[Path | None, str]:
    """(mirror holding an aws 5.x build, or None with the reason there is none)."""
    named = os.environ.get(AWS5_MIRROR_ENV)
    where = mirror_root(Path(named)) if named else AWS5_DEFAULT_MIRROR
    if aws5_builds(where):
        return where, ""
    told = f"${AWS5_MIRROR_ENV}={named}" if named else f"{where} (${AWS5_MIRROR_ENV} unset)"
    return None, (
        f"no aws provider 5.x build in {told}: the 5.x legs need a filesystem mirror "
        f"holding one (<mirror>/{AWS}/5.<v>/linux_amd64/ or a packed zip); set "
        f"{AWS5_MIRROR_ENV} to it"
    )


def user_cli_config(path: Path, mirror: Path) -> Path:
    """A user's CLI config offering ``mirror`` for aws (offline: aws never goes direct)."""
    path.write_text(
        "provider_installation {\n"
        "  filesystem_mirror {\n"
        f'    path    = "{mirror}"\n'
        f'    include = ["{AWS}"]\n'
        "  }\n"
        "  direct {\n"
        f'    exclude = ["{AWS}"]\n'
        "  }\n"
        "}\n"
    )
    return path


@pytest.fixture(scope="session")
def aws5_templates(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory):
    """The toolchain and templates of the 5.x legs, resolved with a user CLI config."""
    from pytest_converge.plugin.session import get_session, go_env
    from pytest_converge.storage import cache_dir
    from pytest_converge.terraform.toolchain import resolve_toolchain
    from pytest_converge.terraform.workspace import Templates

    mirror, reason = find_aws5_mirror()
    if mirror is None:
        pytest.skip(reason)
    base = tmp_path_factory.mktemp("aws5-line")
    rc = user_cli_config(base / "user.tfrc", mirror)
    session = get_session(pytestconfig)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TF_CLI_CONFIG_FILE", str(rc))
        # A root of its own: the session's CLI config and templates never see 5.x.
        toolchain = resolve_toolchain(
            session.option("terraform") or None, root=cache_dir() / "suite-aws-5.x"
        )
    templates = Templates(toolchain, base / "templates")
    templates.extra_env.update(go_env(pytestconfig))
    return toolchain, templates


@dataclass(frozen=True)
class ProviderLine:
    """The aws provider line a test runs on; ``pin(module)`` is the module fixed to it."""

    name: str
    base: Path

    @property
    def constraint(self) -> str:
        return PROVIDER_LINES[self.name]

    def pin(self, module: str | os.PathLike[str]) -> Path:
        """A copy of ``module`` (and the local modules it calls) pinned to this line."""
        from pytest_converge.terraform.workspace import local_module_root

        module = Path(module).resolve()
        root = local_module_root(module)
        dest = self.base / f"{root.name}-{self.name}"
        if not dest.exists():
            shutil.copytree(root, dest, ignore=shutil.ignore_patterns(".terraform*"))
        pinned = dest / module.relative_to(root)
        (pinned / PIN_FILE).write_text(
            "# Written by the test suite: this copy runs on one aws provider line.\n"
            "terraform {\n  required_providers {\n    aws = {\n"
            f'      source  = "hashicorp/aws"\n      version = "{self.constraint}"\n'
            "    }\n  }\n}\n"
        )
        return pinned


@pytest.fixture
def provider_line(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> ProviderLine:
    """``3.39`` unless parametrised (``indirect=True``) with ``5.x``.

    The 5.x leg makes the session build its Stacks on the 5.x toolchain for
    this test only.
    """
    name = getattr(request, "param", "3.39")
    if name not in PROVIDER_LINES:
        raise ValueError(f"provider_line {name!r}: one of {', '.join(PROVIDER_LINES)}")
    if name != "3.39":
        from pytest_converge.plugin.session import get_session

        toolchain, templates = request.getfixturevalue("aws5_templates")
        session = get_session(request.config)
        patch = pytest.MonkeyPatch()
        request.addfinalizer(patch.undo)
        patch.setattr(session, "_toolchain", toolchain)
        patch.setattr(session, "_templates", templates)
    return ProviderLine(name, tmp_path_factory.mktemp(f"line-{name}"))


# --- Scheduling the suite on few cores --------------------------------------
#
# ``--dist loadfile`` keeps a file on one worker. xdist hands files out in order,
# so the longest go first (from ``tests/durations.json``, the seconds each file
# took in one recorded run; files not in it go last, where short files belong)
# and the run does not end on one long file while the other workers idle. Record
# a new table with ``CONVERGE_TEST_DURATIONS=tests/durations.json pytest``.

DURATIONS = Path(__file__).with_name("durations.json")
DURATIONS_OUT_ENV = "CONVERGE_TEST_DURATIONS"


def _test_file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than cores. Much of this suite waits on the
    provider's own waiters (aws 5.x polls an SQS queue's attributes for 25 s after
    each write) and on moto starting; the extra worker runs meanwhile."""
    return (os.cpu_count() or 1) + 1


#: Runs the 5.x legs marked ``aws5_extra`` too (by default one 5.x test per claim runs).
AWS5_ALL_ENV = "CONVERGE_TEST_AWS5_ALL"
#: Runs the legs marked ``extra_leg`` too: further combinations of a claim whose every
#: dimension a default leg already covers (the suite stays under 20 minutes on 2 cores).
ALL_LEGS_ENV = "CONVERGE_TEST_ALL"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not os.environ.get(AWS5_ALL_ENV):
        extra = pytest.mark.skip(
            reason=f"an extra aws 5.x leg (one 5.x test per claim runs by default): "
            f"set {AWS5_ALL_ENV}=1 to run it"
        )
        for item in items:
            if item.get_closest_marker("aws5_extra") and "3.39" not in item.name:
                item.add_marker(extra)
    if not os.environ.get(ALL_LEGS_ENV):
        further = pytest.mark.skip(
            reason="a further combination of a claim whose every dimension a default leg "
            f"covers: set {ALL_LEGS_ENV}=1 to run it"
        )
        for item in items:
            if item.get_closest_marker("extra_leg"):
                item.add_marker(further)
    try:
        seconds = {str(k): float(v) for k, v in json.loads(DURATIONS.read_text()).items()}
    except (OSError, ValueError):
        return
    position = {item.nodeid: n for n, item in enumerate(items)}
    items.sort(key=lambda item: (-seconds.get(_test_file(item.nodeid), 0.0), position[item.nodeid]))


class _DurationRecorder:
    """Sums each file's setup, call and teardown seconds (on the xdist controller)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        name = _test_file(report.nodeid)
        self.seconds[name] = self.seconds.get(name, 0.0) + report.duration

    def pytest_sessionfinish(self) -> None:
        ordered = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        table = {name: round(value, 1) for name, value in ordered}
        self.path.write_text(json.dumps(table, indent=1) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    out = os.environ.get(DURATIONS_OUT_ENV)
    if out and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_DurationRecorder(Path(out)), "converge-test-durations")
