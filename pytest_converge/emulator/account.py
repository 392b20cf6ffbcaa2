"""One account of a shared moto emulator: how stages stay apart on one emulator.

moto keeps a separate set of backends per account id and takes the id from
the ``x-moto-account-id`` request header. A Stack whose proxy adds that header
(``stack.proxy.extra_headers``) and whose emulator is an :class:`AccountView`
of the same id sees only its own account, in terraform runs and inventories.
"""

from __future__ import annotations

from typing import Any

from .base import Emulator

ACCOUNT_HEADER = "x-moto-account-id"


def stage_account(index: int) -> str:
    """A 12-digit account id for the ``index``-th stage (never moto's default one)."""
    return f"{100000000001 + index:012d}"


class AccountView(Emulator):
    """``emulator`` seen from account ``account_id``; starting and stopping stay with its owner.

    ``reset()`` empties the whole emulator, every account included (moto has
    no per-account reset).
    """

    def __init__(self, emulator: Emulator, account_id: str) -> None:
        self.inner = emulator
        self.account_id = account_id
        self.name = f"{emulator.name} (account {account_id})"
        self.region = emulator.region
        self.unsupported_services = getattr(emulator, "unsupported_services", frozenset())
        self.answers_unsupported = getattr(emulator, "answers_unsupported", False)

    @property
    def endpoint(self) -> str:
        return self.inner.endpoint

    @property
    def headers(self) -> list[tuple[str, str]]:
        return [(ACCOUNT_HEADER, self.account_id)]

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def reset(self) -> None:
        self.inner.reset()

    def is_alive(self) -> bool:
        return self.inner.is_alive()

    def client(self, service: str, region: str | None = None) -> Any:
        client = self.inner.client(service, region=region)
        account = self.account_id

        def add_header(request: Any, **_: Any) -> None:
            request.headers[ACCOUNT_HEADER] = account

        client.meta.events.register("before-sign", add_header)
        return client
