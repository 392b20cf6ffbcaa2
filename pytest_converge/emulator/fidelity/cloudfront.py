"""CloudFront: a distribution on the default certificate names no certificate of its own.

Following the CloudFront API reference for ``ViewerCertificate``
(https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_ViewerCertificate.html):
``IAMCertificateId`` and ``ACMCertificateArn`` are there only when the distribution
uses such a certificate. moto 5.2 answers both as empty strings for every
distribution, so the aws provider reads a distribution with
``cloudfront_default_certificate = true`` as one with an IAM certificate and an
``ssl_support_method`` of ``sni-only``, a permanent diff of a value never declared.
"""

from __future__ import annotations

from typing import Any

from . import Behaviour, behaviour, original, patch

BEHAVIOURS: list[Behaviour] = []


@behaviour(
    BEHAVIOURS,
    "cloudfront.default-certificate",
    does="a distribution's ViewerCertificate has an IAMCertificateId or ACMCertificateArn only "
    "when it was given one (moto: both empty, read as an IAM certificate served sni-only)",
    reference="https://docs.aws.amazon.com/cloudfront/latest/APIReference/"
    "API_ViewerCertificate.html",
    test="tests/integration/test_fidelity_services.py::"
    "test_cloudfront_a_default_certificate_names_no_certificate",
    replaces={"moto.cloudfront.models:ViewerCertificate.__init__": "030db8bdfc6c16ec"},
)
def _default_certificate() -> None:
    from moto.cloudfront.models import ViewerCertificate

    init = original(ViewerCertificate, "__init__")

    def __init__(self: Any, config: dict[str, Any]) -> None:
        init(self, config)
        if not config.get("IAMCertificateId"):
            self.iam_certificate_id = None
        if not config.get("ACMCertificateArn"):
            self.acm_certificate_arn = None

    patch(ViewerCertificate, "__init__", __init__)
