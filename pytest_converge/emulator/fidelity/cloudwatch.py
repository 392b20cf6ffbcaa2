"""Amazon CloudWatch: composite alarms and metric streams.

Following the CloudWatch API reference
(https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/):

- ``PutCompositeAlarm`` creates or updates a composite alarm: its ``AlarmRule``,
  ``ActionsEnabled`` (true unless given), ``AlarmActions``, ``OKActions``,
  ``InsufficientDataActions``, ``AlarmDescription`` and its actions suppressor
  (``ActionsSuppressor``, ``ActionsSuppressorWaitPeriod``,
  ``ActionsSuppressorExtensionPeriod``). A new alarm is ``INSUFFICIENT_DATA``; an
  update overwrites the configuration, leaves the state as it is and ignores
  ``Tags``. A rule naming an alarm that does not exist is a ``ValidationError``.
  ``DescribeAlarms`` answers the alarm types ``AlarmTypes`` asks for, and only
  metric alarms when it is omitted; ``DeleteAlarms`` deletes a composite alarm as
  any other (and, unlike moto, its tags with it, as those of any alarm), and its
  ARN is tagged as a metric alarm's is. moto 5.2 keeps an
  ``AlarmRule`` on its alarms but has no ``PutCompositeAlarm`` (and answers
  composite alarms to every ``DescribeAlarms``), so every
  ``aws_cloudwatch_composite_alarm`` was untested.
- ``PutMetricStream`` creates a metric stream in the ``running`` state (an update
  keeps the state and the creation date, and ignores ``Tags``),
  ``GetMetricStream``, ``ListMetricStreams``, ``StartMetricStreams``,
  ``StopMetricStreams`` and ``DeleteMetricStream`` (no error for a missing one);
  ``IncludeLinkedAccountsMetrics`` is false unless given; include and exclude
  filters together are ``InvalidParameterCombinationException``; a missing stream
  is ``ResourceNotFoundException``. Its ARN
  (``arn:aws:cloudwatch:<region>:<account>:metric-stream/<name>``) is tagged by
  ``TagResource``/``UntagResource``/``ListTagsForResource``. moto 5.2 has no metric
  streams.
"""

from __future__ import annotations

import re
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"

#: An alarm an alarm rule names: ``ALARM("name")``, ``OK(arn)``, ``INSUFFICIENT_DATA(name)``.
_RULE_ALARM = re.compile(r'\b(?:ALARM|OK|INSUFFICIENT_DATA)\s*\(\s*(?:"([^"]*)"|([^\s()"]+))\s*\)')


def _named_alarms(rule: str) -> list[str]:
    """The alarms ``rule`` names (an ARN names the alarm after its ``:alarm:``)."""
    names = []
    for quoted, bare in _RULE_ALARM.findall(rule):
        name = quoted or bare
        if name.startswith("arn:") and ":alarm:" in name:
            name = name.split(":alarm:", 1)[1]
        names.append(name)
    return names


def _validation(message: str) -> Exception:
    from moto.cloudwatch.exceptions import ValidationError

    return ValidationError(message)


