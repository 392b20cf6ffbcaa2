"""What moto's source mentions, service by service: which API members its backends read.

A member moto's code for a service never names (``OnDemandThroughput``, nor
``on_demand_throughput``, nor ``onDemandThroughput``) is one it never reads: a
value sent in it is dropped. :class:`SourceIndex` answers that from the words
of every ``.py`` file of the service's package (``moto/dynamodb/``), kept on
disk per moto version (``<cache>/moto-source/<version>/<package>.words``) and
built on first use (~0.05 s for EC2)::

    index = SourceIndex()
    index.package_of("application-autoscaling")      # 'applicationautoscaling'
    index.mentions("dynamodb", "OnDemandThroughput")  # False: moto 5.2 drops it
    index.mentions_value("ssm", "aws:ec2:image")       # True: moto's ssm knows the value

A member the service reads somewhere may still be missing from one operation's
answer: moto's EC2 knows ``EnclaveOptions`` for launch templates, and its
DescribeInstances answer has none. :meth:`SourceIndex.response_mentions` reads only
the code that builds that operation's answer: the responses method of the
operation, the templates and package functions it names (two calls deep), and the
classes named after the output shapes its objects are serialised from::

    index.response_mentions("ec2", "DescribeInstances", "EnclaveOptions", ["Instance"])
    # False: moto 5.2 never renders it; None: the answer's code was not found
    index.implements("sqs", "CreateQueue")             # True: moto dispatches it

Extra source roots (by default the plugin's own ``emulator/fidelity/``, Python
modules that extend moto's backends) count too: a file there counts for a
package it imports (``from moto.dynamodb.models import ...``) or names in its
path (``fidelity/dynamodb.py``), so a member it handles is carried.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from ..awsapi.model import endpoint_prefix, known_service, operation_http, protocol
from ..awsapi.operations import signing_as
from ..storage import cache_dir
from .served import served

__all__ = ["FIDELITY", "SourceIndex", "implements", "moto_version", "normalise", "snake"]

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


def snake(operation: str) -> str:
    """moto's method name of an operation, as botocore's ``xform_name`` makes it:
    ``DescribeInstances`` -> ``describe_instances``, ``CreateDBInstance`` ->
    ``create_db_instance``."""
    from botocore import xform_name

    return str(xform_name(operation))


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
        #: (package, value) -> :meth:`mentions_value`'s answer (a search of megabytes each).
        self._values: dict[tuple[str, str], bool] = {}
        self._code: dict[str, _Code] = {}

    def package_of(self, service: str, endpoint_prefix: str = "") -> str | None:
        """moto's package for botocore service ``service`` (None: moto has none).

        The package named as the service without dashes (``cognito-idp`` ->
        ``cognitoidp``), else the one moto's own ``backend_index`` routes the
        service's endpoint to (``lambda`` -> ``awslambda``). Services that share
        an endpoint (``elb`` and ``elbv2``) are told apart by the first rule.
        """
        plain = service.replace("-", "")
        if any((root / plain).is_dir() for root in self.extra):
            return plain  # a service the extra roots add, laid out as moto's (outposts)
        if self.root is None:
            return None
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
        known = self._values.get((package, value))
        if known is not None:
            return known
        if package not in self._texts:
            own = _files(self.root / package, (".py", ".json")) if self.root else []
            files = [*own, *self._extra_files(package)]
            self._texts[package] = "\n".join(_read(f) for f in files)
        found = any(f"{quote}{value}{quote}" in self._texts[package] for quote in "\"'")
        self._values[(package, value)] = found
        return found

    def response_mentions(
        self,
        package: str,
        operation: str,
        member: str,
        parents: Sequence[str] = (),
        aliases: Sequence[str] = (),
    ) -> bool | None:
        """The code that builds ``operation``'s answer names ``member``; None when that
        code is not found (moto has no responses method for it, or the answer is built
        from objects of classes not named after ``parents``, the output shapes that
        hold the member: ``Reservation``, ``Instance``).

        A template or a method that builds the answer names every member it renders;
        an answer serialised from the output shape (``ActionResult``) reads the member
        as an attribute of the object, so the class of that object names it, by the
        member's name, one of ``aliases`` (its shape's name, its name on the wire) or
        the name without the holder's prefix (``Identifier`` of ``DBInstance``), as
        moto's serialiser looks it up. A member an extra root's file for the package
        names (the fidelity layer) is carried."""
        wanted = normalise(member)
        if wanted in self._extra_words(package):
            return True  # an extension of moto (the fidelity layer) handles it
        code = self._code_of(package)
        method = snake(operation)
        if method not in code.responses:
            return None
        words, templated = code.answer_words(method)
        # Only the class of the object that holds the member can have it: a holder with
        # no class of its own (a dict kept as it was sent) cannot be read from here.
        holder = parents[-1] if parents else ""
        classes = [code.classes[c] for c in (holder, *code.bases_of(holder)) if c in code.classes]
        if any(_DYNAMIC in c for c in classes):
            classes = []  # attributes set by name at run time: not told from the text
        if wanted in words:
            return True
        names = {wanted, *(normalise(a) for a in aliases)}
        if holder and wanted.startswith(normalise(holder)):
            names.add(wanted[len(normalise(holder)) :])
        names.discard("")
        if any(names & c for c in classes):
            return True
        if templated or classes:
            return False
        return None  # built elsewhere (a model's to_dict()): not known from here

    def responds_to(self, package: str, operation: str) -> bool:
        """moto's responses classes for ``package`` have the operation's method."""
        return snake(operation) in self._code_of(package).responses

    def url_paths(self, package: str) -> tuple[tuple[str, bool], ...]:
        """The url patterns of moto's ``<package>/urls.py`` (``{0}`` the base url), each
        with whether its handler is the generic ``dispatch``."""
        return self._code_of(package).urls

    def _code_of(self, package: str) -> _Code:
        """moto's code for ``package``, with the extra roots' code for it (the fidelity
        layer's grafted responses, or a whole service it adds)."""
        if package not in self._code:
            code = self._moto_code(package)
            extra = self._extra_files(package)
            if extra:
                code = code.joined(_Code.read_files(extra, extension=True))
            self._code[package] = code
        return self._code[package]

    def _moto_code(self, package: str) -> _Code:
        """The code index of moto's own package, from the cache when this version has it."""
        if self.root is None or not (self.root / package).is_dir():
            return _Code()
        stored = self._cache / (self.version or "") / f"{package}.code.json"
        if self.version:
            try:
                return _Code.from_json(json.loads(stored.read_text()))
            except (OSError, ValueError, KeyError, TypeError):
                pass
        code = _Code.read(self.root / package)
        if self.version:
            _write_atomically(stored, json.dumps(code.to_json()))
        return code

    def _extra_words(self, package: str) -> frozenset[str]:
        """The words of the extra roots' files that count for ``package``."""
        key = f"extra:{package}"
        if key not in self._words:
            words: set[str] = set()
            for path in self._extra_files(package):
                words.update(_words(_read(path)))
            self._words[key] = frozenset(words)
        return self._words[key]

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


#: A class that sets attributes by name (``setattr(self, key, value)``) may hold any member.
_DYNAMIC = normalise("setattr")
#: How many calls deep the code of an answer is followed from its responses method.
_CALL_DEPTH = 2


class _Code:
    """One moto package's code by name: what each function, template and class names.

    ``functions``: a function or method name -> the words of its body and the names it
    uses (every definition of that name in the package, merged); ``constants``: a
    module-level string or concatenation (a response template) -> its words and names;
    ``classes``: a class name -> the words of its body; ``bases`` its base classes;
    ``responses``: the methods of the package's responses modules; ``urls``: the
    keys of ``url_paths`` in ``urls.py``.
    """

    def __init__(self) -> None:
        self.functions: dict[str, tuple[set[str], set[str]]] = {}
        self.constants: dict[str, tuple[set[str], set[str]]] = {}
        self.classes: dict[str, set[str]] = {}
        self.bases: dict[str, list[str]] = {}
        self.responses: set[str] = set()
        self.urls: tuple[tuple[str, bool], ...] = ()

    @classmethod
    def read(cls, root: Path) -> _Code:
        """The code of one moto package directory."""
        return cls.read_files(_files(root, (".py",)))

    @classmethod
    def read_files(cls, paths: Iterable[Path], extension: bool = False) -> _Code:
        """The code of these files; ``extension``: files that extend moto, whose
        ``*Response`` classes are grafted onto moto's responses (:func:`.fidelity.graft`)."""
        code = cls()
        for path in paths:
            text = _read(path)
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            is_responses = path.stem.startswith("responses") or path.parent.name == "responses"
            code._add(tree, _Lines(text), is_responses, extension)
            if path.name == "urls.py":
                code.urls += _url_keys(tree)
        return code

    def joined(self, other: _Code) -> _Code:
        """One index of this code and ``other``'s."""
        code = _Code()
        for table in ("functions", "constants"):
            mine, theirs = getattr(self, table), getattr(other, table)
            merged = getattr(code, table)
            for name in {*mine, *theirs}:
                words, names = set(), set()
                for part in (mine.get(name), theirs.get(name)):
                    if part is not None:
                        words |= part[0]
                        names |= part[1]
                merged[name] = (words, names)
        code.classes = {k: set(v) for k, v in self.classes.items()}
        for k, v in other.classes.items():
            code.classes.setdefault(k, set()).update(v)
        code.bases = {k: list(b) for k, b in self.bases.items()}
        for k, more in other.bases.items():
            code.bases.setdefault(k, []).extend(more)
        code.responses = self.responses | other.responses
        code.urls = self.urls + other.urls
        return code

    def _add(
        self, tree: ast.Module, text: _Lines, is_responses: bool, extension: bool = False
    ) -> None:
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and _is_text(node.value):
                assert node.value is not None
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        self._merge(self.constants, target.id, node.value, text)
            elif isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, set()).update(_words(text.of(node)))
                self.bases.setdefault(node.name, []).extend(
                    b.id for b in node.bases if isinstance(b, ast.Name)
                )
        for sub in ast.walk(tree):
            if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                self._merge(self.functions, sub.name, sub, text)
        for node in tree.body:
            grafted = (
                extension and isinstance(node, ast.ClassDef) and node.name.endswith("Response")
            )
            if isinstance(node, ast.ClassDef) and (is_responses or grafted):
                self.responses.update(
                    n.name
                    for n in node.body
                    if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
                )

    @staticmethod
    def _merge(
        into: dict[str, tuple[set[str], set[str]]], name: str, node: ast.AST, text: _Lines
    ) -> None:
        words, names = into.setdefault(name, (set(), set()))
        words.update(_words(text.of(node)))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                names.add(sub.attr)

    def answer_words(self, method: str) -> tuple[set[str], bool]:
        """The words of the code that builds ``method``'s answer, and whether a template
        (a module-level text) is part of it."""
        words: set[str] = set()
        templated = False
        seen: set[str] = set()
        todo = [(method, 0)]
        while todo:
            name, depth = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in self.constants:
                templated = True
                found, names = self.constants[name]
                words |= found
                todo.extend((n, depth) for n in names)
            elif name in self.functions and depth <= _CALL_DEPTH:
                found, names = self.functions[name]
                words |= found
                todo.extend((n, depth + 1) for n in names)
        return words, templated

    def bases_of(self, name: str) -> list[str]:
        """The package's own base classes of class ``name``, at any depth."""
        found: list[str] = []
        todo = list(self.bases.get(name, ()))
        while todo:
            base = todo.pop()
            if base in self.classes and base not in found:
                found.append(base)
                todo.extend(self.bases.get(base, ()))
        return found

    def to_json(self) -> dict[str, object]:
        return {
            "functions": {k: [sorted(w), sorted(n)] for k, (w, n) in self.functions.items()},
            "constants": {k: [sorted(w), sorted(n)] for k, (w, n) in self.constants.items()},
            "classes": {k: sorted(v) for k, v in self.classes.items()},
            "bases": self.bases,
            "responses": sorted(self.responses),
            "urls": [list(u) for u in self.urls],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> _Code:
        code = cls()
        for key in ("functions", "constants"):
            table = data[key]
            assert isinstance(table, dict)
            getattr(code, key).update({k: (set(w), set(n)) for k, (w, n) in table.items()})
        classes, bases = data["classes"], data["bases"]
        assert isinstance(classes, dict) and isinstance(bases, dict)
        code.classes = {k: set(v) for k, v in classes.items()}
        code.bases = {k: list(v) for k, v in bases.items()}
        code.responses = set(data["responses"])  # type: ignore[call-overload]
        code.urls = tuple((str(k), bool(g)) for k, g in data["urls"])  # type: ignore[attr-defined]
        return code


class _Lines:
    """A file's text by line, to cut a node's source out of it (``ast.get_source_segment``
    splits the whole text again for every node)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def of(self, node: ast.AST) -> str:
        start = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None) or start
        if start is None:
            return ""
        return "\n".join(self.lines[start - 1 : end])


def _is_text(node: ast.AST | None) -> bool:
    """A string literal, or texts joined with ``+`` (a template built of parts)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left) or _is_text(node.right)
    return False


