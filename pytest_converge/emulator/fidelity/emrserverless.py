"""EMR Serverless: an application's engine in any case, and a new one CREATED.

Following the EMR Serverless API reference for ``CreateApplication``
(https://docs.aws.amazon.com/emr-serverless/latest/APIReference/API_CreateApplication.html)
and the ``Application`` it describes (``API_Application.html``): ``type`` names the
engine, "such as Spark or Hive", in any case (the aws provider's documentation and
terraform-aws-modules/emr write ``spark`` and ``hive``; the provider lower-cases what
it reads back), and is answered ``Spark`` or ``Hive``. moto 5.2 accepts only
``SPARK`` and ``HIVE`` (400 ``Unsupported engine spark``).

A new application is ``CREATING``, then ``CREATED``; ``StartApplication`` makes it
``STARTING``, then ``STARTED`` (``ApplicationState``; moto goes to ``STARTED`` at once,
which the provider's waiters accept; a job run does not start it here). moto 5.2
makes every new application ``STARTED``, so the aws provider's create waiter, which
waits for ``CREATED``, failed ("unexpected state 'STARTED'"), and an application
could not be updated or deleted before it was stopped.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []

#: moto's EMRServerlessBackend.create_application, as it was digested.
_CREATE = "moto.emrserverless.models:EMRServerlessBackend.create_application"


@behaviour(
    BEHAVIOURS,
    "emrserverless.engine-case",
    does="CreateApplication takes the engine type in any case (spark, Spark, SPARK; hive "
    "likewise) and answers it Spark or Hive (moto: upper case only, 400 'Unsupported "
    "engine spark')",
    reference="https://docs.aws.amazon.com/emr-serverless/latest/APIReference/"
    "API_CreateApplication.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_emr_serverless_creates_an_application_as_aws_does",
    replaces={_CREATE: "bff8e3c3f8d2167e"},
)
def _engine_case() -> None:
    from moto.emrserverless.models import EMRServerlessBackend

    create = original(EMRServerlessBackend, "create_application")

    def create_application(self: Any, *args: Any, **kwargs: Any) -> Any:
        given = kwargs.get("application_type")
        if isinstance(given, str) and given.upper() in ("SPARK", "HIVE"):
            kwargs["application_type"] = given.upper()
        return create(self, *args, **kwargs)

    patch(EMRServerlessBackend, "create_application", create_application)


@behaviour(
    BEHAVIOURS,
    "emrserverless.created-state",
    does="a new application is CREATED (the provider's create waiter wants it), STARTED "
    "only once StartApplication starts it (moto: STARTED at once, so the waiter failed)",
    reference="https://docs.aws.amazon.com/emr-serverless/latest/APIReference/API_Application.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_emr_serverless_creates_an_application_as_aws_does",
    replaces={_CREATE: "bff8e3c3f8d2167e"},
)
def _created_state() -> None:
    from moto.emrserverless.models import EMRServerlessBackend

    create = original(EMRServerlessBackend, "create_application")

    def create_application(self: Any, *args: Any, **kwargs: Any) -> Any:
        made = create(self, *args, **kwargs)
        made.state = "CREATED"
        return made

    patch(EMRServerlessBackend, "create_application", create_application)


#: The settings CreateApplication and UpdateApplication take that moto 5.2 drops, by
#: the API's member name -> what AWS answers when none was given (None: nothing).
SETTINGS: dict[str, Any] = {
    "architecture": "X86_64",
    "imageConfiguration": None,
    "interactiveConfiguration": None,
    "monitoringConfiguration": None,
    "runtimeConfiguration": None,
    "schedulerConfiguration": None,
    "workerTypeSpecifications": None,
    "diskEncryptionConfiguration": None,
}


def _snake(member: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in member)


@behaviour(
    BEHAVIOURS,
    "emrserverless.application-settings",
    does="Create/UpdateApplication keep architecture (X86_64 unless given), the image, "
    "interactive, monitoring, runtime and scheduler configurations, worker type "
    "specifications and disk encryption, and GetApplication answers them (moto: dropped)",
    reference="https://docs.aws.amazon.com/emr-serverless/latest/APIReference/"
    "API_UpdateApplication.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_emr_serverless_keeps_an_applications_settings",
    replaces={
        "moto.emrserverless.responses:EMRServerlessResponse.create_application": (
            "0ba15473b6bcdd65"
        ),
        "moto.emrserverless.responses:EMRServerlessResponse.update_application": (
            "4ab0cd65ed3b4b4d"
        ),
    },
)
def _application_settings() -> None:
    from moto.emrserverless.responses import EMRServerlessResponse

    create = original(EMRServerlessResponse, "create_application")
    update = original(EMRServerlessResponse, "update_application")

    def keep(self: Any, application_id: str, defaults: bool) -> None:
        application = self.emrserverless_backend.get_application(application_id)
        for member, default in SETTINGS.items():
            given = self._get_param(member)
            if given is not None:
                setattr(application, _snake(member), given)
            elif defaults and default is not None:
                setattr(application, _snake(member), default)

    def create_application(self: Any) -> Any:
        answer = create(self)
        keep(self, answer.result["applicationId"], defaults=True)
        return answer

    def update_application(self: Any) -> Any:
        answer = update(self)
        keep(self, self._get_param("applicationId"), defaults=False)
        return answer

    patch(EMRServerlessResponse, "create_application", create_application)
    patch(EMRServerlessResponse, "update_application", update_application)
