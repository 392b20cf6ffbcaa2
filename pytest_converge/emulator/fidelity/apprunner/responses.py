"""Handles AWS App Runner requests (loaded as ``moto.apprunner.responses``)."""

from __future__ import annotations

import json
from typing import Any

from moto.core.responses import BaseResponse

from .models import AppRunnerBackend, apprunner_backends


class AppRunnerResponse(BaseResponse):
    def __init__(self) -> None:
        super().__init__(service_name="apprunner")

    @property
    def apprunner_backend(self) -> AppRunnerBackend:
        return apprunner_backends[self.current_account][self.region]

    def _asked(self) -> dict[str, Any]:
        return json.loads(self.body) if self.body else {}

    def create_auto_scaling_configuration(self) -> str:
        made = self.apprunner_backend.create_auto_scaling_configuration(self._asked())
        return json.dumps({"AutoScalingConfiguration": made})

    def describe_auto_scaling_configuration(self) -> str:
        arn = self._asked()["AutoScalingConfigurationArn"]
        found = self.apprunner_backend.describe_auto_scaling_configuration(arn)
        return json.dumps({"AutoScalingConfiguration": found})

    def delete_auto_scaling_configuration(self) -> str:
        arn = self._asked()["AutoScalingConfigurationArn"]
        gone = self.apprunner_backend.delete_auto_scaling_configuration(arn)
        return json.dumps({"AutoScalingConfiguration": gone})

    def list_auto_scaling_configurations(self) -> str:
        asked = self._asked()
        found = self.apprunner_backend.list_auto_scaling_configurations(
            asked.get("AutoScalingConfigurationName"), bool(asked.get("LatestOnly"))
        )
        return json.dumps({"AutoScalingConfigurationSummaryList": found})

    def create_observability_configuration(self) -> str:
        made = self.apprunner_backend.create_observability_configuration(self._asked())
        return json.dumps({"ObservabilityConfiguration": made})

    def describe_observability_configuration(self) -> str:
        arn = self._asked()["ObservabilityConfigurationArn"]
        found = self.apprunner_backend.describe_observability_configuration(arn)
        return json.dumps({"ObservabilityConfiguration": found})

    def delete_observability_configuration(self) -> str:
        arn = self._asked()["ObservabilityConfigurationArn"]
        gone = self.apprunner_backend.delete_observability_configuration(arn)
        return json.dumps({"ObservabilityConfiguration": gone})

    def create_vpc_connector(self) -> str:
        made = self.apprunner_backend.create_vpc_connector(self._asked())
        return json.dumps({"VpcConnector": made})

    def describe_vpc_connector(self) -> str:
        found = self.apprunner_backend.describe_vpc_connector(self._asked()["VpcConnectorArn"])
        return json.dumps({"VpcConnector": found})

    def delete_vpc_connector(self) -> str:
        gone = self.apprunner_backend.delete_vpc_connector(self._asked()["VpcConnectorArn"])
        return json.dumps({"VpcConnector": gone})

    def create_connection(self) -> str:
        made = self.apprunner_backend.create_connection(self._asked())
        return json.dumps({"Connection": made})

    def list_connections(self) -> str:
        found = self.apprunner_backend.list_connections(self._asked().get("ConnectionName"))
        return json.dumps({"ConnectionSummaryList": found})

    def delete_connection(self) -> str:
        gone = self.apprunner_backend.delete_connection(self._asked()["ConnectionArn"])
        return json.dumps({"Connection": gone})

    def create_service(self) -> str:
        made = self.apprunner_backend.create_service(self._asked())
        return json.dumps({"Service": made, "OperationId": made["ServiceId"]})

    def describe_service(self) -> str:
        found = self.apprunner_backend.describe_service(self._asked()["ServiceArn"])
        return json.dumps({"Service": found})

    def update_service(self) -> str:
        found = self.apprunner_backend.update_service(self._asked())
        return json.dumps({"Service": found, "OperationId": found["ServiceId"]})

    def delete_service(self) -> str:
        gone = self.apprunner_backend.delete_service(self._asked()["ServiceArn"])
        return json.dumps({"Service": gone, "OperationId": gone["ServiceId"]})

    def list_services(self) -> str:
        return json.dumps({"ServiceSummaryList": self.apprunner_backend.list_services()})

    def create_vpc_ingress_connection(self) -> str:
        made = self.apprunner_backend.create_vpc_ingress_connection(self._asked())
        return json.dumps({"VpcIngressConnection": made})

    def describe_vpc_ingress_connection(self) -> str:
        arn = self._asked()["VpcIngressConnectionArn"]
        found = self.apprunner_backend.describe_vpc_ingress_connection(arn)
        return json.dumps({"VpcIngressConnection": found})

    def update_vpc_ingress_connection(self) -> str:
        asked = self._asked()
        found = self.apprunner_backend.update_vpc_ingress_connection(
            asked["VpcIngressConnectionArn"], asked.get("IngressVpcConfiguration") or {}
        )
        return json.dumps({"VpcIngressConnection": found})

    def delete_vpc_ingress_connection(self) -> str:
        arn = self._asked()["VpcIngressConnectionArn"]
        gone = self.apprunner_backend.delete_vpc_ingress_connection(arn)
        return json.dumps({"VpcIngressConnection": gone})

    def list_tags_for_resource(self) -> str:
        tags = self.apprunner_backend.list_tags_for_resource(self._asked()["ResourceArn"])
        return json.dumps({"Tags": tags})

    def tag_resource(self) -> str:
        asked = self._asked()
        self.apprunner_backend.tag_resource(asked["ResourceArn"], asked.get("Tags") or [])
        return "{}"

    def untag_resource(self) -> str:
        asked = self._asked()
        self.apprunner_backend.untag_resource(asked["ResourceArn"], asked.get("TagKeys") or [])
        return "{}"
