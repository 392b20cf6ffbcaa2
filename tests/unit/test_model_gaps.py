"""Gaps suspected from the emulator's own model (plain data), and the lookups behind them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pytest_converge.analysis.defects import Defect
from pytest_converge.analysis.gaps import mark_emulator_gaps
from pytest_converge.analysis.model_gaps import (
    ApiMember,
    AttributeFacts,
    ModelFacts,
    Refusal,
    RefusedParameter,
    mark_model_gaps,
    model_questions,
    refusal_notes,
)
from pytest_converge.awsapi.model import allowed_values, api_members, services_of
from pytest_converge.emulator import moto_facts as model_facts
from pytest_converge.emulator.moto_source import SourceIndex
from pytest_converge.faults.operations import request_parameters
from pytest_converge.faults.proxy import Call

ON_DEMAND = ApiMember(
    "dynamodb", ("CreateTable", "UpdateTable"), ("OnDemandThroughput",), "CreateTableInput"
)


def _facts(carried: bool, attribute: str = "on_demand_throughput") -> ModelFacts:
    known = AttributeFacts("aws_dynamodb_table", attribute, ON_DEMAND, carried, "moto/dynamodb")
    return ModelFacts("moto", "5.2.5", (known,))


def _diff(classification: str = "dropped", **extra) -> Defect:
    fields = {
        "kind": "permanent-diff",
        "address": "module.db.aws_dynamodb_table.events[0]",
        "attribute": "on_demand_throughput",
        "declared": [{"max_read_request_units": 100}],
        "observed": [],
        "classification": classification,
        **extra,
    }
    return Defect(**fields)


# -- the rule (analysis, plain data) ---------------------------------------------------------


@pytest.mark.parametrize("classification", ["dropped", "default"])
def test_a_finding_on_a_member_the_emulator_never_reads_is_suspected(classification):
    defect = _diff(classification)
    assert mark_model_gaps([defect], _facts(carried=False)) == [defect]
    assert defect.emulator_suspected and defect.severity == "warning"
    assert defect.evidence.startswith(
        "aws_dynamodb_table.on_demand_throughput -> dynamodb CreateTable/UpdateTable "
        "OnDemandThroughput -> moto 5.2.5's dynamodb backend never reads it ("
        "botocore's shape CreateTableInput.OnDemandThroughput; moto/dynamodb never "
        "mentions OnDemandThroughput in any form)"
    ), defect.evidence


def test_a_member_the_emulator_reads_is_not_excused():
    defect = _diff()
    assert mark_model_gaps([defect], _facts(carried=True)) == []
    assert not defect.emulator_suspected and defect.severity == "error"


@pytest.mark.parametrize(
    "defect",
    [
        _diff("unknown"),  # not a value that went missing
        _diff("order"),
        _diff(declared=None, observed="PROVISIONED", classification="default"),  # filled in
        _diff(kind="needs-second-apply"),
        _diff(severity="info"),
    ],
    ids=["unknown", "order", "declared-empty", "transient", "info"],
)
def test_only_values_sent_and_lost_are_asked(defect):
    assert model_questions([defect]) == []
    assert mark_model_gaps([defect], _facts(carried=False)) == []
    assert not defect.emulator_suspected


def test_the_question_is_the_plain_path_of_the_resource_type():
    nested = _diff(attribute="on_demand_throughput[0].max_read_request_units")
    assert model_questions([_diff(), nested, _diff()]) == [
        ("aws_dynamodb_table", "on_demand_throughput"),
        ("aws_dynamodb_table", "on_demand_throughput.max_read_request_units"),
    ]


def test_strict_keeps_it_an_error():
    defect = _diff()
    mark_model_gaps([defect], _facts(carried=False), strict=True)
    assert defect.emulator_suspected and defect.severity == "error"


def test_the_catalogue_comes_first_and_followers_follow_a_model_gap():
    defect = _diff(address="aws_dynamodb_table.events")
    output = Defect(
        kind="output-change",
        address="output.limits",
        attribute="limits",
        declared=[{"max_read_request_units": 100}],
        observed=[],
    )
    configuration = {
        "root_module": {
            "outputs": {
                "limits": {
                    "expression": {
                        "references": [
                            "aws_dynamodb_table.events.on_demand_throughput",
                            "aws_dynamodb_table.events",
                        ]
                    }
                }
            }
        }
    }
    marked = mark_emulator_gaps(
        [defect, output],
        "moto",
        "5.2.5",
        gaps=[],
        configuration=configuration,
        model=_facts(carried=False),
    )
    assert marked == [defect, output]
    assert output.evidence.startswith(
        "follows from the suspected emulator gap of aws_dynamodb_table.events on_demand_throughput"
    )


def test_without_facts_nothing_is_marked():
    defect = _diff()
    assert mark_model_gaps([defect], None) == []
    assert mark_emulator_gaps([defect], "localstack", None, gaps=[]) == []


# -- refused calls --------------------------------------------------------------------------

TEXT = RefusedParameter(
    "DocumentFormat", "TEXT", named=True, listed=True, value_known=False, member_known=True
)
NAME = RefusedParameter(
    "Name", "calendar", named=False, listed=False, value_known=False, member_known=True
)


def _refusal(*parameters: RefusedParameter, address: str | None = "aws_ssm_document.c"):
    return Refusal(
        "ssm",
        "CreateDocument",
        "ValidationException",
        "Invalid document format TEXT",
        address,
        parameters,
    )


def test_a_refused_value_the_api_lists_is_named_first_in_the_error():
    facts = ModelFacts("moto", "5.2.5", refusals=(_refusal(NAME, TEXT),))
    [note] = refusal_notes(facts)
    assert (note.service, note.operation) == ("ssm", "CreateDocument")
    assert note.text.startswith(
        "suspected emulator gap: moto 5.2.5 answered ValidationException to "
        "ssm:CreateDocument with DocumentFormat=TEXT: botocore's ssm model lists 'TEXT' "
        "for CreateDocument.DocumentFormat and moto 5.2.5's ssm backend never mentions "
        "that value (it said: Invalid document format TEXT)"
    ), note.text


@pytest.mark.parametrize(
    "parameter",
    [
        # The emulator knows the value: it refuses it for a reason of its own.
        RefusedParameter("DocumentFormat", "TEXT", True, True, True, True),
        # The API does not list the value: the module may be wrong.
        RefusedParameter("DocumentFormat", "TXT", True, False, False, True),
        # The message is about something else.
        RefusedParameter("DocumentFormat", "TEXT", False, True, False, True),
    ],
    ids=["known-value", "unlisted-value", "not-named"],
)
def test_a_refusal_that_is_not_suspicious_is_not_named(parameter):
    facts = ModelFacts("moto", "5.2.5", refusals=(_refusal(parameter),))
    assert refusal_notes(facts) == []


def test_a_member_the_emulator_never_reads_named_in_the_refusal_is_suspicious():
    unread = RefusedParameter("Mode", "FAST", True, False, value_known=False, member_known=False)
    facts = ModelFacts("moto", "5.2.5", refusals=(_refusal(unread),))
    [note] = refusal_notes(facts)
    assert "with Mode=FAST: moto 5.2.5's ssm backend never reads Mode" in note.text


def test_a_recovery_that_failed_on_a_suspicious_refusal_is_suspected():
    failed = Defect(
        kind="recovery-failed",
        address="aws_ssm_document.c",
        observed="creating SSM document: ValidationException: Invalid document format TEXT",
    )
    other = Defect(kind="recovery-failed", address="aws_sqs_queue.q", observed="timeout")
    facts = ModelFacts("moto", "5.2.5", refusals=(_refusal(TEXT, address=None),))
    assert mark_model_gaps([failed, other], facts) == [failed]
    assert failed.severity == "warning" and "DocumentFormat=TEXT" in failed.evidence


# -- the lookups (botocore's models, moto's source) ----------------------------------------


@pytest.mark.parametrize(
    ("resource_type", "attribute", "service", "operations", "path"),
    [
        (
            "aws_dynamodb_table",
            "on_demand_throughput",
            "dynamodb",
            ("CreateTable", "UpdateTable"),
            ("OnDemandThroughput",),
        ),
        (
            "aws_dynamodb_table",
            "on_demand_throughput.max_read_request_units",
            "dynamodb",
            ("CreateTable", "UpdateTable"),
            ("OnDemandThroughput", "MaxReadRequestUnits"),
        ),
        ("aws_cloudwatch_log_group", "log_group_class", "logs", ("CreateLogGroup",), None),
        ("aws_sqs_queue", "name", "sqs", ("CreateQueue",), ("QueueName",)),
        ("aws_vpc_endpoint", "subnet_ids", "ec2", None, ("SubnetIds",)),
        ("aws_lambda_function", "dead_letter_config", "lambda", None, ("DeadLetterConfig",)),
    ],
)
def test_an_attribute_maps_to_the_member_it_is_sent_as(
    resource_type, attribute, service, operations, path
):
    [member] = api_members(resource_type, attribute)
    assert member.service == service
    if operations is not None:
        assert member.operations == operations
    if path is not None:
        assert member.path == path
    assert member.shape


def test_a_renamed_or_unknown_attribute_maps_to_nothing():
    assert api_members("aws_dynamodb_table", "read_capacity") == []  # ProvisionedThroughput...
    assert api_members("aws_sqs_queue", "name_prefix") == []
    assert api_members("aws_nothing_known", "name") == []


def test_a_type_finds_its_service():
    assert services_of("aws_cloudwatch_log_group") == ["logs"]
    assert services_of("aws_appautoscaling_target")[-1] == "application-autoscaling"
    assert services_of("aws_subnet") == ["ec2"]
    assert services_of("aws_lambda_function", ["lambda", "not-a-service"]) == ["lambda"]


def test_the_values_the_api_lists():
    assert "aws:ssm:integration" in allowed_values("ssm", "PutParameter", "DataType")
    assert "TEXT" in allowed_values("ssm", "CreateDocument", "DocumentFormat")
    assert allowed_values("ssm", "CreateDocument", "NoSuchMember") == frozenset()


def test_moto_s_source_index_knows_what_each_backend_reads(tmp_path):
    index = SourceIndex(extra=[], cache=tmp_path)  # moto's own source: the fidelity layer aside
    assert index.package_of("lambda") == "awslambda"
    assert index.package_of("elbv2", "elasticloadbalancing") == "elbv2"
    assert index.package_of("apigatewayv2", "apigateway") == "apigatewayv2"
    assert index.package_of("no-such-service") is None
    assert not index.mentions("dynamodb", "OnDemandThroughput")
    assert index.mentions("dynamodb", "ProvisionedThroughput")
    assert index.mentions("dynamodb", "provisioned_throughput")
    assert index.mentions("s3", "Cache-Control")  # a header's wire name
    assert index.mentions_value("ssm", "aws:ec2:image")
    assert not index.mentions_value("ssm", "aws:ssm:integration")
    # Built once per moto version, then read from the cache.
    [stored] = tmp_path.glob("*/dynamodb.words")
    stored.write_text("ondemandthroughput")
    assert SourceIndex(extra=[], cache=tmp_path).mentions("dynamodb", "OnDemandThroughput")


def test_an_extra_source_root_counts_for_the_packages_it_extends(tmp_path):
    extra = tmp_path / "fidelity"
    (extra / "dynamodb").mkdir(parents=True)
    (extra / "dynamodb" / "throughput.py").write_text("def on_demand_throughput(): ...\n")
    (extra / "logs.py").write_text("from moto.logs.models import LogGroup  # logGroupClass\n")
    (extra / "other.py").write_text("from moto.sqs import models  # RedriveAllowPolicy\n")
    index = SourceIndex(extra=[extra], cache=tmp_path / "cache")
    assert index.mentions("dynamodb", "OnDemandThroughput")  # by its directory's name
    assert index.mentions("logs", "logGroupClass")  # by its import
    assert not index.mentions("logs", "RedriveAllowPolicy")  # another package's file
    # moto 5.2 alone drops it; the plugin's fidelity layer keeps it, and is counted.
    assert not SourceIndex(extra=[], cache=tmp_path / "bare").mentions(
        "dynamodb", "OnDemandThroughput"
    )
    assert SourceIndex(cache=tmp_path / "cache").mentions("dynamodb", "OnDemandThroughput")


# -- what the proxy keeps of a refused call, and the facts built from it ----------------------


@pytest.fixture
def moto_only(monkeypatch, tmp_path):
    """The facts from moto's own source (what the plugin's fidelity layer adds aside)."""
    index = SourceIndex(extra=[], cache=tmp_path)
    monkeypatch.setattr(model_facts, "source_index", lambda: index)


def test_request_parameters_of_each_protocol():
    assert request_parameters(b'{"Name": "c", "Tags": [{"Key": "a"}], "On": true}') == {
        "Name": "c",
        "Tags.1.Key": "a",
        "On": "true",
    }
    form = b"Action=CreateSubnet&Version=2016-11-15&VpcId=vpc-1&CidrBlock=10.0.0.0%2F24"
    assert request_parameters(form) == {"VpcId": "vpc-1", "CidrBlock": "10.0.0.0/24"}
    assert request_parameters(b"<CreateBucketConfiguration/>") == {}
    assert request_parameters(b"{not json") == {}


def _refused_call(**extra) -> Call:
    fields = {
        "seq": 1,
        "service": "ssm",
        "operation": "CreateDocument",
        "occurrence": 1,
        "method": "POST",
        "path": "/",
        "status": 400,
        "access_key": None,
        "started": 0.0,
        "duration": 0.0,
        "fault": None,
        "forwarded": True,
        "mutating": True,
        "upstream_status": 400,
        "error_code": "ValidationException",
        "error_message": "Invalid document format TEXT",
        "parameters": {"Name": "calendar", "DocumentFormat": "TEXT", "Content": "BEGIN"},
        "address": "aws_ssm_document.c",
        **extra,
    }
    return Call(**fields)


def test_facts_of_a_refused_call_name_the_value_moto_does_not_know(moto_only):
    call = _refused_call()
    assert call.refused
    facts = model_facts.refusal_facts(SimpleNamespace(name="moto", version="5.2.5"), [call])
    assert facts is not None
    [refusal] = facts.refusals
    cause = refusal.cause()
    assert cause is not None and (cause.name, cause.value) == ("DocumentFormat", "TEXT")
    assert refusal_notes(facts)[0].text.startswith("suspected emulator gap: moto 5.2.5 answered")


def test_no_facts_for_other_emulators_or_answers(moto_only):
    moto = SimpleNamespace(name="moto", version="5.2.5")
    assert model_facts.refusal_facts(SimpleNamespace(name="localstack"), [_refused_call()]) is None
    faulted = _refused_call(status=403, upstream_status=200)  # a fault answered, not moto
    assert not faulted.refused
    assert model_facts.refusal_facts(moto, [faulted]) is None
    assert not _refused_call(mutating=False).refused


def test_facts_of_a_finding_ask_the_real_model_and_source(moto_only):
    dropped = _diff(
        address="aws_lambda_function.worker",
        attribute="dead_letter_config",
        declared=[{"target_arn": "arn:aws:sqs:us-east-1:123456789012:failed"}],
    )
    facts = model_facts.model_facts([dropped], SimpleNamespace(name="moto", version="5.2.5"))
    assert facts is not None
    [known] = facts.attributes
    assert known.member.path == ("DeadLetterConfig",) and not known.carried
    assert known.source == "moto/awslambda"


def test_a_refusal_about_what_exists_is_not_looked_up(moto_only, monkeypatch):
    """A retried create's "already exists" can have no cause: its parameters are not
    looked up in the model (loading EC2's costs 0.1 s on every failed faulted apply)."""
    asked: list[str] = []
    monkeypatch.setattr(
        model_facts, "allowed_values", lambda service, *a: asked.append(service) or frozenset()
    )
    moto = SimpleNamespace(name="moto", version="5.2.5")
    duplicate = _refused_call(error_code="ParameterAlreadyExists", error_message="exists")
    facts = model_facts.refusal_facts(moto, [duplicate])
    assert facts is not None
    [refusal] = facts.refusals
    assert (refusal.code, refusal.parameters, refusal.cause()) == (
        "ParameterAlreadyExists",
        (),
        None,
    )
    assert asked == []
    model_facts.refusal_facts(moto, [_refused_call()])
    assert asked  # a refusal of the request's form is


def test_only_a_refusal_of_the_requests_form_can_be_the_emulators() -> None:
    from pytest_converge.analysis.model_gaps import is_validation_error

    form = "ValidationException InvalidParameterValue InvalidParameterCombination ValidationError"
    for code in [*form.split(), "InvalidRequestException", "SerializationException"]:
        assert is_validation_error(code), code
    # What AWS answers a retried create too: a finding of the module, never excused.
    state = (
        "ParameterAlreadyExists ResourceExistsException EntityAlreadyExists "
        "InvalidGroup.Duplicate ResourceInUseException InvalidSubnet.Conflict "
        "InvalidVpcID.NotFound LimitExceededException AccessDeniedException"
    )
    for code in state.split():
        assert not is_validation_error(code), code


def test_the_api_model_reads_no_aws_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    # A user's shell with an AWS_PROFILE this machine has no config for: botocore's
    # session would raise ProfileNotFound; the API's model needs no profile.
    from pytest_converge.awsapi import model as api_model

    monkeypatch.setenv("AWS_PROFILE", "a-profile-nobody-configured")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/config")
    for cached in (api_model._loader, api_model._available, api_model._model):
        cached.cache_clear()
    try:
        assert api_model.known_service("sqs")
        assert api_model.endpoint_prefix("application-autoscaling") == "application-autoscaling"
    finally:
        for cached in (api_model._loader, api_model._available, api_model._model):
            cached.cache_clear()


# -- the member in the read's own answer ---------------------------------------------------


def test_a_member_moto_names_elsewhere_is_lost_when_the_reads_answer_lacks_it(moto_only):
    # moto's ec2 names EnclaveOptions for launch templates; DescribeInstances never renders it.
    dropped = _diff(
        address="module.ec2.aws_instance.this[0]",
        attribute="enclave_options",
        declared=[{"enabled": None}],
        observed=[],
    )
    facts = model_facts.model_facts(
        [dropped],
        SimpleNamespace(name="moto", version="5.2.5"),
    )
    assert facts is not None
    [known] = facts.attributes
    assert not known.carried
    assert known.read == "DescribeInstances Reservations.Instances.EnclaveOptions"
    assert mark_model_gaps([dropped], facts) == [dropped]
    assert dropped.emulator_suspected and dropped.severity == "warning"
    assert "moto 5.2.5's ec2 DescribeInstances answer never carries it" in dropped.evidence
    assert "moto/ec2's code for that answer never names EnclaveOptions" in dropped.evidence


def test_a_member_the_reads_answer_carries_is_not_excused(moto_only):
    kept = _diff(address="aws_instance.web", attribute="metadata_options", declared=[{"a": 1}])
    facts = model_facts.model_facts([kept], SimpleNamespace(name="moto", version="5.2.5"))
    assert facts is not None
    [known] = facts.attributes
    assert known.carried and known.read == ""


def test_the_read_path_is_botocores_output_shape():
    from pytest_converge.awsapi.model import read_paths

    [member] = api_members("aws_instance", "enclave_options")
    [read] = read_paths("aws_instance", member)
    assert read.path == ("Reservations", "Instances", "EnclaveOptions")
    assert read.parents == ("Reservation", "Instance")


def test_the_answer_of_one_operation_is_read_from_its_own_code(tmp_path):
    index = SourceIndex(extra=[], cache=tmp_path)
    parents = ("Reservation", "Instance")
    assert index.response_mentions("ec2", "DescribeInstances", "EnclaveOptions", parents) is False
    assert index.response_mentions("ec2", "DescribeInstances", "InstanceType", parents) is True
    # A holder with no class of its own (a dict kept as sent): not known from here.
    holders = ("LaunchTemplateVersion", "ResponseLaunchTemplateData")
    said = index.response_mentions("ec2", "DescribeLaunchTemplateVersions", "X", holders)
    assert said is None
    assert index.response_mentions("ec2", "NoSuchOperation", "EnclaveOptions") is None
    # Kept per moto version: a second index reads the stored code, not the source.
    [stored] = tmp_path.glob("*/ec2.code.json")
    again = SourceIndex(extra=[], cache=tmp_path)
    assert again.response_mentions("ec2", "DescribeInstances", "EnclaveOptions", parents) is False
    assert stored.exists()


def test_a_template_decides_what_an_answer_carries(tmp_path):
    root = tmp_path / "moto"
    (root / "things").mkdir(parents=True)
    (root / "things" / "responses.py").write_text(
        "class ThingResponse:\n"
        "    def describe_things(self):\n"
        "        things = self.backend.describe_things()\n"
        "        return self.render(THINGS, things=things)\n"
        "    def get_widget(self):\n"
        "        return json.dumps(self.backend.get_widget().to_dict())\n"
        'THINGS = """<Things>""" + THING\n'
        'THING = "<thing><name>{{ thing.name }}</name></thing>"\n'
    )
    index = SourceIndex(root=root, extra=[], cache=tmp_path / "cache")
    assert index.response_mentions("things", "DescribeThings", "Name") is True
    assert index.response_mentions("things", "DescribeThings", "Colour") is False
    assert index.response_mentions("things", "GetWidget", "Colour") is None


def test_a_class_that_sets_its_attributes_by_name_may_hold_any_member(tmp_path):
    root = tmp_path / "moto"
    (root / "things").mkdir(parents=True)
    (root / "things" / "responses.py").write_text(
        "class ThingResponse:\n"
        "    def describe_things(self):\n"
        "        return ActionResult({'Things': self.backend.things()})\n"
    )
    (root / "things" / "models.py").write_text(
        "class Thing:\n    def __init__(self, **kw):\n        self.name = kw['name']\n"
        "class Widget:\n    def __init__(self, **kw):\n"
        "        for k, v in kw.items():\n            setattr(self, k, v)\n"
    )
    index = SourceIndex(root=root, extra=[], cache=tmp_path / "cache")
    assert index.response_mentions("things", "DescribeThings", "Colour", ["Thing"]) is False
    assert index.response_mentions("things", "DescribeThings", "Name", ["Thing"]) is True
    assert index.response_mentions("things", "DescribeThings", "Colour", ["Widget"]) is None


def test_a_member_the_fidelity_layer_names_is_carried_in_the_answer(tmp_path):
    extra = tmp_path / "fidelity"
    extra.mkdir()
    (extra / "ec2.py").write_text("from moto.ec2.models import Instance\nENCLAVE_OPTIONS = 1\n")
    index = SourceIndex(extra=[extra], cache=tmp_path / "cache")
    parents = ("Reservation", "Instance")
    assert index.response_mentions("ec2", "DescribeInstances", "EnclaveOptions", parents)


def test_an_answer_serialised_from_a_class_reads_the_members_aliases(tmp_path):
    root = tmp_path / "moto"
    (root / "db").mkdir(parents=True)
    (root / "db" / "responses.py").write_text(
        "class DBResponse:\n"
        "    def describe_db_instances(self):\n"
        "        return ActionResult({'DBInstances': self.backend.instances()})\n"
    )
    (root / "db" / "models.py").write_text(
        "class DBInstance:\n    def __init__(self, identifier, endpoint):\n"
        "        self.identifier = identifier\n        self.endpoint = endpoint\n"
    )
    index = SourceIndex(root=root, extra=[], cache=tmp_path / "cache")
    holders = ["DBInstance"]
    # moto's serialiser reads DBInstanceIdentifier as `identifier` of a DBInstance.
    said = index.response_mentions("db", "DescribeDBInstances", "DBInstanceIdentifier", holders)
    assert said is True
    # ... and a member by its shape's name.
    said = index.response_mentions("db", "DescribeDBInstances", "Address", holders, ["Endpoint"])
    assert said is True
    assert index.response_mentions("db", "DescribeDBInstances", "Port", holders) is False
