"""Secrets Manager: a secret's rotation rules.

Following the AWS Secrets Manager API reference
(https://docs.aws.amazon.com/secretsmanager/latest/apireference/):

- ``RotateSecret``: a secret keeps the ``RotationRules`` given
  (``AutomaticallyAfterDays``, ``ScheduleExpression``, ``Duration``), its
  rotation is enabled by them, and ``DescribeSecret`` answers them; a
  ``RotateSecret`` without rules keeps the rules the secret has. moto 5.2 keeps
  ``AutomaticallyAfterDays`` only, answers 0 for a schedule and leaves the
  rotation disabled, so an ``aws_secretsmanager_secret_rotation`` with a
  ``schedule_expression`` was read back without it.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/secretsmanager/latest/apireference/"
_TESTS = "tests/integration/test_fidelity_services.py::"


@behaviour(
    BEHAVIOURS,
    "secretsmanager.rotation-rules",
    does="RotateSecret keeps the RotationRules given (AutomaticallyAfterDays, "
    "ScheduleExpression, Duration) and enables rotation, and DescribeSecret answers them "
    "(moto: AutomaticallyAfterDays only, 0 and rotation disabled for a schedule)",
    reference=_API + "API_RotateSecret.html",
    test=_TESTS + "test_secretsmanager_a_secret_keeps_its_rotation_rules",
    replaces={
        "moto.secretsmanager.models:SecretsManagerBackend.rotate_secret": "ae844eec281dd308",
        "moto.secretsmanager.models:FakeSecret.to_dict": "d5667701baa08e00",
    },
)
def _rotation_rules() -> None:
    from moto.secretsmanager.models import FakeSecret, SecretsManagerBackend

    rotate_before = original(SecretsManagerBackend, "rotate_secret")
    to_dict_before = original(FakeSecret, "to_dict")

    def rotate_secret(self: Any, secret_id: str, *args: Any, **kwargs: Any) -> Any:
        answer = rotate_before(self, secret_id, *args, **kwargs)
        rules = kwargs.get("rotation_rules")
        if rules:
            secret = self.secrets[secret_id]
            secret.rotation_rules = dict(rules)
            secret.rotation_enabled = True
        return answer

    def to_dict(self: Any) -> dict[str, Any]:
        answer: dict[str, Any] = to_dict_before(self)
        rules = vars(self).get("rotation_rules")
        if rules and "RotationRules" in answer:
            answer["RotationRules"] = dict(rules)
        return answer

    patch(SecretsManagerBackend, "rotate_secret", rotate_secret)
    patch(FakeSecret, "to_dict", to_dict)
