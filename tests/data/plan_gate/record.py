"""Records the plans of this directory from real runs (see README.md).

Run it by hand, not in the suite:

    pytest -p no:cacheprovider -n 0 tests/data/plan_gate/record.py

Each plan is made as a pipeline makes its no-op gate's plan, after an apply:
``terraform plan -out tfplan`` then ``terraform show -json tfplan``, through the
plugin's own Stack (terraform on the PATH, aws provider 3.39.0, moto). Changes
"outside terraform" are made through the emulator's API with boto3.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from pytest_converge.terraform.runner import IsFlagged

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
MODULE = REPO / "tests" / "modules" / "plan_gate"


def record(stack: Any, name: str, **options: Any) -> dict[str, Any]:
    """``terraform plan -out tfplan`` (with ``options``) and its ``show -json``, written
    to ``<name>.json``."""
    stack.workspace.terraform(
        "plan",
        input=False,
        no_color=IsFlagged,
        out="tfplan",
        check=True,
        ok_codes=(0, 2),
        **options,
    )
    shown = stack.workspace.terraform(
        "show", "tfplan", json=IsFlagged, no_color=IsFlagged, check=True
    )
    data = json.loads(shown.stdout)
    (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
    return data


def test_record_the_pipeline_plans(converge: Any, converge_emulator: Any) -> None:
    stack = converge(MODULE)
    stack.apply().raise_for_error()
    sqs = converge_emulator.client("sqs")
    s3 = converge_emulator.client("s3")
    ssm = converge_emulator.client("ssm")

    # Another team tags the bucket (ignored by the module): refresh noise only.
    s3.put_bucket_tagging(
        Bucket="gate-logs", Tagging={"TagSet": [{"Key": "owner", "Value": "data-team"}]}
    )
    record(stack, "empty_refresh_noise")

    # An on-call engineer's console fix: 30 -> 120 seconds on one queue.
    orders = sqs.get_queue_url(QueueName="gate-orders")["QueueUrl"]
    sqs.set_queue_attributes(QueueUrl=orders, Attributes={"VisibilityTimeout": "120"})
    record(stack, "console_fix")
    record(stack, "refresh_only", refresh_only=IsFlagged)

    # The other queue deleted by hand.
    sqs.set_queue_attributes(QueueUrl=orders, Attributes={"VisibilityTimeout": "30"})
    payments = sqs.get_queue_url(QueueName="gate-payments")["QueueUrl"]
    sqs.delete_queue(QueueUrl=payments)
    record(stack, "deleted_outside")

    # The secret rotated by hand (a sensitive value: it must never be shown).
    stack.apply().raise_for_error()
    ssm.put_parameter(
        Name="/gate/token", Value="rotated-by-hand", Type="SecureString", Overwrite=True
    )
    record(stack, "secret_console_fix")


def test_record_an_escape_hatch(converge: Any) -> None:
    stack = converge(REPO / "examples" / "escape_hatch")
    stack.apply().raise_for_error()
    record(stack, "escape_hatch")


def test_record_a_tainted_resource(converge: Any, tmp_path: Path) -> None:
    module = tmp_path / "tainted"
    module.mkdir()
    shutil.copy(HERE / "tainted.tf.txt", module / "main.tf")
    stack = converge(module)
    assert not stack.apply().ok  # the provisioner fails: the object is tainted
    record(stack, "tainted")
