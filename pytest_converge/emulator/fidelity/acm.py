"""ACM: a certificate requested for email validation is validated by email.

Following the ACM API reference
(https://docs.aws.amazon.com/acm/latest/APIReference/API_RequestCertificate.html,
``API_DomainValidation.html``): ``RequestCertificate`` takes a
``ValidationMethod`` (``DNS`` or ``EMAIL``) and, per domain, the
``ValidationDomain`` its emails go to; ``DescribeCertificate`` answers each
domain's ``DomainValidation`` with that method, and for ``EMAIL`` the addresses
ACM wrote to (``ValidationEmails``: admin@, administrator@, hostmaster@,
postmaster@ and webmaster@ the validation domain) and no DNS ``ResourceRecord``.
moto 5.2 never reads ``ValidationMethod`` and answers ``DNS`` for every
certificate, so the aws provider reads ``validation_method = "DNS"`` back from an
``EMAIL`` certificate and replaces it on every plan.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []

#: The addresses ACM writes to at the validation domain (the API reference, ValidationEmails).
EMAIL_USERS = ("admin", "administrator", "hostmaster", "postmaster", "webmaster")


def validation_emails(domain: str) -> list[str]:
    """The addresses ACM sends a validation email to for ``domain`` (its wildcard's base)."""
    base = domain[2:] if domain.startswith("*.") else domain
    return [f"{user}@{base}" for user in EMAIL_USERS]


@behaviour(
    BEHAVIOURS,
    "acm.email-validation",
    does="RequestCertificate keeps ValidationMethod and each domain's ValidationDomain; "
    "DescribeCertificate answers an EMAIL certificate's domains with ValidationMethod EMAIL "
    "and their ValidationEmails, no DNS record",
    reference="https://docs.aws.amazon.com/acm/latest/APIReference/API_DomainValidation.html",
    test="tests/integration/test_fidelity_services.py::test_acm_an_email_certificate_is_validated_by_email",
    replaces={
        "moto.acm.responses:AWSCertificateManagerResponse.request_certificate": "a99b65391c54bc81",
        "moto.acm.models:CertBundle.describe": "f828bb1021c13344",
    },
)
def _email_validation() -> None:
    from moto.acm.models import CertBundle
    from moto.acm.responses import AWSCertificateManagerResponse

    request_certificate = original(AWSCertificateManagerResponse, "request_certificate")
    describe = original(CertBundle, "describe")

    def request_keeping_the_method(self: Any) -> Any:
        answer = request_certificate(self)
        arn = answer.result["CertificateArn"]
        cert = self.acm_backend.get_certificate(arn)
        cert.validation_method = self._get_param("ValidationMethod") or "DNS"
        cert.validation_domains = {
            o["DomainName"]: o["ValidationDomain"]
            for o in self._get_param("DomainValidationOptions") or []
            if o.get("DomainName") and o.get("ValidationDomain")
        }
        return answer

    def describe_by_method(self: Any) -> dict[str, Any]:
        result: dict[str, Any] = describe(self)
        if getattr(self, "validation_method", "DNS") != "EMAIL":
            return result
        domains = getattr(self, "validation_domains", {})
        for option in result["Certificate"].get("DomainValidationOptions", []):
            name = option["DomainName"]
            option["ValidationMethod"] = "EMAIL"
            option["ValidationDomain"] = domains.get(name, name)
            option["ValidationEmails"] = validation_emails(option["ValidationDomain"])
            option.pop("ResourceRecord", None)
        return result

    patch(AWSCertificateManagerResponse, "request_certificate", request_keeping_the_method)
    patch(CertBundle, "describe", describe_by_method)
