"""SQS: a queue's redrive allow policy, and its redrive policy as AWS writes it.

Following the SQS API reference
(https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/):

- ``SetQueueAttributes`` (and ``CreateQueue``) keep ``RedriveAllowPolicy`` and
  ``GetQueueAttributes`` returns it, by name or with ``All``; setting it to an
  empty string removes it. moto 5.2 keeps the value but never returns it, and
  refuses the name in ``GetQueueAttributes``.
- ``SetQueueAttributes`` changes the attributes it names and no other; moto
  5.2 removes the queue's ``Policy`` whenever a call does not name it (a
  redrive allow policy set after the queue policy leaves the queue without
  one, and aws 5.x's wait for the policy never ends).
- ``GetQueueAttributes`` returns ``RedrivePolicy`` as compact JSON
  (``{"deadLetterTargetArn":"arn:...","maxReceiveCount":10}``, the
  GetQueueAttributes examples); moto 5.2 writes it with spaces after each
  separator, which a provider that compares the text reads as a change.
"""

from __future__ import annotations

import json
from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "sqs.redrive-allow-policy",
    does="GetQueueAttributes returns the RedriveAllowPolicy that SetQueueAttributes or "
    "CreateQueue set (an empty one removes it)",
    reference="https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/"
    "API_SetQueueAttributes.html",
    test="tests/integration/test_fidelity_services.py::test_sqs_reads_a_redrive_allow_policy_back",
    replaces={"moto.sqs.models:Queue._set_attributes": "4b7aaf3f46363f13"},
)
def _redrive_allow_policy() -> None:
    from moto.sqs.models import Queue

    if "RedriveAllowPolicy" in Queue.BASE_ATTRIBUTES:
        raise RuntimeError("moto's Queue already returns RedriveAllowPolicy: re-check")
    Queue.BASE_ATTRIBUTES.append("RedriveAllowPolicy")
    patch(Queue, "redrive_allow_policy", None)
    set_attributes = original(Queue, "_set_attributes")

    def _set_attributes(self: Any, attributes: dict[str, Any], now: float | None = None) -> None:
        set_attributes(self, attributes, now)
        if attributes.get("RedriveAllowPolicy") == "":
            self.redrive_allow_policy = None

    patch(Queue, "_set_attributes", _set_attributes)


@behaviour(
    BEHAVIOURS,
    "sqs.redrive-policy-json",
    does="GetQueueAttributes returns RedrivePolicy as compact JSON, as AWS writes it",
    reference="https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/"
    "API_GetQueueAttributes.html",
    test="tests/integration/test_fidelity_services.py::test_sqs_writes_a_redrive_policy_compactly",
    replaces={"moto.sqs.models:Queue.attributes": "40cb990b121628d5"},
)
def _redrive_policy_json() -> None:
    from moto.sqs.models import Queue

    attributes = original(Queue, "attributes")

    def compact_attributes(self: Any) -> dict[str, Any]:
        result: dict[str, Any] = attributes(self)
        if self.redrive_policy:
            result["RedrivePolicy"] = json.dumps(self.redrive_policy, separators=(",", ":"))
        return result

    patch(Queue, "attributes", property(compact_attributes))


@behaviour(
    BEHAVIOURS,
    "sqs.set-queue-attributes-keeps-policy",
    does="SetQueueAttributes changes only the attributes it names: a queue's Policy stays when "
    "another attribute is set",
    reference="https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/"
    "API_SetQueueAttributes.html",
    test="tests/integration/test_fidelity_services.py::test_sqs_keeps_a_queue_policy_other_calls_leave_out",
    replaces={"moto.sqs.models:Queue._set_attributes": "4b7aaf3f46363f13"},
)
def _set_attributes_keeps_policy() -> None:
    from moto.sqs.models import Queue

    set_attributes = original(Queue, "_set_attributes")

    def _set_attributes(self: Any, attributes: dict[str, Any], now: float | None = None) -> None:
        kept = getattr(self, "policy", None)
        set_attributes(self, attributes, now)
        if "Policy" not in attributes:
            self.policy = kept

    patch(Queue, "_set_attributes", _set_attributes)
