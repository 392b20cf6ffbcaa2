"""Extension points of pytest-converge.

Implement any of these in a ``conftest.py`` or a plugin. The plugin's own
behaviour (the moto backend, the AWS inventory listers, the diff classifiers)
is registered as implementations of these same hooks, so a user adds to it or
replaces it instead of patching. Every hook receives ``config`` (an
implementation may leave out any argument it does not use, as with all
pytest hooks).

Use in a ``conftest.py`` (or a plugin module): define a function of the
hook's name at module level; pytest finds it, nothing to register::

    # conftest.py
    def pytest_converge_defects(config, stack, defects):
        defects[:] = [d for d in defects if d.address != "aws_s3_bucket.scratch"]

Every hook here exists since 0.1.0 (``versionadded`` in each docstring).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ..analysis.defects import Defect
    from ..emulator.base import Emulator
    from ..inventory import CloudObject
    from ..run.stack import Stack


@pytest.hookspec(firstresult=True)
def pytest_converge_make_emulator(config: pytest.Config, backend: str) -> Emulator | None:
    """Return a started-able :class:`~pytest_converge.Emulator` for ``backend``.

    Called once per session (per xdist worker) when the ``converge_emulator``
    fixture is first used. The first non-None result wins; the built-in
    implementation knows ``moto``, ``localstack`` and ``ministack``. A name of your own
    (``--converge-backend=mine``) is then accepted, and checked when it is made.

    Use in conftest::

        def pytest_converge_make_emulator(config, backend):
            if backend == "mine":
                return MyEmulator()  # an Emulator subclass; its endpoint must be loopback
            return None  # let the built-in backends answer

    .. versionadded:: 0.1.0
    """


@pytest.hookspec
def pytest_converge_inventory(
    config: pytest.Config,
    emulator: Emulator,
    regions: list[str] | None,
    services: dict[str, set[str]] | None,
) -> list[CloudObject] | None:
    """Return a list of :class:`~pytest_converge.CloudObject` that exist now.

    Called before and after each fault scenario. ``regions`` lists every
    region the scenario's provider configurations declare or its API calls
    were signed for: list regional objects in each (``emulator.client(service,
    region=r)``) and give each object its ``region``. ``services`` maps each
    region to the SigV4 service names the scenario called there (``ec2``,
    ``elasticloadbalancing`` ...), or is None when that is unknown: a lister
    may skip a service nobody called, since the emulator was emptied before
    the scenario. Every implementation's
    results are merged; the built-in one lists the common AWS types. Add a
    lister for a type the plugin does not know, so duplicates and orphans of
    it are found too (a scenario that creates a type nobody lists reports it
    as ``unverified``).

    The listing after a scenario runs in a thread of its own while the
    scenario's second ``terraform plan`` runs (a plan makes and removes no
    object): read the emulator, nothing the test's own thread holds.

    Use in conftest::

        from pytest_converge import CloudObject

        def pytest_converge_inventory(config, emulator, regions, services):
            found = []
            for region in regions or ["us-east-1"]:
                client = emulator.client("ssm", region=region)
                for p in client.describe_parameters()["Parameters"]:
                    found.append(CloudObject("aws_ssm_parameter", p["Name"], region=region))
            return found

    .. versionadded:: 0.1.0
    """


@pytest.hookspec(firstresult=True)
def pytest_converge_classify_diff(
    config: pytest.Config, address: str, attribute: str, declared: Any, observed: Any
) -> str | None:
    """Classify why ``declared`` and ``observed`` never compare equal.

    Return a built-in classification (``dropped``, ``default``, ``order``,
    ``dedup``, ``type-coercion``, ``json-equivalent``, ``case``,
    ``whitespace``, ``alias``), a class name of your own (``"api-rounding"``), a
    :class:`pytest_converge.Classification` carrying its own ``why`` and
    ``fix``, or None to let the next implementation decide. The first non-None
    result wins; when none answers, the diff is ``unknown``. ``tryfirst=True``
    puts yours first.

    Use in conftest::

        import pytest

        @pytest.hookimpl(tryfirst=True)
        def pytest_converge_classify_diff(config, address, attribute, declared, observed):
            if attribute == "retention_in_days" and isinstance(observed, int):
                return "api-rounding"
            return None

    .. versionadded:: 0.1.0
    """


@pytest.hookspec
def pytest_converge_defects(config: pytest.Config, stack: Stack, defects: list[Defect]) -> None:
    """Called with every defect list a Stack produces, before it is raised.

    Mutate ``defects`` in place to drop findings you accept or add your own.

    Use in conftest::

        def pytest_converge_defects(config, stack, defects):
            # This module's log group is recreated on purpose.
            defects[:] = [d for d in defects if d.address != "aws_cloudwatch_log_group.tmp"]

    .. versionadded:: 0.1.0
    """


@pytest.hookspec
def pytest_converge_report(config: pytest.Config, report: dict[str, Any]) -> None:
    """Called with the ``--converge-report`` JSON document just before it is written.

    Mutate ``report`` in place to add keys (a CI run id, a commit) or drop
    entries; it is written as it is when every implementation has returned.
    Called on the xdist controller only, once per run.

    Use in conftest::

        import os

        def pytest_converge_report(config, report):
            report["ci_run"] = os.environ.get("GITHUB_RUN_ID", "local")

    .. versionadded:: 0.1.0
    """


@pytest.hookspec
def pytest_converge_stateful_types(config: pytest.Config, types: set[str]) -> None:
    """Add or discard resource types in ``types``: those whose replacement loses data.

    Called once per session with the built-in set (DynamoDB tables, S3
    buckets, RDS instances and clusters, EBS volumes, EFS, KMS keys, SQS
    queues, ...). An upgrade that replaces or deletes an object of one of
    these types is a ``destructive-upgrade`` error.

    Use in conftest::

        def pytest_converge_stateful_types(config, types):
            types.add("aws_ssm_parameter")
            types.discard("aws_sqs_queue")

    .. versionadded:: 0.1.0
    """


@pytest.hookspec
def pytest_converge_world(config: pytest.Config, emulator: Emulator, module: Path) -> None:
    """Make in ``emulator`` the objects ``module`` reads but does not make.

    Every run of a module starts from an emptied emulator, so an object a module
    only looks up (a hosted zone its ``data "aws_route53_zone"`` finds by name, an SSM
    parameter, a key pair, a VPC it joins) is not there, and the apply stops at that
    data source ("no matching Route 53 Hosted Zone found"). Called after each emptying,
    before every run of every module (the two-run, each fault scenario or group run, a
    loop, an upgrade): make the objects with ``emulator.client(service, region=...)``.
    ``module`` is the module's directory, for a conftest that serves several. Two
    modules applied in one test share the emulator the test emptied and the hook is
    called for each: make only what is not there yet.

    What the hook makes is the world before the run: never a duplicate or an orphan
    of it. The inventory then lists every service in the module's regions before each
    run (the emulator is no longer known to be empty), which costs a little time.

    Use in conftest::

        def pytest_converge_world(config, emulator, module):
            if module.name == "complete-nlb":
                emulator.client("route53").create_hosted_zone(
                    Name="example.org", CallerReference="converge"
                )

    .. versionadded:: 0.1.0
    """
