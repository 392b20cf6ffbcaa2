"""SNS: a topic's data protection policy and the attributes it was given.

Following the SNS API reference (https://docs.aws.amazon.com/sns/latest/api/):

- ``PutDataProtectionPolicy`` attaches a data protection policy to a topic and
  ``GetDataProtectionPolicy`` returns it; moto 5.2 implements neither.
- ``GetTopicAttributes`` returns the attributes ``CreateTopic`` and
  ``SetTopicAttributes`` set (``SignatureVersion``, ``TracingConfig``,
  ``FifoThroughputScope``, ``ArchivePolicy``, and the delivery status
  logging attributes ``<Protocol>SuccessFeedbackRoleArn``,
  ``<Protocol>SuccessFeedbackSampleRate``, ``<Protocol>FailureFeedbackRoleArn``
  of ``Application``, ``HTTP``, ``Firehose``, ``Lambda`` and ``SQS``); moto
  5.2 keeps them and answers a fixed list without them.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, graft, original, patch

#: Topic attributes GetTopicAttributes returns once set (the API reference's list).
TOPIC_ATTRIBUTES = (
    "SignatureVersion",
    "TracingConfig",
    "FifoThroughputScope",
    "ArchivePolicy",
    *(
        f"{protocol}{what}"
        for protocol in ("Application", "HTTP", "Firehose", "Lambda", "SQS")
        for what in (
            "SuccessFeedbackRoleArn",
            "SuccessFeedbackSampleRate",
            "FailureFeedbackRoleArn",
        )
    ),
)

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


@behaviour(
    BEHAVIOURS,
    "sns.topic-attributes",
    does="GetTopicAttributes returns the attributes CreateTopic and SetTopicAttributes set: "
    "SignatureVersion, TracingConfig, FifoThroughputScope, ArchivePolicy and the delivery "
    "status logging role ARNs and sample rates",
    reference="https://docs.aws.amazon.com/sns/latest/api/API_GetTopicAttributes.html",
    test="tests/integration/test_fidelity_services.py::test_sns_returns_the_attributes_a_topic_was_given",
    replaces={"moto.sns.responses:SNSResponse.get_topic_attributes": "988a1fe509edd841"},
)
def _topic_attributes() -> None:
    from moto.core.utils import camelcase_to_underscores
    from moto.sns.responses import SNSResponse

    get = original(SNSResponse, "get_topic_attributes")

    def get_topic_attributes(self: Any) -> Any:
        result = get(self)
        topic = self.backend.get_topic(self._get_param("TopicArn"))
        answered = result.result["Attributes"]
        for name in TOPIC_ATTRIBUTES:
            # moto's CreateTopic and SetTopicAttributes keep each under this name.
            value = getattr(topic, camelcase_to_underscores(name), None)
            if value not in (None, ""):
                answered[name] = str(value)
        return result

    patch(SNSResponse, "get_topic_attributes", get_topic_attributes)