class CompositeAlarmBackend:
    """Composite alarms (a CloudWatchBackend mixin): moto's ``Alarm`` with its ``rule``."""

    def put_composite_alarm(self, given: dict[str, Any]) -> Any:
        from moto.cloudwatch.models import Alarm
        from moto.core.utils import utcnow

        alarms: dict[str, Any] = self.alarms  # type: ignore[attr-defined]
        name, rule = given["AlarmName"], given["AlarmRule"]
        missing = [n for n in _named_alarms(rule) if n not in alarms and n != name]
        if missing:
            raise _validation(
                f"Could not save the composite alarm as alarms [{', '.join(missing)}] "
                "in the alarm rule do not exist"
            )
        suppressor = given.get("ActionsSuppressor")
        if suppressor and (
            given.get("ActionsSuppressorWaitPeriod") is None
            or given.get("ActionsSuppressorExtensionPeriod") is None
        ):
            raise _validation(
                "ActionsSuppressorWaitPeriod and ActionsSuppressorExtensionPeriod are required "
                "when ActionsSuppressor is specified"
            )
        found: Any = alarms.get(name)
        if found is None or found.rule is None:
            found = Alarm(
                account_id=self.account_id,  # type: ignore[attr-defined]
                region_name=self.region_name,  # type: ignore[attr-defined]
                name=name,
                namespace=None,  # type: ignore[arg-type]
                metric_name=None,  # type: ignore[arg-type]
                metric_data_queries=None,
                comparison_operator=None,  # type: ignore[arg-type]
                evaluation_periods=None,  # type: ignore[arg-type]
                datapoints_to_alarm=None,
                period=None,  # type: ignore[arg-type]
                threshold=None,  # type: ignore[arg-type]
                statistic=None,  # type: ignore[arg-type]
                extended_statistic=None,
                description=None,  # type: ignore[arg-type]
                dimensions=[],
                alarm_actions=[],
                ok_actions=None,
                insufficient_data_actions=None,
                unit=None,
                actions_enabled=True,
                treat_missing_data=None,
                evaluate_low_sample_count_percentile=None,
                threshold_metric_id=None,
                rule=rule,
            )
            found.state_value = "INSUFFICIENT_DATA"
            found.state_transitioned_timestamp = found.state_updated_timestamp
            alarms[name] = found
            if given.get("Tags"):
                self.tagger.tag_resource(found.alarm_arn, given["Tags"])  # type: ignore[attr-defined]
        enabled = given.get("ActionsEnabled")
        found.rule = rule
        found.actions_enabled = True if enabled is None else enabled
        found.alarm_actions = given.get("AlarmActions") or []
        found.ok_actions = given.get("OKActions") or []
        found.insufficient_data_actions = given.get("InsufficientDataActions") or []
        found.description = given.get("AlarmDescription")
        found.actions_suppressor = suppressor or None
        found.actions_suppressor_wait_period = (
            given.get("ActionsSuppressorWaitPeriod") if suppressor else None
        )
        found.actions_suppressor_extension_period = (
            given.get("ActionsSuppressorExtensionPeriod") if suppressor else None
        )
        found.configuration_updated_timestamp = utcnow()
        return found


class CompositeAlarmResponse:
    """The PutCompositeAlarm action (a CloudWatchResponse mixin)."""

    def put_composite_alarm(self) -> Any:
        from moto.core.responses import EmptyResult

        names = (
            "AlarmName",
            "AlarmRule",
            "ActionsEnabled",
            "AlarmActions",
            "OKActions",
            "InsufficientDataActions",
            "AlarmDescription",
            "ActionsSuppressor",
            "ActionsSuppressorWaitPeriod",
            "ActionsSuppressorExtensionPeriod",
            "Tags",
        )
        given = {name: self._get_param(name) for name in names}  # type: ignore[attr-defined]
        self.cloudwatch_backend.put_composite_alarm(given)  # type: ignore[attr-defined]
        return EmptyResult()


@behaviour(
    BEHAVIOURS,
    "cloudwatch.composite-alarms",
    does="PutCompositeAlarm creates or updates a composite alarm (its rule, actions, "
    "description and actions suppressor; INSUFFICIENT_DATA when new); DescribeAlarms answers "
    "the AlarmTypes asked for (metric alarms only when omitted); a rule naming a missing "
    "alarm is a ValidationError; DeleteAlarms deletes an alarm's tags with it",
    reference=_API + "API_PutCompositeAlarm.html",
    test=_TESTS + "test_cloudwatch_keeps_a_composite_alarm",
    replaces={
        "moto.cloudwatch.responses:CloudWatchResponse.describe_alarms": "f660829b233baf0a",
        "moto.cloudwatch.models:CloudWatchBackend.delete_alarms": "3602fd647ddca19d",
    },
)
def _composite_alarms() -> None:
    from moto.cloudwatch.models import CloudWatchBackend
    from moto.cloudwatch.responses import CloudWatchResponse

    graft(CompositeAlarmBackend, onto=CloudWatchBackend)
    graft(CompositeAlarmResponse, onto=CloudWatchResponse)
    describe = CloudWatchResponse.describe_alarms

    def describe_alarms(self: Any) -> Any:
        from moto.core.responses import ActionResult

        answer = describe(self)
        types = self._get_param("AlarmTypes") or ["MetricAlarm"]
        result: Any = answer.result
        found = dict(result)
        if "MetricAlarm" not in types:
            found["MetricAlarms"] = []
        if "CompositeAlarm" not in types:
            found["CompositeAlarms"] = []
        return ActionResult(found)

    patch(CloudWatchResponse, "describe_alarms", describe_alarms)
    delete = CloudWatchBackend.delete_alarms

    def delete_alarms(self: Any, alarm_names: list[str]) -> None:
        gone = [self.alarms[n].alarm_arn for n in alarm_names if n in self.alarms]
        delete(self, alarm_names)
        for arn in gone:  # moto keeps them: an alarm made again under the name had them
            self.tagger.delete_all_tags_for_resource(arn)

    patch(CloudWatchBackend, "delete_alarms", delete_alarms)


