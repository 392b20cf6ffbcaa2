"""Extension points of pytest-converge.

Implement any of these in a ``conftest.py`` or a plugin. The plugin's own
behaviour (the moto backend, the AWS inventory listers, the diff classifiers)
is registered as implementations of these same hooks, so a user adds to it or
replaces it instead of patching.
"""

from __future__ import annotations

import pytest


@pytest.hookspec(firstresult=True)
def pytest_converge_make_emulator(config: pytest.Config, backend: str):
    """Return a started-able :class:`~pytest_converge.emulator.Emulator` for ``backend``.

    Called once per session (per xdist worker) when the ``converge_emulator``
    fixture is first used. The first non-None result wins; the built-in
    implementation knows ``moto`` and ``localstack``.
    """


@pytest.hookspec
def pytest_converge_inventory(emulator):
    """Return a list of :class:`~pytest_converge.inventory.CloudObject` that exist now.

    Called before and after each fault scenario. Every implementation's
    results are merged; the built-in one lists the common AWS types. Add a
    lister for a type the plugin does not know, so duplicates and orphans of
    it are found too.
    """


@pytest.hookspec(firstresult=True)
def pytest_converge_classify_diff(address: str, attribute: str, declared, observed):
    """Classify why ``declared`` and ``observed`` never compare equal.

    Return one of the classifications (``json-equivalent``, ``whitespace``,
    ``case``, ``order``, ``default``, ``type-coercion``) or None to let the
    next implementation decide. The first non-None result wins; when none
    answers, the diff is ``unknown``. ``tryfirst=True`` puts yours first.
    """


@pytest.hookspec
def pytest_converge_defects(stack, defects: list) -> None:
    """Called with every defect list a Stack produces, before it is raised.

    Mutate ``defects`` in place to drop findings you accept or add your own.
    """


@pytest.hookspec
def pytest_converge_stateful_types(config: pytest.Config, types: set[str]) -> None:
    """Add or discard resource types in ``types``: those whose replacement loses data.

    Called once per session with the built-in set (DynamoDB tables, S3
    buckets, RDS instances and clusters, EBS volumes, EFS, KMS keys, SQS
    queues, ...). An upgrade that replaces or deletes an object of one of
    these types is a ``destructive-upgrade`` error.

    >>> def pytest_converge_stateful_types(config, types):          # doctest: +SKIP
    ...     types.add("aws_ssm_parameter")
    ...     types.discard("aws_sqs_queue")
    """
