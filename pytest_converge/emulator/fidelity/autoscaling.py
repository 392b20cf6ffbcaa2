"""Auto Scaling: a group's traffic sources and settings, a scaling policy's state.

Following the Amazon EC2 Auto Scaling API reference
(https://docs.aws.amazon.com/autoscaling/ec2/APIReference/):

- ``AttachTrafficSources``, ``DetachTrafficSources``,
  ``DescribeTrafficSources``: the load balancers and target groups that send
  a group its traffic, by type: ``elbv2`` (a target group's ARN), ``elb`` (a
  Classic Load Balancer's name), ``vpc-lattice`` (a VPC Lattice target
  group's ARN). They are one list with what the older operations attach
  (``AttachLoadBalancerTargetGroups``, ``AttachLoadBalancers``, moto's): an
  ``elbv2`` source is one of the group's ``TargetGroupARNs`` and an ``elb``
  one of its ``LoadBalancerNames`` (moto registers the group's instances with
  them), so each operation sees what the other attached. A source reads back
  ``Added`` at once; a detached one is gone at once. An unknown group is a
  ``ValidationError``.
- ``DescribeAutoScalingGroups`` answers each group's ``TrafficSources``.

moto 5.2 implements none of the three operations, so every
``aws_autoscaling_traffic_source_attachment`` was untested.

- ``CreateAutoScalingGroup``, ``UpdateAutoScalingGroup``: the group keeps its
  ``ServiceLinkedRoleARN`` (moto: always the default role's),
  ``DefaultInstanceWarmup``, ``InstanceMaintenancePolicy`` and
  ``DesiredCapacityType``, and ``DescribeAutoScalingGroups`` answers them; one
  never set is left out of the answer, and ``-1`` (both percentages, for the
  policy) clears one.
- ``UpdateAutoScalingGroup``: a group's ``MixedInstancesPolicy`` stays unless
  the call gives a new one, a launch template or a launch configuration (moto
  5.2 dropped it at every update, so the next plan set it again).
- ``PutScalingPolicy``, ``DescribePolicies``: a policy keeps ``Enabled``
  (true unless given false; moto leaves it out, which reads false), and only a
  ``PredictiveScaling`` policy answers a ``PredictiveScalingConfiguration``
  (moto answers an empty one for every policy); a ``SimpleScaling`` policy
  given no ``Cooldown`` answers none, the group's applying (moto: 300).
- ``CreateAutoScalingGroup``, ``CreateLaunchConfiguration``: a name the Region already
  has fails with ``AlreadyExists`` (moto 5.2 made the new one in its place: a retried
  create replaced the group, and the instances the first had launched ran on, owned by
  no group).
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, empty_action, graft, one_page, original, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/autoscaling/ec2/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: The traffic source types AWS names.
TYPES = ("elbv2", "elb", "vpc-lattice")


def _validation(message: str) -> Exception:
    from moto.autoscaling.exceptions import ValidationError

    return ValidationError(message)


class TrafficSourceGroup:
    """A group's traffic sources (a FakeAutoScalingGroup mixin)."""

    @property
    def traffic_sources(self) -> list[dict[str, str]]:
        """Every source of the group, as ``TrafficSourceIdentifier`` (``Identifier``, ``Type``)."""
        found = [{"Identifier": arn, "Type": "elbv2"} for arn in self.target_group_arns]  # type: ignore[attr-defined]
        found += [{"Identifier": name, "Type": "elb"} for name in self.load_balancer_names]  # type: ignore[attr-defined]
        found += [{"Identifier": arn, "Type": "vpc-lattice"} for arn in self.lattice_sources]
        return found

    @property
    def lattice_sources(self) -> list[str]:
        """The group's VPC Lattice target groups (moto keeps the other two types)."""
        found: list[str] = vars(self).setdefault("_lattice_sources", [])
        return found


