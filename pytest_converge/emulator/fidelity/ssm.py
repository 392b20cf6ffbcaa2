"""SSM Parameter Store: the ``aws:ssm:integration`` data type, and public parameters.

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

Public parameters (Systems Manager user guide, "Working with public
parameters"): AWS publishes them under ``/aws/service/``, and modules read them
with ``data "aws_ssm_parameter"``. A parameter whose value is a JSON document
(``/aws/service/ecs/optimized-ami/amazon-linux-2/recommended``: the image id,
name, agent version) answers it as JSON text, which ``jsondecode`` reads; moto
5.2 answers the Python text of a dict (single quotes). ``/aws/service/
aws-for-fluent-bit/{stable,latest}`` (the ECS FireLens log router's image,
published in ECR by account 906394416424; the aws-for-fluent-bit project's
README) are answered with that image's URI in the Region; moto has none. The
URI's tag names the parameter (``:stable``), not the release it points to today.
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


#: The account whose ECR publishes the aws-for-fluent-bit image in every commercial Region.
FLUENT_BIT_ACCOUNT = "906394416424"
FLUENT_BIT = "/aws/service/aws-for-fluent-bit/"


def _as_text(value: Any) -> Any:
    """A public parameter's value as AWS answers it: a JSON document as compact JSON text."""
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return value


@behaviour(
    BEHAVIOURS,
    "ssm.public-parameters",
    does="a public parameter holding a JSON document (the ECS-optimised AMI's 'recommended') "
    "is answered as JSON text, and /aws/service/aws-for-fluent-bit/{stable,latest} exist",
    reference="https://docs.aws.amazon.com/systems-manager/latest/userguide/"
    "parameter-store-public-parameters.html",
    test="tests/integration/test_fidelity_services.py::test_ssm_answers_public_parameters_as_aws_does",
    replaces={
        "moto.ssm.models:ParameterDict._load_tree_parameters": "83b66a03626b7acd",
        "moto.ssm.models:ParameterDict._check_loading_status": "7cfa610f1d0e77b6",
    },
)
def _public_parameters() -> None:
    from moto.core.utils import utcnow
    from moto.ssm import models

    load = original(models.ParameterDict, "_load_tree_parameters")
    check = original(models.ParameterDict, "_check_loading_status")

    def _load_tree_parameters(self: Any, path: str) -> None:
        load(self, path)
        for versions in dict.values(self):
            for parameter in versions:
                parameter.value = _as_text(parameter.value)

    def _check_loading_status(self: Any, key: str) -> None:
        check(self, key)
        if not str(key or "").startswith(FLUENT_BIT) or getattr(self, "_fluent_bit_loaded", False):
            return
        self._fluent_bit_loaded = True
        image = f"{FLUENT_BIT_ACCOUNT}.dkr.ecr.{self.region_name}.amazonaws.com/aws-for-fluent-bit"
        parameter: Any = models.Parameter  # moto makes its own the same way (abstract to mypy)
        for tag in ("stable", "latest"):
            dict.setdefault(self, FLUENT_BIT + tag, []).append(
                parameter(
                    account_id=self.account_id, name=FLUENT_BIT + tag, value=f"{image}:{tag}",
                    parameter_type="String", description=None, allowed_pattern=None, keyid=None,
                    last_modified_date=utcnow(), version=1, data_type="text",
                )
            )  # fmt: skip

    patch(models.ParameterDict, "_load_tree_parameters", _load_tree_parameters)
    patch(models.ParameterDict, "_check_loading_status", _check_loading_status)
