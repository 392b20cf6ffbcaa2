"""SNS: a topic's data protection policy.

``PutDataProtectionPolicy`` attaches a data protection policy to a topic and
``GetDataProtectionPolicy`` returns it (SNS API reference,
PutDataProtectionPolicy:
https://docs.aws.amazon.com/sns/latest/api/API_PutDataProtectionPolicy.html);
moto 5.2 implements neither.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, graft

BEHAVIOURS: list[Behaviour] = []


class DataProtectionResponse:
    """A topic's data protection policy (an SNSResponse mixin)."""

    def put_data_protection_policy(self) -> Any:
        from moto.core.responses import EmptyResult
        from moto.sns.exceptions import SNSInvalidParameter

        topic = self.backend.get_topic(self._get_param("ResourceArn"))  # type: ignore[attr-defined]
        policy = self._get_param("DataProtectionPolicy")  # type: ignore[attr-defined]
        if policy:
            try:
                json.loads(policy)
            except ValueError:
                raise SNSInvalidParameter("DataProtectionPolicy: not valid JSON") from None
        topic.data_protection_policy = policy or None
        return EmptyResult()

    def get_data_protection_policy(self) -> Any:
        from moto.core.responses import ActionResult

        topic = self.backend.get_topic(self._get_param("ResourceArn"))  # type: ignore[attr-defined]
        return ActionResult(
            {"DataProtectionPolicy": getattr(topic, "data_protection_policy", None)}
        )


@behaviour(
    BEHAVIOURS,
    "sns.data-protection-policy",
    does="PutDataProtectionPolicy attaches a data protection policy to a topic and "
    "GetDataProtectionPolicy returns it",
    reference="https://docs.aws.amazon.com/sns/latest/api/API_PutDataProtectionPolicy.html",
    test="tests/integration/test_fidelity_services.py::test_sns_keeps_a_data_protection_policy",
)
def _data_protection_policy() -> None:
    from moto.sns.responses import SNSResponse

    graft(DataProtectionResponse, onto=SNSResponse)