def _by_type(sources: list[dict[str, str]]) -> dict[str, list[str]]:
    """``TrafficSources`` of a call -> the identifiers of each type, checked."""
    found: dict[str, list[str]] = {kind: [] for kind in TYPES}
    for source in sources:
        kind = source.get("Type") or "elbv2"  # the API's default
        if kind not in TYPES:
            raise _validation(f"Traffic source type {kind} is not one of {', '.join(TYPES)}")
        found[kind].append(source["Identifier"])
    return found


class TrafficSourceBackend:
    """Attach, detach and describe traffic sources (an AutoScalingBackend mixin)."""

    def _traffic_group(self, name: str) -> Any:
        group = self.autoscaling_groups.get(name)  # type: ignore[attr-defined]
        if group is None:
            raise _validation(f"AutoScalingGroup name not found - {name}")
        return group

    def attach_traffic_sources(self, name: str, sources: list[dict[str, str]]) -> None:
        group = self._traffic_group(name)
        found = _by_type(sources)
        if found["elbv2"]:
            self.attach_load_balancer_target_groups(name, found["elbv2"])  # type: ignore[attr-defined]
        if found["elb"]:
            self.attach_load_balancers(name, found["elb"])  # type: ignore[attr-defined]
        lattice = group.lattice_sources
        lattice.extend(arn for arn in found["vpc-lattice"] if arn not in lattice)

    def detach_traffic_sources(self, name: str, sources: list[dict[str, str]]) -> None:
        group = self._traffic_group(name)
        found = _by_type(sources)
        if found["elbv2"]:
            self.detach_load_balancer_target_groups(name, found["elbv2"])  # type: ignore[attr-defined]
        if found["elb"]:
            self.detach_load_balancers(name, found["elb"])  # type: ignore[attr-defined]
        kept = [arn for arn in group.lattice_sources if arn not in found["vpc-lattice"]]
        group.lattice_sources[:] = kept

    def describe_traffic_sources(self, name: str, kind: str | None) -> list[dict[str, str]]:
        found = []
        for source in self._traffic_group(name).traffic_sources:
            if kind in (None, source["Type"]):
                found.append({**source, "TrafficSource": source["Identifier"], "State": "Added"})
        return found


class TrafficSourceResponse:
    """The traffic source actions (an AutoScalingResponse mixin)."""

    attach_traffic_sources = empty_action(
        "autoscaling_backend",
        "attach_traffic_sources",
        "AutoScalingGroupName",
        ("TrafficSources", []),
    )

    detach_traffic_sources = empty_action(
        "autoscaling_backend",
        "detach_traffic_sources",
        "AutoScalingGroupName",
        ("TrafficSources", []),
    )

    def describe_traffic_sources(self) -> Any:
        from moto.core.responses import ActionResult

        get = self._get_param  # type: ignore[attr-defined]
        found = self.autoscaling_backend.describe_traffic_sources(  # type: ignore[attr-defined]
            get("AutoScalingGroupName"), get("TrafficSourceType")
        )
        sources, following = one_page(found, get("NextToken"), get("MaxRecords"), default=50)
        return ActionResult({"TrafficSources": sources, "NextToken": following})


@behaviour(
    BEHAVIOURS,
    "autoscaling.traffic-sources",
    does="Attach/Detach/DescribeTrafficSources keep a group's elbv2, elb and vpc-lattice "
    "traffic sources, one list with the target groups and load balancers the older "
    "operations attach (Added at once, gone once detached); DescribeAutoScalingGroups "
    "answers TrafficSources; an unknown group is a ValidationError",
    reference=_API + "API_AttachTrafficSources.html",
    test=_TESTS + "test_autoscaling_keeps_a_groups_traffic_sources",
)
def _traffic_sources() -> None:
    from moto.autoscaling.models import AutoScalingBackend, FakeAutoScalingGroup
    from moto.autoscaling.responses import AutoScalingResponse

    graft(TrafficSourceGroup, onto=FakeAutoScalingGroup)
    graft(TrafficSourceBackend, onto=AutoScalingBackend)
    graft(TrafficSourceResponse, onto=AutoScalingResponse)


