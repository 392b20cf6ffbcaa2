"""AWS emulator backends: moto (embedded, default) and LocalStack."""

from __future__ import annotations

from .base import DEFAULT_REGION, FAKE_ACCESS_KEY, FAKE_SECRET_KEY, Emulator
from .moto import MotoEmulator

__all__ = ["DEFAULT_REGION", "FAKE_ACCESS_KEY", "FAKE_SECRET_KEY", "Emulator", "MotoEmulator"]