class MetricStream:
    """One metric stream of the Region."""

    def __init__(self, arn: str, given: dict[str, Any]) -> None:
        from moto.core.utils import utcnow

        self.arn = arn
        self.name = given["Name"]
        self.state = "running"
        self.creation_date = utcnow()
        self.configure(given)

    def configure(self, given: dict[str, Any]) -> None:
        from moto.core.utils import utcnow

        self.firehose_arn = given["FirehoseArn"]
        self.role_arn = given["RoleArn"]
        self.output_format = given["OutputFormat"]
        self.include_filters = given.get("IncludeFilters") or []
        self.exclude_filters = given.get("ExcludeFilters") or []
        self.statistics_configurations = given.get("StatisticsConfigurations") or []
        self.include_linked_accounts_metrics = bool(given.get("IncludeLinkedAccountsMetrics"))
        self.last_update_date = utcnow()

    def entry(self) -> dict[str, Any]:
        return {
            "Arn": self.arn,
            "CreationDate": self.creation_date,
            "LastUpdateDate": self.last_update_date,
            "Name": self.name,
            "FirehoseArn": self.firehose_arn,
            "State": self.state,
            "OutputFormat": self.output_format,
        }

    def described(self) -> dict[str, Any]:
        return {
            **self.entry(),
            "IncludeFilters": self.include_filters,
            "ExcludeFilters": self.exclude_filters,
            "RoleArn": self.role_arn,
            "StatisticsConfigurations": self.statistics_configurations,
            "IncludeLinkedAccountsMetrics": self.include_linked_accounts_metrics,
        }


def _stream_not_found(name: str) -> Exception:
    from moto.cloudwatch.exceptions import ResourceNotFoundException

    return ResourceNotFoundException(f"Metric stream {name} does not exist")


class MetricStreamBackend:
    """Metric streams of the Region (a CloudWatchBackend mixin)."""

    metric_streams: Kept[MetricStream] = Kept()

    def put_metric_stream(self, given: dict[str, Any]) -> MetricStream:
        from moto.cloudwatch.exceptions import CloudWatchException

        if given.get("IncludeFilters") and given.get("ExcludeFilters"):
            raise CloudWatchException(
                "InvalidParameterCombinationException",
                "You cannot specify both IncludeFilters and ExcludeFilters",
            )
        found = self.metric_streams.get(given["Name"])
        if found is not None:
            found.configure(given)
            return found
        arn = (
            f"arn:{self.partition}:cloudwatch:{self.region_name}:"  # type: ignore[attr-defined]
            f"{self.account_id}:metric-stream/{given['Name']}"  # type: ignore[attr-defined]
        )
        made = self.metric_streams[given["Name"]] = MetricStream(arn, given)
        if given.get("Tags"):
            self.tagger.tag_resource(arn, given["Tags"])  # type: ignore[attr-defined]
        return made

    def get_metric_stream(self, name: str) -> MetricStream:
        found = self.metric_streams.get(name)
        if found is None:
            raise _stream_not_found(name)
        return found

    def set_metric_streams_state(self, names: list[str], state: str) -> None:
        for name in names:
            if name in self.metric_streams:
                self.metric_streams[name].state = state

    def delete_metric_stream(self, name: str) -> None:
        found = self.metric_streams.pop(name, None)
        if found is not None:
            self.tagger.delete_all_tags_for_resource(found.arn)  # type: ignore[attr-defined]