def _group_settings(response: Any, group: Any, *, created: bool) -> None:
    """Keep on ``group`` the settings of Create/UpdateAutoScalingGroup call ``response`` serves."""
    get = response._get_param
    role = get("ServiceLinkedRoleARN")
    if role:
        group.service_linked_role_arn = role
    warmup = response._get_int_param("DefaultInstanceWarmup")
    if warmup is not None:
        group.default_instance_warmup = None if warmup == -1 else warmup
    policy = get("InstanceMaintenancePolicy")
    if policy is not None:
        percentages = {key: int(value) for key, value in policy.items()}
        cleared = all(value == -1 for value in percentages.values())
        group.instance_maintenance_policy = None if cleared else percentages
    kind = get("DesiredCapacityType")
    if kind or created:
        group.desired_capacity_type = kind or None


@behaviour(
    BEHAVIOURS,
    "autoscaling.group-settings",
    does="Create/UpdateAutoScalingGroup keep ServiceLinkedRoleARN, DefaultInstanceWarmup, "
    "InstanceMaintenancePolicy and DesiredCapacityType and DescribeAutoScalingGroups "
    "answers them (left out when never set; -1 clears the warm-up and the policy)",
    reference=_API + "API_CreateAutoScalingGroup.html",
    test=_TESTS + "test_autoscaling_keeps_a_groups_settings",
    replaces={
        "moto.autoscaling.responses:AutoScalingResponse.create_auto_scaling_group": (
            "68055e456ab3c8a3"
        ),
        "moto.autoscaling.responses:AutoScalingResponse.update_auto_scaling_group": (
            "ec2cfa6b3d062868"
        ),
    },
)
def _group_settings_kept() -> None:
    from moto.autoscaling.models import FakeAutoScalingGroup
    from moto.autoscaling.responses import AutoScalingResponse

    for name in ("default_instance_warmup", "instance_maintenance_policy", "desired_capacity_type"):
        patch(FakeAutoScalingGroup, name, None)  # AWS: left out until set
    create = original(AutoScalingResponse, "create_auto_scaling_group")
    update = original(AutoScalingResponse, "update_auto_scaling_group")

    def create_auto_scaling_group(self: Any) -> Any:
        result = create(self)
        group = self.autoscaling_backend.autoscaling_groups[self._get_param("AutoScalingGroupName")]
        _group_settings(self, group, created=True)
        return result

    def update_auto_scaling_group(self: Any) -> Any:
        result = update(self)
        group = self.autoscaling_backend.autoscaling_groups[self._get_param("AutoScalingGroupName")]
        _group_settings(self, group, created=False)
        return result

    patch(AutoScalingResponse, "create_auto_scaling_group", create_auto_scaling_group)
    patch(AutoScalingResponse, "update_auto_scaling_group", update_auto_scaling_group)


@behaviour(
    BEHAVIOURS,
    "autoscaling.policy-enabled",
    does="PutScalingPolicy keeps Enabled (true unless given false) and DescribePolicies "
    "answers it; only a PredictiveScaling policy answers a PredictiveScalingConfiguration, "
    "and a policy given no Cooldown answers none",
    reference=_API + "API_PutScalingPolicy.html",
    test=_TESTS + "test_autoscaling_keeps_a_policys_enabled_flag",
    replaces={
        "moto.autoscaling.responses:AutoScalingResponse.put_scaling_policy": "efd2d4e3bbc82ce2",
    },
)
def _policy_enabled() -> None:
    from moto.autoscaling.models import FakeScalingPolicy
    from moto.autoscaling.responses import AutoScalingResponse

    patch(FakeScalingPolicy, "enabled", True)  # AWS: a policy is enabled unless told otherwise
    before = original(AutoScalingResponse, "put_scaling_policy")

    def put_scaling_policy(self: Any) -> Any:
        result = before(self)
        policy = self.autoscaling_backend.policies[self._get_param("PolicyName")]
        policy.enabled = self._get_bool_param("Enabled", True)
        if policy.policy_type != "PredictiveScaling":
            policy.predictive_scaling_configuration = None
        if self._get_param("Cooldown") is None:
            policy.cooldown = None  # AWS: the group's cooldown applies, the policy has none
        return result

    patch(AutoScalingResponse, "put_scaling_policy", put_scaling_policy)


