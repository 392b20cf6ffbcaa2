"""The AWS API as data: botocore's service models and what they say of a run.

``operations`` is the one rule from a Terraform resource type to its AWS service
(botocore's name and its signing name) and the operations each type's create,
read, update and delete make, per provider major (``data/resource_operations.json``);
``model`` maps a provider attribute to the API member it is sent as; ``routes``
names a REST call by its method and path (each operation's ``http`` trait);
``facts``
looks up what that model and the emulator's source say about a run's findings
and refused calls.
"""

from __future__ import annotations

from .operations import AwsService, ResourceOperations, operations_of, service_of

__all__ = ["AwsService", "ResourceOperations", "operations_of", "service_of"]
