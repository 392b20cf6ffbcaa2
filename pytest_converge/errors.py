"""The exception tree of pytest-converge.

Every failure of a tool, process or emulator is translated once, where it
happens, into one of these::

    ConvergeError                     anything this plugin raises
    ├── ToolchainError                terraform/provider missing or unusable
    ├── ModuleError                   module dir missing, no .tf files, bad variables
    ├── EmulatorError                 emulator failed to start, died, or answered badly
    │   └── UnsupportedServiceError   a module needs a service the backend cannot serve
    ├── UnsafeTargetError             something would reach beyond loopback / real creds
    ├── TerraformError                a terraform command failed (diagnostics attached)
    │   └── TerraformTimeout          ... or did not finish in time
    │       └── TerraformStalled      ... or kept repeating one call and was stopped
    ├── FaultError                    a fault is malformed, names an unknown op, never fired
    │   └── FaultPointsError          the clean apply that records a module's fault points failed
    ├── WriterError                   a loop writer's or console change's function raised
    ├── LoopError                     a loop given a bad argument (also a ValueError)
    ├── DefectError                   a Defect of an unknown kind/class/severity (also a ValueError)
    ├── RevisionError                 an upgrade's REF cannot be read from the module's repository
    ├── PlanFileError                 a --converge-plan file is missing or not a plan it can read
    └── ConvergenceError              the module does not converge (also an AssertionError)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis.defects import Defect


class ConvergeError(Exception):
    """Base class of everything pytest-converge raises."""


class ToolchainError(ConvergeError):
    """The terraform engine or the AWS provider cannot be found or used."""


class ModuleError(ConvergeError):
    """The Terraform module given is not usable (missing, empty, needs variables)."""


class EmulatorError(ConvergeError):
    """The AWS emulator could not be started, stopped responding, or died."""


class UnsupportedServiceError(EmulatorError):
    """The module declares resource types of a service the emulator backend cannot serve.

    Raised before the first apply, instead of minutes of provider retries.
    ``services`` maps each such service to the addresses that need it.
    """

    def __init__(self, message: str, services: dict[str, list[str]] | None = None) -> None:
        self.services = dict(services or {})
        super().__init__(message)


class UnsafeTargetError(ConvergeError):
    """A run would reach something other than the local emulator."""


@dataclass(frozen=True)
class Diagnostic:
    """One of terraform's error diagnostics, or a note the plugin puts before them, as data.

    ``text`` is what a failure shows (``summary: detail [address, file:line]``);
    ``address`` the resource it is about, as terraform names it (None: it names
    none); ``service`` and ``operation`` the API call it is about, where that is
    known (an emulator-gap note's call; the call an SDK error names); ``undecodable``
    that the provider's SDK could not decode the answer to that call (SDK v1 names
    only its service)::

        Diagnostic("creating EC2 VPC: operation error EC2: CreateVpc, ... [aws_vpc.main]",
                   address="aws_vpc.main", service="ec2", operation="CreateVpc")
    """

    text: str
    address: str | None = None
    service: str | None = None
    operation: str | None = None
    undecodable: bool = False

    def __str__(self) -> str:
        return self.text


class TerraformError(ConvergeError):
    """A terraform command failed.

    ``diagnostics`` holds terraform's own error messages as :class:`Diagnostic`
    records (text, address, operation), which is what the person fixing the module
    needs to see; the message is written from them when it is shown, so a note put
    before them (an emulator gap) is in it. A plain string given is a record with
    text only.
    """

    def __init__(
        self,
        command: str,
        returncode: int | None,
        diagnostics: Sequence[Diagnostic | str] = (),
        output: str = "",
        workdir: str = "",
    ) -> None:
        self.command = command
        self.returncode = returncode
        self.diagnostics = [d if isinstance(d, Diagnostic) else Diagnostic(d) for d in diagnostics]
        self.output = output
        self.workdir = workdir
        super().__init__(command, returncode)

    def __str__(self) -> str:
        return self._message()

    def _message(self) -> str:
        head = f"`{self.command}` failed (exit code {self.returncode})"
        if self.diagnostics:
            return head + ":\n" + "\n".join(f"  {d.text}" for d in self.diagnostics)
        tail = "\n".join(self.output.strip().splitlines()[-20:])
        return head + (":\n" + tail if tail else "")


class TerraformTimeout(TerraformError):
    """A terraform command did not finish within its timeout and was killed."""

    def __init__(
        self, command: str, timeout: float, pending: str = "", output: str = "", workdir: str = ""
    ) -> None:
        self.timeout = timeout
        self.pending = pending
        why = (
            f"; it was still waiting on {pending} (an API the emulator may not implement, "
            "or a resource that never became ready)"
            if pending
            else ""
        )
        super().__init__(
            command, None, [f"timed out after {timeout:.0f}s{why}"], output=output, workdir=workdir
        )


class TerraformStalled(TerraformTimeout):
    """A terraform command kept repeating one API call against the same answer, and was stopped.

    ``reason`` names the call (``emulator gap: dynamodb:DescribeTable answered the
    same ...``, ``refused egress to sts.us-east-1.amazonaws.com:443 ...``);
    ``seconds`` is how long the command ran before it was stopped.
    """

    def __init__(
        self,
        command: str,
        reason: str,
        seconds: float,
        pending: str = "",
        output: str = "",
        workdir: str = "",
    ) -> None:
        self.reason = reason
        self.timeout = seconds
        self.pending = pending
        waiting = f" (it was waiting on {pending})" if pending else ""
        TerraformError.__init__(
            self,
            command,
            None,
            [f"stopped after {seconds:.0f}s: {reason}{waiting}"],
            output=output,
            workdir=workdir,
        )


class FaultError(ConvergeError):
    """A fault is malformed, names an operation that never happens, or never fired."""


class ConvergenceError(ConvergeError, AssertionError):
    """The module does not converge; ``defects`` lists why, one record each."""

    def __init__(self, message: str, defects: Sequence[Defect] = ()) -> None:
        self.defects = list(defects)
        super().__init__(message)


class FaultPointsError(FaultError):
    """The clean apply that finds a module's fault points (or drift targets) failed."""


class WriterError(ConvergeError):
    """A loop writer's or console change's function raised."""


class LoopError(ConvergeError, ValueError):
    """A reconciliation loop was given a bad argument: ``alert`` or ``cycles`` below 1, a
    writer without a name or with a taken one, an unknown drift kind.

    Also a ``ValueError`` (what 0.1.0 raised), so existing handlers still catch it.
    """


class DefectError(ConvergeError, ValueError):
    """A ``Defect`` was made with an unknown kind, a malformed classification or an unknown
    severity (for example by a ``pytest_converge_classify_diff`` hook).

    Also a ``ValueError`` (what 0.1.0 raised), so existing handlers still catch it.
    """


class RevisionError(ConvergeError):
    """REF cannot be read from the module's repository (``--converge-upgrade-from``)."""


class PlanFileError(ConvergeError, ValueError):
    """A plan file given to the no-op plan gate (``--converge-plan``, :func:`explain_plan`)
    cannot be read as a plan: missing, not ``terraform show -json`` of a plan, a
    ``format_version`` of an unsupported major, or a binary plan with no terraform to read it.

    The message says what the file is and what to give instead. Also a ``ValueError``.
    """