class MetricStreamResponse:
    """The metric stream actions (a CloudWatchResponse mixin)."""

    def put_metric_stream(self) -> Any:
        from moto.core.responses import ActionResult

        names = (
            "Name",
            "IncludeFilters",
            "ExcludeFilters",
            "FirehoseArn",
            "RoleArn",
            "OutputFormat",
            "Tags",
            "StatisticsConfigurations",
            "IncludeLinkedAccountsMetrics",
        )
        given = {name: self._get_param(name) for name in names}  # type: ignore[attr-defined]
        made = self.cloudwatch_backend.put_metric_stream(given)  # type: ignore[attr-defined]
        return ActionResult({"Arn": made.arn})

    def get_metric_stream(self) -> Any:
        from moto.core.responses import ActionResult

        found = self.cloudwatch_backend.get_metric_stream(self._get_param("Name"))  # type: ignore[attr-defined]
        return ActionResult(found.described())

    def list_metric_streams(self) -> Any:
        from moto.core.responses import ActionResult

        streams = list(self.cloudwatch_backend.metric_streams.values())  # type: ignore[attr-defined]
        page, token = one_page(
            streams,
            self._get_param("NextToken"),  # type: ignore[attr-defined]
            self._get_param("MaxResults"),  # type: ignore[attr-defined]
            500,
        )
        answer: dict[str, Any] = {"Entries": [s.entry() for s in page]}
        if token:
            answer["NextToken"] = token
        return ActionResult(answer)

    def start_metric_streams(self) -> Any:
        from moto.core.responses import EmptyResult

        names = self._get_param("Names") or []  # type: ignore[attr-defined]
        self.cloudwatch_backend.set_metric_streams_state(names, "running")  # type: ignore[attr-defined]
        return EmptyResult()

    def stop_metric_streams(self) -> Any:
        from moto.core.responses import EmptyResult

        names = self._get_param("Names") or []  # type: ignore[attr-defined]
        self.cloudwatch_backend.set_metric_streams_state(names, "stopped")  # type: ignore[attr-defined]
        return EmptyResult()

    def delete_metric_stream(self) -> Any:
        from moto.core.responses import EmptyResult

        self.cloudwatch_backend.delete_metric_stream(self._get_param("Name"))  # type: ignore[attr-defined]
        return EmptyResult()


@behaviour(
    BEHAVIOURS,
    "cloudwatch.metric-streams",
    does="Put/Get/List/Start/Stop/DeleteMetricStream keep the Region's metric streams "
    "(running when created; an update keeps the state); their ARNs are tagged",
    reference=_API + "API_PutMetricStream.html",
    test=_TESTS + "test_cloudwatch_keeps_a_metric_stream",
    replaces={
        "moto.cloudwatch.models:CloudWatchBackend.tag_resource": "1f10a707b9ccb7c7",
        "moto.cloudwatch.models:CloudWatchBackend.untag_resource": "8832bd39d56060aa",
    },
)
def _metric_streams() -> None:
    from moto.cloudwatch.models import CloudWatchBackend
    from moto.cloudwatch.responses import CloudWatchResponse

    graft(MetricStreamBackend, onto=CloudWatchBackend)
    graft(MetricStreamResponse, onto=CloudWatchResponse)
    tag, untag = CloudWatchBackend.tag_resource, CloudWatchBackend.untag_resource

    def streamed(backend: Any, arn: str) -> bool:
        return any(s.arn == arn for s in backend.metric_streams.values())

    def tag_resource(self: Any, arn: str, tags: dict[str, str]) -> None:
        if not streamed(self, arn):
            return tag(self, arn, tags)
        self.tagger.tag_resource(arn, self.tagger.convert_dict_to_tags_input(tags))
        return None

    def untag_resource(self: Any, arn: str, tag_keys: list[str]) -> None:
        if not streamed(self, arn):
            return untag(self, arn, tag_keys)
        self.tagger.untag_resource_using_names(arn, tag_keys)
        return None

    patch(CloudWatchBackend, "tag_resource", tag_resource)
    patch(CloudWatchBackend, "untag_resource", untag_resource)