@behaviour(
    BEHAVIOURS,
    "autoscaling.update-keeps-mixed-instances",
    does="UpdateAutoScalingGroup keeps the group's MixedInstancesPolicy unless the call "
    "gives a new one, a launch template or a launch configuration",
    reference=_API + "API_UpdateAutoScalingGroup.html",
    test=_TESTS + "test_autoscaling_an_update_keeps_the_mixed_instances_policy",
    replaces={
        "moto.autoscaling.responses:AutoScalingResponse.update_auto_scaling_group": (
            "ec2cfa6b3d062868"
        ),
    },
)
def _update_keeps_mixed_instances() -> None:
    from moto.autoscaling.responses import AutoScalingResponse

    before = original(AutoScalingResponse, "update_auto_scaling_group")
    replacing = ("MixedInstancesPolicy", "LaunchTemplate", "LaunchConfigurationName")

    def update_auto_scaling_group(self: Any) -> Any:
        groups = self.autoscaling_backend.autoscaling_groups
        group = groups.get(self._get_param("AutoScalingGroupName"))
        kept = group.mixed_instances_policy if group is not None else None
        result = before(self)
        if kept and not any(self._get_param(key) for key in replacing):
            group.mixed_instances_policy = kept
        return result

    patch(AutoScalingResponse, "update_auto_scaling_group", update_auto_scaling_group)


def _already_exists(what: str, message: str) -> Exception:
    from moto.autoscaling.exceptions import AutoscalingClientError

    error = AutoscalingClientError(f"{what} by this name already exists - {message}")
    error.code = "AlreadyExists"
    return error


@behaviour(
    BEHAVIOURS,
    "autoscaling.names-taken",
    does="CreateAutoScalingGroup and CreateLaunchConfiguration fail with AlreadyExists for "
    "a name the Region already has, leaving the existing group or configuration as it was",
    reference=_API + "API_CreateAutoScalingGroup.html",
    test=_TESTS + "test_autoscaling_a_taken_name_already_exists",
    replaces={
        "moto.autoscaling.models:AutoScalingBackend.create_auto_scaling_group": (
            "6134d039b5430a01"
        ),
        "moto.autoscaling.models:AutoScalingBackend.create_launch_configuration": (
            "11c0d214aea37119"
        ),
    },
)
def _names_taken() -> None:
    from moto.autoscaling.models import AutoScalingBackend

    create_group = original(AutoScalingBackend, "create_auto_scaling_group")
    create_configuration = original(AutoScalingBackend, "create_launch_configuration")

    def create_auto_scaling_group(self: Any, *args: Any, **kwargs: Any) -> Any:
        name = kwargs.get("name", args[0] if args else None)
        if name in self.autoscaling_groups:
            raise _already_exists(
                "AutoScalingGroup", f"A group with the name {name} already exists"
            )
        return create_group(self, *args, **kwargs)

    def create_launch_configuration(self: Any, *args: Any, **kwargs: Any) -> Any:
        name = kwargs.get("name", args[0] if args else None)
        if name in self.launch_configurations:
            raise _already_exists(
                "Launch Configuration",
                f"A launch configuration already exists with the name {name}",
            )
        return create_configuration(self, *args, **kwargs)

    patch(AutoScalingBackend, "create_auto_scaling_group", create_auto_scaling_group)
    patch(AutoScalingBackend, "create_launch_configuration", create_launch_configuration)
