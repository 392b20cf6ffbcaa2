"""CloudWatch Logs: log group class, data protection policies, saved queries.

Following the CloudWatch Logs API reference
(https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/):

- ``CreateLogGroup`` / ``LogGroup``: ``logGroupClass`` (``STANDARD`` unless
  ``INFREQUENT_ACCESS`` is asked for) is kept and ``DescribeLogGroups``
  returns it; moto 5.2 drops it.
- ``PutDataProtectionPolicy``, ``GetDataProtectionPolicy``,
  ``DeleteDataProtectionPolicy``: a log group's data protection policy
  (``DescribeLogGroups`` says ``dataProtectionStatus`` ``ACTIVATED``).
- ``PutQueryDefinition``, ``DescribeQueryDefinitions``,
  ``DeleteQueryDefinition``: saved Logs Insights queries of the Region.
- ``CreateLogAnomalyDetector``, ``GetLogAnomalyDetector``,
  ``UpdateLogAnomalyDetector``, ``DeleteLogAnomalyDetector``,
  ``ListLogAnomalyDetectors``: log anomaly detectors of the Region, at
  ``arn:aws:logs:<region>:<account>:anomaly-detector:<id>``, watching one log group
  (``logGroupArnList``, which must exist: ``ResourceNotFoundException``);
  ``anomalyVisibilityTime`` is 21 days unless given (the user guide's default),
  what else was not given stays absent; ``INITIALIZING`` when created, then
  ``TRAINING``, and ``PAUSED`` while ``enabled`` is false; tagged through
  ``TagResource``/``ListTagsForResource``. moto 5.2 has none, so every
  ``aws_cloudwatch_log_anomaly_detector`` was untested.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from . import Behaviour, Kept, behaviour, graft, one_page, patch

BEHAVIOURS: list[Behaviour] = []
_API = "https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/"
_TESTS = "tests/integration/test_fidelity_services.py::"


@behaviour(
    BEHAVIOURS,
    "logs.log-group-class",
    does="CreateLogGroup keeps logGroupClass (STANDARD by default) and DescribeLogGroups "
    "returns it",
    reference=_API + "API_LogGroup.html",
    test=_TESTS + "test_logs_keeps_a_log_group_class",
    replaces={
        "moto.logs.responses:LogsResponse.create_log_group": "4ebcce1b24a6a848",
        "moto.logs.models:LogGroup.to_describe_dict": "6947d6e1f692da2f",
    },
)
def _log_group_class() -> None:
    from moto.logs.models import LogGroup
    from moto.logs.responses import LogsResponse

    if hasattr(LogGroup, "log_group_class"):
        raise RuntimeError("moto's LogGroup already has log_group_class: re-check")
    patch(LogGroup, "log_group_class", "STANDARD")
    create, describe = LogsResponse.create_log_group, LogGroup.to_describe_dict

    def create_log_group(self: Any) -> str:
        answer = create(self)
        group = self.logs_backend.groups[self._get_param("logGroupName")]
        group.log_group_class = self._get_param("logGroupClass") or "STANDARD"
        return answer

    def to_describe_dict(self: Any) -> dict[str, Any]:
        described = describe(self)
        described["logGroupClass"] = self.log_group_class
        if getattr(self, "data_protection_policy", None):
            described["dataProtectionStatus"] = "ACTIVATED"
        return described

    patch(LogsResponse, "create_log_group", create_log_group)
    patch(LogGroup, "to_describe_dict", to_describe_dict)


def _group(backend: Any, identifier: str) -> Any:
    """A log group by name or ARN (``...:log-group:<name>`` with or without ``:*``)."""
    from moto.logs.exceptions import ResourceNotFoundException

    name = identifier
    if identifier.startswith("arn:"):
        name = identifier.split(":log-group:", 1)[-1].removesuffix(":*")
    group = backend.groups.get(name)
    if group is None:
        raise ResourceNotFoundException()
    return group


class DataProtectionResponse:
    """A log group's data protection policy (a LogsResponse mixin)."""

    def put_data_protection_policy(self) -> str:
        from moto.logs.exceptions import InvalidParameterException

        identifier = self._get_param("logGroupIdentifier")  # type: ignore[attr-defined]
        document = self._get_param("policyDocument")  # type: ignore[attr-defined]
        try:
            json.loads(document)
        except (TypeError, ValueError):
            raise InvalidParameterException("The policy document is not valid JSON.") from None
        group = _group(self.logs_backend, identifier)  # type: ignore[attr-defined]
        group.data_protection_policy = document
        group.data_protection_updated = int(time.time() * 1000)
        return json.dumps(
            {
                "logGroupIdentifier": identifier,
                "policyDocument": document,
                "lastUpdatedTime": group.data_protection_updated,
            }
        )

    def get_data_protection_policy(self) -> str:
        identifier = self._get_param("logGroupIdentifier")  # type: ignore[attr-defined]
        group = _group(self.logs_backend, identifier)  # type: ignore[attr-defined]
        answer: dict[str, Any] = {"logGroupIdentifier": identifier}
        if getattr(group, "data_protection_policy", None):
            answer["policyDocument"] = group.data_protection_policy
            answer["lastUpdatedTime"] = group.data_protection_updated
        return json.dumps(answer)

    def delete_data_protection_policy(self) -> str:
        from moto.logs.exceptions import ResourceNotFoundException

        group = _group(self.logs_backend, self._get_param("logGroupIdentifier"))  # type: ignore[attr-defined]
        if not getattr(group, "data_protection_policy", None):
            raise ResourceNotFoundException("No data protection policy for this log group.")
        group.data_protection_policy = None
        return ""


