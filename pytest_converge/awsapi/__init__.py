"""The AWS API as data: which service a Terraform resource type talks to, and which
operations its create, read, update and delete make (:mod:`.operations`).

Names are botocore's (``elasticache``, ``CreateCacheParameterGroup``); this
package reads botocore's data files and its own, never a botocore Session (an
``AWS_PROFILE`` missing from the user's config breaks one).
"""

from __future__ import annotations

from .operations import AwsService, ResourceOperations, operations_of, service_of

__all__ = ["AwsService", "ResourceOperations", "operations_of", "service_of"]
