"""Organizations: every account moto serves is a member of an organization.

Most AWS accounts belong to an organization, and modules read it
(``data.aws_organizations_organization``: the organization's id, ARN,
management account). moto 5.2 serves accounts that belong to none, so
``DescribeOrganization`` answers AWSOrganizationsNotInUseException.

Here every account is a member (``JoinedMethod`` ``INVITED``, under the root)
of one organization with all features enabled, whose management account is
:data:`MANAGEMENT_ACCOUNT` and which has the default ``FullAWSAccess`` service
control policy; each backend moto builds joins it, so a reset leaves every
account a member again. A member account may call ``DescribeOrganization``;
the operations the Organizations API reference reserves for the management
account (``ListAccounts``, ``ListRoots``, ``CreateOrganizationalUnit`` ...)
answer it ``AccessDeniedException``, and ``CreateOrganization``
``AlreadyInOrganizationException`` (Organizations API reference,
DescribeOrganization and ListAccounts:
https://docs.aws.amazon.com/organizations/latest/APIReference/API_DescribeOrganization.html).
The management account's own requests (``x-moto-account-id``) see the whole
organization.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []

#: The organization's management account (no run signs for it unless it asks to).
MANAGEMENT_ACCOUNT = "999999999999"
#: Operations a member account may call (the rest answer AccessDeniedException).
MEMBER_OPERATIONS = frozenset({"create_organization", "describe_organization"})


def _join(backend: Any) -> None:
    """Make ``backend``'s account the management account, or a member, of the organization."""
    from moto.organizations import utils
    from moto.organizations.models import FakeAccount, organizations_backends

    if backend.region_name != "aws":  # other partitions: no organization
        return
    account = backend.account_id
    if account == MANAGEMENT_ACCOUNT:
        backend.create_organization(region="us-east-1", FeatureSet="ALL")
        return
    management = organizations_backends[MANAGEMENT_ACCOUNT]["aws"]
    if management.org is None or any(a.id == account for a in management.accounts):
        return
    # An invited account: no OrganizationAccountAccessRole is made in it (moto's
    # FakeAccount makes one, as for an account the organization created).
    member: Any = FakeAccount.__new__(FakeAccount)
    member.type = "ACCOUNT"
    member.region = management.org.region
    member.organization_id = management.org.id
    member.master_account_id = MANAGEMENT_ACCOUNT
    member.create_account_status_id = utils.make_random_create_account_status_id()
    member.id = account
    member.name = f"account-{account}"
    member.email = f"account-{account}@example.com"
    member.create_time = management.accounts[0].create_time
    member.status = member.state = "ACTIVE"
    member.joined_method = "INVITED"
    member.parent_id = management.org.root_id
    member.attached_policies = []
    member.tags = {}
    management.accounts.append(member)
    for policy_id in (utils.DEFAULT_SCP_POLICY_ID, utils.DEFAULT_RCP_POLICY_ID):
        management.attach_policy(PolicyId=policy_id, TargetId=account)
    organizations_backends.master_accounts[account] = (MANAGEMENT_ACCOUNT, "aws")


def _management_only(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def gated(self: Any, *args: Any, **kwargs: Any) -> Any:
        from moto.organizations.exceptions import OrganizationsClientError

        if self.org is None and self.account_id != MANAGEMENT_ACCOUNT:
            raise OrganizationsClientError(
                "AccessDeniedException", "You don't have permissions to access this resource."
            )
        return method(self, *args, **kwargs)

    return gated


@behaviour(
    BEHAVIOURS,
    "organizations.member-account",
    does="every account is a member of an organization (management account "
    f"{MANAGEMENT_ACCOUNT}, all features): DescribeOrganization answers it, the "
    "management-only operations answer AccessDeniedException",
    reference="https://docs.aws.amazon.com/organizations/latest/APIReference/"
    "API_DescribeOrganization.html",
    test="tests/integration/test_fidelity_services.py::test_the_account_is_a_member_of_an_organization",
    replaces={
        "moto.organizations.models:OrganizationsBackend.__init__": "f0291cf18c4ba81d",
        "moto.organizations.models:OrganizationsBackend.create_organization": "1f220d118d89148e",
        "moto.organizations.models:OrganizationsBackend.describe_organization": "704fe32567d3b34a",
    },
)
def _member_account() -> None:
    from moto.organizations.models import OrganizationsBackend

    for name, method in list(vars(OrganizationsBackend).items()):
        if callable(method) and not name.startswith("_") and name not in MEMBER_OPERATIONS:
            # An access check, whatever the operation does: not tied to its source.
            patch(OrganizationsBackend, name, _management_only(name, method), recorded=False)
    init = original(OrganizationsBackend, "__init__")

    def __init__(self: Any, region_name: str, account_id: str) -> None:
        init(self, region_name, account_id)
        _join(self)

    patch(OrganizationsBackend, "__init__", __init__)