@behaviour(
    BEHAVIOURS,
    "logs.data-protection-policy",
    does="PutDataProtectionPolicy attaches a data protection policy to a log group, "
    "GetDataProtectionPolicy returns it and DeleteDataProtectionPolicy removes it",
    reference=_API + "API_PutDataProtectionPolicy.html",
    test=_TESTS + "test_logs_keeps_a_data_protection_policy",
)
def _data_protection_policy() -> None:
    from moto.logs.responses import LogsResponse

    graft(DataProtectionResponse, onto=LogsResponse)


def _definitions(backend: Any) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] | None = vars(backend).get("_query_definitions")
    if found is None:
        found = vars(backend)["_query_definitions"] = {}
    return found


class QueryDefinitionResponse:
    """Saved Logs Insights queries (a LogsResponse mixin)."""

    def put_query_definition(self) -> str:
        from moto.logs.exceptions import ResourceNotFoundException

        get = self._get_param  # type: ignore[attr-defined]
        saved = _definitions(self.logs_backend)  # type: ignore[attr-defined]
        definition_id = get("queryDefinitionId") or str(uuid.uuid4())
        if get("queryDefinitionId") and definition_id not in saved:
            raise ResourceNotFoundException("The query definition does not exist.")
        saved[definition_id] = {
            "queryDefinitionId": definition_id,
            "name": get("name"),
            "queryString": get("queryString"),
            "logGroupNames": get("logGroupNames") or [],
            "queryLanguage": get("queryLanguage") or "CWLI",
            "lastModified": int(time.time() * 1000),
        }
        return json.dumps({"queryDefinitionId": definition_id})

    def describe_query_definitions(self) -> str:
        get = self._get_param  # type: ignore[attr-defined]
        prefix = get("queryDefinitionNamePrefix") or ""
        language = get("queryLanguage")
        found = [
            d
            for d in _definitions(self.logs_backend).values()  # type: ignore[attr-defined]
            if d["name"].startswith(prefix) and (not language or d["queryLanguage"] == language)
        ]
        start = int(get("nextToken") or 0)
        size = int(get("maxResults") or 1000)
        answer: dict[str, Any] = {"queryDefinitions": found[start : start + size]}
        if start + size < len(found):
            answer["nextToken"] = str(start + size)
        return json.dumps(answer)

    def delete_query_definition(self) -> str:
        from moto.logs.exceptions import ResourceNotFoundException

        saved = _definitions(self.logs_backend)  # type: ignore[attr-defined]
        if saved.pop(self._get_param("queryDefinitionId"), None) is None:  # type: ignore[attr-defined]
            raise ResourceNotFoundException("The query definition does not exist.")
        return json.dumps({"success": True})


@behaviour(
    BEHAVIOURS,
    "logs.query-definition",
    does="PutQueryDefinition saves a Logs Insights query, DescribeQueryDefinitions returns it "
    "and DeleteQueryDefinition removes it",
    reference=_API + "API_PutQueryDefinition.html",
    test=_TESTS + "test_logs_keeps_a_query_definition",
)
def _query_definition() -> None:
    from moto.logs.responses import LogsResponse

    graft(QueryDefinitionResponse, onto=LogsResponse)


#: The anomaly visibility time AWS gives a detector created without one, in days.
ANOMALY_VISIBILITY_DAYS = 21


class AnomalyDetector:
    """One log anomaly detector (the fields GetLogAnomalyDetector answers)."""

    def __init__(self, arn: str, given: dict[str, Any]) -> None:
        self.arn = arn
        self.created = self.modified = int(time.time() * 1000)
        self.fields: dict[str, Any] = {
            "detectorName": given.get("detectorName"),
            "logGroupArnList": given["logGroupArnList"],
            "evaluationFrequency": given.get("evaluationFrequency"),
            "filterPattern": given.get("filterPattern"),
            "anomalyDetectorStatus": "INITIALIZING",
            "kmsKeyId": given.get("kmsKeyId"),
            "anomalyVisibilityTime": given.get("anomalyVisibilityTime") or ANOMALY_VISIBILITY_DAYS,
        }

    def update(self, given: dict[str, Any]) -> None:
        for name in ("evaluationFrequency", "filterPattern", "anomalyVisibilityTime"):
            if given.get(name) is not None:
                self.fields[name] = given[name]
        if given.get("enabled") is False:
            self.fields["anomalyDetectorStatus"] = "PAUSED"
        elif self.fields["anomalyDetectorStatus"] == "PAUSED":
            self.fields["anomalyDetectorStatus"] = "TRAINING"
        self.modified = int(time.time() * 1000)

    def described(self) -> dict[str, Any]:
        answer = {k: v for k, v in self.fields.items() if v is not None}
        answer["creationTimeStamp"] = self.created
        answer["lastModifiedTimeStamp"] = self.modified
        if self.fields["anomalyDetectorStatus"] == "INITIALIZING":
            self.fields["anomalyDetectorStatus"] = "TRAINING"
        return answer


