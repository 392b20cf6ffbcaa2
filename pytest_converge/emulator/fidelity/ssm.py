"""SSM Parameter Store: the ``aws:ssm:integration`` data type.

``PutParameter`` accepts the data types ``text``, ``aws:ec2:image`` and
``aws:ssm:integration`` (SSM API reference, PutParameter.DataType:
https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_PutParameter.html);
moto 5.2 refuses the third with a ValidationException. An integration
parameter is the ``SecureString`` of an Automation webhook integration, named
in the namespace Parameter Store reserves for them,
``/d9d01087-4a3f-49e0-b0b4-d568d7826553/ssm/integrations/webhook/<name>``, its
value a JSON object (description, url, headers, payload), and a parameter's
data type cannot change to or from it (Systems Manager user guide, "Creating
webhook integrations for Automation" and "Parameter data types in Parameter
Store"). These are the checks made here.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []

INTEGRATION = "aws:ssm:integration"
#: Parameter Store's reserved namespace of Automation webhook integrations.
WEBHOOKS = "/d9d01087-4a3f-49e0-b0b4-d568d7826553/ssm/integrations/webhook/"


def _check_integration(backend: Any, name: str, kind: str, value: str, data_type: str) -> None:
    from moto.ssm.exceptions import ValidationException

    previous = backend._parameters.get(name) or []
    if previous and (previous[-1].data_type == INTEGRATION) != (data_type == INTEGRATION):
        raise ValidationException(
            f"You can't change the data type of parameter {name} to or from {INTEGRATION}."
        )
    if data_type != INTEGRATION:
        return
    if not name.startswith(WEBHOOKS) or name == WEBHOOKS:
        raise ValidationException(
            f"A parameter of data type {INTEGRATION} must be named {WEBHOOKS}<integration name>."
        )
    if (kind or (previous[-1].parameter_type if previous else None)) != "SecureString":
        raise ValidationException(f"A parameter of data type {INTEGRATION} must be a SecureString.")
    try:
        parsed = json.loads(value)
    except (TypeError, ValueError):
        parsed = None
    if not isinstance(parsed, dict):
        raise ValidationException(
            f"The value of a parameter of data type {INTEGRATION} must be a JSON object."
        )


@behaviour(
    BEHAVIOURS,
    "ssm.integration-data-type",
    does="PutParameter accepts DataType aws:ssm:integration for a SecureString in the webhook "
    "integration namespace whose value is a JSON object, and GetParameter returns it",
    reference="https://docs.aws.amazon.com/systems-manager/latest/APIReference/"
    "API_PutParameter.html",
    test="tests/integration/test_fidelity_services.py::test_ssm_accepts_an_integration_parameter",
    replaces={
        "moto.ssm.models:_valid_parameter_data_type": "5c087d222ce4e568",
        "moto.ssm.models:SimpleSystemManagerBackend.put_parameter": "b5187c4ae98f9b36",
    },
)
def _integration_data_type() -> None:
    from moto.ssm import models

    valid = original(models, "_valid_parameter_data_type")
    put = original(models.SimpleSystemManagerBackend, "put_parameter")

    def _valid_parameter_data_type(data_type: str) -> bool:
        return data_type == INTEGRATION or valid(data_type)

    def put_parameter(
        self: Any,
        name: str,
        description: str,
        value: str,
        parameter_type: str,
        allowed_pattern: str,
        keyid: str,
        overwrite: bool,
        tags: list[dict[str, str]],
        data_type: str,
        tier: str | None = None,
        policies: str | None = None,
    ) -> Any:
        _check_integration(self, name, parameter_type, value, data_type or "text")
        return put(self, name, description, value, parameter_type, allowed_pattern, keyid,
                   overwrite, tags, data_type, tier=tier, policies=policies)  # fmt: skip

    patch(models, "_valid_parameter_data_type", _valid_parameter_data_type)
    patch(models.SimpleSystemManagerBackend, "put_parameter", put_parameter)
