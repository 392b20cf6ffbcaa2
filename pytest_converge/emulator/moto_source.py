"""What moto's source mentions, service by service: which API members its backends read.

A member moto's code for a service never names (``OnDemandThroughput``, nor
``on_demand_throughput``, nor ``onDemandThroughput``) is one it never reads: a
value sent in it is dropped. :class:`SourceIndex` answers that from the words
of every ``.py`` file of the service's package (``moto/dynamodb/``), kept on
disk per moto version (``<cache>/moto-source/<version>/<package>.words``) and
built on first use (~0.05 s for EC2)::

    index = SourceIndex()
    index.package_of("application-autoscaling")      # 'applicationautoscaling'
    index.mentions("dynamodb", "OnDemandThroughput")  # False: moto 5.2.5 drops it
    index.mentions_value("ssm", "aws:ec2:image")       # True: moto's ssm knows the value

Extra source roots (by default the plugin's own ``emulator/fidelity/``, Python
modules that extend moto's backends) count too: a file there counts for a
package it imports (``from moto.dynamodb.models import ...``) or names in its
path (``fidelity/dynamodb.py``), so a member it handles is carried.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from ..storage import cache_dir

__all__ = ["FIDELITY", "SourceIndex", "moto_version", "normalise"]

#: The plugin's own extensions of moto (may not exist): an extra source root.
FIDELITY = Path(__file__).resolve().parent / "fidelity"

#: A name in code or text: ``on_demand_throughput``, ``OnDemandThroughput``, and
#: ``Cache-Control`` (a header, one word here as in botocore's wire names).
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_IMPORTS = re.compile(r"\bmoto\.([a-z0-9_]+)")


def normalise(name: str) -> str:
    """A name in one form whatever its case style: ``on_demand_throughput`` and
    ``OnDemandThroughput`` -> ``ondemandthroughput``."""
    return name.replace("_", "").replace("-", "").lower()


def moto_version() -> str | None:
    """The installed moto's version (None: not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("moto")
    except PackageNotFoundError:
        return None


class SourceIndex:
    """The words of moto's source per service package (see the module docstring).

    ``root`` is moto's package directory (default: the installed one);
    ``extra`` more source roots whose files count for the packages they use.
    """

    def __init__(
        self,
        root: Path | None = None,
        extra: Sequence[Path] = (FIDELITY,),
        version: str | None = None,
        cache: Path | None = None,
    ) -> None:
        self.root = root or _installed_root()
        self.version = version or (moto_version() if root is None else None)
        self.extra = [p for p in extra if p.is_dir()]
        self._cache = cache if cache is not None else cache_dir() / "moto-source"
        self._words: dict[str, frozenset[str]] = {}
        self._texts: dict[str, str] = {}

    def package_of(self, service: str, endpoint_prefix: str = "") -> str | None:
        """moto's package for botocore service ``service`` (None: moto has none).

        The package named as the service without dashes (``cognito-idp`` ->
        ``cognitoidp``), else the one moto's own ``backend_index`` routes the
        service's endpoint to (``lambda`` -> ``awslambda``). Services that share
        an endpoint (``elb`` and ``elbv2``) are told apart by the first rule.
        """
        if self.root is None:
            return None
        plain = service.replace("-", "")
        if (self.root / plain).is_dir():
            return plain
        host = f"https://{endpoint_prefix or service}.us-east-1.amazonaws.com"
        for package, pattern in _url_patterns(str(self.root)):
            if pattern.match(host) and (self.root / package).is_dir():
                return package
        return None

    def source_name(self, package: str) -> str:
        """``moto/dynamodb`` (the evidence names what was read)."""
        return f"moto/{package}"

    def mentions(self, package: str, member: str) -> bool:
        """The package's source (or an extra root's file for it) names ``member`` in any
        case style."""
        return normalise(member) in self._words_of(package)

    def mentions_value(self, package: str, value: str) -> bool:
        """``value`` is a string in the package's source or data files (``"TEXT"``,
        ``'aws:ec2:image'``), or in an extra root's file for it: a value moto knows."""
        if package not in self._texts:
            own = _files(self.root / package, (".py", ".json")) if self.root else []
            files = [*own, *self._extra_files(package)]
            self._texts[package] = "\n".join(_read(f) for f in files)
        return any(f"{quote}{value}{quote}" in self._texts[package] for quote in "\"'")

    def _words_of(self, package: str) -> frozenset[str]:
        if package not in self._words:
            words = set(self._moto_words(package))
            for path in self._extra_files(package):
                words.update(_words(_read(path)))
            self._words[package] = frozenset(words)
        return self._words[package]

    def _moto_words(self, package: str) -> frozenset[str]:
        """The words of moto's own package, from the cache when this version has them."""
        if self.root is None or not (self.root / package).is_dir():
            return frozenset()
        stored = self._cache / (self.version or "") / f"{package}.words"
        if self.version:
            try:
                return frozenset(stored.read_text().split())
            except OSError:
                pass
        words: set[str] = set()
        for path in _files(self.root / package, (".py",)):
            words.update(_words(_read(path)))
        if self.version:
            _write_atomically(stored, "\n".join(sorted(words)))
        return frozenset(words)

    def _extra_files(self, package: str) -> list[Path]:
        """The extra roots' files that count for ``package``."""
        found = []
        for root in self.extra:
            for path in _files(root, (".py",)):
                named = package in (p.removesuffix(".py") for p in path.relative_to(root).parts)
                if named or package in _IMPORTS.findall(_read(path)):
                    found.append(path)
        return found


def _installed_root() -> Path | None:
    spec = importlib.util.find_spec("moto")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@lru_cache(maxsize=4)
def _url_patterns(root: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """moto's ``backend_index.backend_url_patterns``, read without importing moto."""
    spec = importlib.util.spec_from_file_location(
        "converge_moto_backend_index", Path(root) / "backend_index.py"
    )
    if spec is None or spec.loader is None:
        return ()
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except (OSError, SyntaxError):
        return ()
    return tuple(getattr(module, "backend_url_patterns", ()))


def _files(root: Path, suffixes: tuple[str, ...]) -> Iterable[Path]:
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes and p.is_file())


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _words(text: str) -> set[str]:
    return {normalise(w) for w in _WORD.findall(text)}


def _write_atomically(path: Path, text: str) -> None:
    """Write ``path`` so that a concurrent reader (an xdist worker) never sees half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(path)
    except OSError:
        pass  # a read-only cache: the index is rebuilt next time