def _no_detector() -> Exception:
    from moto.logs.exceptions import ResourceNotFoundException

    return ResourceNotFoundException("The specified anomaly detector does not exist.")


class AnomalyDetectorBackend:
    """The Region's log anomaly detectors, by ARN (a LogsBackend mixin)."""

    anomaly_detectors: Kept[AnomalyDetector] = Kept()

    def create_log_anomaly_detector(self, given: dict[str, Any]) -> AnomalyDetector:
        from moto.logs.exceptions import InvalidParameterException

        groups = given.get("logGroupArnList") or []
        if len(groups) != 1:
            raise InvalidParameterException("You can specify only one log group ARN.")
        _group(self, groups[0])
        arn = (
            f"arn:{self.partition}:logs:{self.region_name}:{self.account_id}:"  # type: ignore[attr-defined]
            f"anomaly-detector:{uuid.uuid4()}"
        )
        made = self.anomaly_detectors[arn] = AnomalyDetector(arn, given)
        if given.get("tags"):
            self.tag_resource(arn, given["tags"])  # type: ignore[attr-defined]
        return made

    def get_log_anomaly_detector(self, arn: str) -> AnomalyDetector:
        found = self.anomaly_detectors.get(arn)
        if found is None:
            raise _no_detector()
        return found

    def delete_log_anomaly_detector(self, arn: str) -> None:
        if self.anomaly_detectors.pop(arn, None) is None:
            raise _no_detector()
        self.tagger.delete_all_tags_for_resource(arn)  # type: ignore[attr-defined]


class AnomalyDetectorResponse:
    """The log anomaly detector actions (a LogsResponse mixin)."""

    def create_log_anomaly_detector(self) -> str:
        names = (
            "logGroupArnList",
            "detectorName",
            "evaluationFrequency",
            "filterPattern",
            "kmsKeyId",
            "anomalyVisibilityTime",
            "tags",
        )
        given = {name: self._get_param(name) for name in names}  # type: ignore[attr-defined]
        made = self.logs_backend.create_log_anomaly_detector(given)  # type: ignore[attr-defined]
        return json.dumps({"anomalyDetectorArn": made.arn})

    def get_log_anomaly_detector(self) -> str:
        arn = self._get_param("anomalyDetectorArn")  # type: ignore[attr-defined]
        found = self.logs_backend.get_log_anomaly_detector(arn)  # type: ignore[attr-defined]
        return json.dumps(found.described())

    def update_log_anomaly_detector(self) -> str:
        arn = self._get_param("anomalyDetectorArn")  # type: ignore[attr-defined]
        found = self.logs_backend.get_log_anomaly_detector(arn)  # type: ignore[attr-defined]
        names = ("evaluationFrequency", "filterPattern", "anomalyVisibilityTime", "enabled")
        found.update({name: self._get_param(name) for name in names})  # type: ignore[attr-defined]
        return "{}"

    def delete_log_anomaly_detector(self) -> str:
        arn = self._get_param("anomalyDetectorArn")  # type: ignore[attr-defined]
        self.logs_backend.delete_log_anomaly_detector(arn)  # type: ignore[attr-defined]
        return "{}"

    def list_log_anomaly_detectors(self) -> str:
        get = self._get_param  # type: ignore[attr-defined]
        group = get("filterLogGroupArn")
        found = [
            d
            for d in self.logs_backend.anomaly_detectors.values()  # type: ignore[attr-defined]
            if not group or group in d.fields["logGroupArnList"]
        ]
        page, token = one_page(found, get("nextToken"), get("limit"), 50)
        answer: dict[str, Any] = {
            "anomalyDetectors": [{"anomalyDetectorArn": d.arn, **d.described()} for d in page]
        }
        if token:
            answer["nextToken"] = token
        return json.dumps(answer)


@behaviour(
    BEHAVIOURS,
    "logs.anomaly-detectors",
    does="Create/Get/Update/Delete/ListLogAnomalyDetectors keep the Region's log anomaly "
    "detectors (anomalyVisibilityTime 21 days unless given; PAUSED while disabled), tagged "
    "by their ARN",
    reference=_API + "API_CreateLogAnomalyDetector.html",
    test=_TESTS + "test_logs_keeps_a_log_anomaly_detector",
)
def _anomaly_detectors() -> None:
    from moto.logs.models import LogsBackend
    from moto.logs.responses import LogsResponse

    graft(AnomalyDetectorBackend, onto=LogsBackend)
    graft(AnomalyDetectorResponse, onto=LogsResponse)
