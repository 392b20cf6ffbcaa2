"""KMS: the keys a service makes for itself are AWS managed.

AWS creates an AWS managed key (``alias/aws/dynamodb``, ``alias/aws/ebs``,
``alias/aws/s3`` ...) the first time a service encrypts with its default key;
``DescribeKey`` answers ``KeyManager: AWS`` for it, and nobody may create an
alias under ``alias/aws/`` (AWS KMS developer guide, AWS managed keys:
https://docs.aws.amazon.com/kms/latest/developerguide/concepts.html#aws-managed-cmk).
moto 5.2 makes these keys as customer managed keys (``KeyManager: CUSTOMER``):
a DynamoDB table with server-side encryption and no key of its own left a key
that looked like one a module had made and lost, an orphan after any fault.
moto's own API refuses its reserved aliases, so an alias in that list is only
ever given by moto's services: its key is AWS managed. The behaviour is also
due when DynamoDB's or EC2's models are imported (their default keys are made
inside a request that imports KMS itself), so it is in place before their
first call makes a key.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "kms.aws-managed-keys",
    does="a key moto makes for a service's default encryption (an alias under alias/aws/, "
    "which moto's API refuses to users) is AWS managed: DescribeKey answers KeyManager AWS "
    "(moto: CUSTOMER, so the key looked like a module's)",
    reference="https://docs.aws.amazon.com/kms/latest/developerguide/concepts.html#aws-managed-cmk",
    test="tests/integration/test_fidelity_services.py::"
    "test_kms_a_services_default_key_is_aws_managed",
    replaces={
        "moto.kms.models:KmsBackend.create_alias": "27ad0fa61cb16e1b",
        "moto.dynamodb.models.table:Table._get_default_encryption_key": "835f57c4c8ec5b43",
        "moto.ec2.models.elastic_block_store:EBSBackend._create_default_encryption_key": (
            "221e3b8da143d4ac"
        ),
    },
)
def _aws_managed_keys() -> None:
    from moto.dynamodb.models.table import Table
    from moto.ec2.models.elastic_block_store import EBSBackend
    from moto.kms.models import KmsBackend, kms_backends
    from moto.kms.utils import RESERVED_ALIASES

    create_alias = original(KmsBackend, "create_alias")
    table_key = original(Table, "_get_default_encryption_key")
    volume_key = original(EBSBackend, "_create_default_encryption_key")

    def create_alias_as_aws(self: Any, target_key_id: str, alias_name: str) -> Any:
        alias = create_alias(self, target_key_id, alias_name)
        if alias_name in RESERVED_ALIASES:
            self.keys[self.get_key_id(target_key_id)].key_manager = "AWS"
        return alias

    def as_aws(arn: str, account_id: str, region: str) -> str:
        """The default key ``arn`` names is AWS managed (made before this was in place)."""
        kms = kms_backends[account_id][region]
        key = kms.keys.get(kms.get_key_id(arn))
        if key is not None:
            key.key_manager = "AWS"
        return arn

    def get_default_encryption_key(self: Any, account_id: str, region: str) -> str:
        return as_aws(table_key(self, account_id, region), account_id, region)

    def create_default_encryption_key(self: Any) -> str:
        return as_aws(volume_key(self), self.account_id, self.region_name)

    patch(KmsBackend, "create_alias", create_alias_as_aws)
    patch(Table, "_get_default_encryption_key", get_default_encryption_key)
    patch(EBSBackend, "_create_default_encryption_key", create_default_encryption_key)