def _url_keys(tree: ast.Module) -> tuple[tuple[str, bool], ...]:
    """The string keys of ``url_paths = {...}`` in a moto ``urls.py``, each with whether
    its handler is the generic ``dispatch`` (which calls the method named after the
    operation) rather than a handler of its own."""
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Dict):
            continue
        if any(isinstance(t, ast.Name) and t.id == "url_paths" for t in node.targets):
            return tuple(
                (k.value, isinstance(v, ast.Attribute) and v.attr == "dispatch")
                for k, v in zip(node.value.keys, node.value.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            )
    return ()


def implements(service: str, operation: str) -> bool | None:
    """moto serves ``service``'s ``operation`` (botocore's names): True when it has code
    for it, False when it has none, None when its dispatch cannot tell from here.

    A query or JSON service dispatches to its responses method named after the
    operation (``create_queue``); a REST service's request reaches moto only through
    a url pattern of its ``urls.py`` that matches the operation's path, then that
    method (a handler of its own, as S3's, cannot be told: None). The one place the
    question is answered: the served-operations data (``data/served/moto.json``, from
    moto's dispatch tables and the fidelity layer) first, this index where the data
    knows nothing of the service. ``service`` may be the signing name a call carries
    (``elasticfilesystem`` is botocore's ``efs``)."""
    service = _botocore_service(service, operation)
    answer = served("moto").serves(service, operation)
    return answer if answer is not None else _implements(service, operation)


def _botocore_service(service: str, operation: str) -> str:
    """The botocore service of ``service``'s ``operation``: its namesake, else the one
    signing as it that has the operation (``elasticfilesystem``, ``CreateMountTarget``
    -> ``efs``; ``apigateway``, ``CreateApi`` -> ``apigatewayv2``)."""
    for candidate in (service, *signing_as(service)):
        if known_service(candidate) and operation_http(candidate, operation) is not None:
            return candidate
    return service


@lru_cache(maxsize=256)
def _implements(service: str, operation: str) -> bool | None:
    if not known_service(service):
        return None  # a name botocore does not know (a signing name): cannot tell
    index = _index()
    package = index.package_of(service, endpoint_prefix(service))
    if package is None:
        return False
    has_method = index.responds_to(package, operation)
    if protocol(service) not in ("rest-json", "rest-xml"):
        return has_method
    http = operation_http(service, operation)
    if http is None:
        return None
    path = _sample_path(str(http.get("requestUri", "/")))
    matched = [generic for key, generic in index.url_paths(package) if _url_matches(key, path)]
    if not matched:
        return False if index.url_paths(package) else None
    if has_method or all(matched):
        return has_method
    return None  # a handler of its own may serve it


@lru_cache(maxsize=1)
def _index() -> SourceIndex:
    return SourceIndex()


def _sample_path(template: str) -> str:
    """A path ``template`` (``/2015-03-31/functions/{FunctionName}/concurrency?x``) with
    its labels filled in: ``/2015-03-31/functions/x1/concurrency``."""
    path = template.split("?", 1)[0]
    path = re.sub(r"\{[^}]+\+\}", "x1/x2", path)
    return re.sub(r"\{[^}]+\}", "x1", path)


def _url_matches(key: str, path: str) -> bool:
    """A moto url pattern (``{0}/2015-03-31/functions/(?P<name>[^/]+)/?$``) matches
    ``path`` (its base url left out)."""
    pattern = key.replace("{0}", "", 1)
    # werkzeug's form, as some urls.py write it: <name>, <path:name>
    pattern = re.sub(r"(?<!\?P)<path:[^>]+>", ".+", pattern)
    pattern = re.sub(r"(?<!\?P)<[^>]+>", "[^/]+", pattern)
    if not pattern.endswith("$"):
        pattern += "/?$"
    try:
        return re.match(pattern if pattern.startswith("^") else f"^{pattern}", path) is not None
    except re.error:
        return False


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
