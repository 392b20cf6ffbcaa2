"""Write which AWS operations moto serves, per botocore service, to ``data/served/moto.json``.

Read from moto's own dispatch, not from its documentation: a request reaches
a service's response class through the ``url_paths`` of its ``urls.py``; a
path routed to ``<Response>.dispatch`` ends in ``BaseResponse.call_action``,
which calls the class's method named after the operation in snake_case
(``CreateCacheParameterGroup`` -> ``create_cache_parameter_group``), found
with moto's own ``method_names_from_class`` (EC2's mixins included). So an
operation of a botocore service is served when

* (query, json, ec2 protocols: the action is in the body or the
  ``X-Amz-Target`` header) a response class of that service has the method;
* (rest-json, rest-xml: the action is the HTTP method and path) its path
  also matches a ``url_paths`` entry routed to ``dispatch``;

and the method is more than a stub that raises ``NotImplementedError``.

A path routed to a handler of its own (S3's ``bucket_dispatch``, which reads
the HTTP method and query string) is ``unlisted``: served or not, the
handler's code says, not its name; a service whose every operation is so is
``whole`` (served, operations not listed). The fidelity layer
(``pytest_converge/emulator/fidelity``) is installed the way the moto server
installs it (loaded by path, never as ``pytest_converge``), and the
operations it adds (``graft``ed mixins, a service of its own) are listed
under ``fidelity``: a new behaviour is picked up by running this again::

    python scripts/served_operations.py            # rewrite the data file
    python scripts/served_operations.py --check    # exit 1 when it is stale

``tests/unit/test_served.py`` runs ``--check``.
"""

from __future__ import annotations

import argparse
import dis
import functools
import importlib
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import served_file

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pytest_converge"
DATA = PACKAGE / "data" / "served" / "moto.json"
FORMAT = served_file.FORMAT

#: botocore protocols whose operation moto reads from the path (the rest name it in
#: the body or a header, and any path of the service reaches the class).
_REST = ("rest-json", "rest-xml")
#: Sample values a path parameter is tried with, against moto's path regexes.
_SAMPLES = ("x", "1", "arn%3Aaws%3Asvc%3Aus-east-1%3A123456789012%3Athing%2Fx", "a-b.c")
#: moto modules in its URL index that are not AWS services.
_NOT_SERVICES = {"moto_api._internal", "instance_metadata"}


def _load_fidelity() -> Any:
    """The fidelity package, loaded by path as the moto server loads it."""
    init = PACKAGE / "emulator" / "fidelity" / "__init__.py"
    name = "converge_fidelity"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _handlers() -> Iterator[tuple[str, str, Any]]:
    """(moto module, path regex, handler) of every service moto routes requests to."""
    from moto.backend_index import backend_url_patterns

    for name in sorted({name for name, _ in backend_url_patterns} - _NOT_SERVICES):
        urls = importlib.import_module(f"moto.{name}.urls")
        for path, handler in urls.url_paths.items():
            yield name, path, handler


def _dispatching(handler: Any) -> list[type]:
    """The response classes a handler hands the request to ``dispatch`` of (none: a
    handler of its own). A plain function naming ``dispatch`` picks one of the classes
    it names (ELB's ``api_version_elb_backend``, by the ``Version`` parameter)."""
    from moto.core.responses import BaseResponse

    owner = getattr(handler, "__self__", None)
    if getattr(handler, "__name__", "") == "dispatch" and inspect.isclass(owner):
        return [owner] if issubclass(owner, BaseResponse) else []
    code = getattr(handler, "__code__", None)
    if code is None or "dispatch" not in code.co_names:
        return []
    found = (getattr(handler, "__globals__", {}).get(n) for n in code.co_names)
    return [c for c in found if inspect.isclass(c) and issubclass(c, BaseResponse)]


def _owner(handler: Any) -> type | None:
    """The response class a handler of its own belongs to (S3's ``S3Response``)."""
    owner = getattr(handler, "__self__", None)
    if inspect.isclass(owner):
        return owner
    qualname = getattr(handler, "__qualname__", "")
    module = sys.modules.get(getattr(handler, "__module__", "") or "")
    found = getattr(module, qualname.partition(".")[0], None) if "." in qualname else None
    return found if inspect.isclass(found) else None


def _methods(cls: type) -> set[str]:
    """The operation methods ``call_action`` finds on ``cls`` (moto's own lookup), less
    BaseResponse's machinery that no subclass overrides."""
    from moto.core.responses import BaseResponse
    from moto.core.utils import method_names_from_class

    base = set(method_names_from_class(BaseResponse))
    return {
        name
        for name in method_names_from_class(cls)
        if name not in base or getattr(cls, name) is not getattr(BaseResponse, name)
    }


def _finds(cls: type, methods: set[str], operation: str, paths: list[str]) -> str | None:
    """The method ``call_action`` reaches for ``operation``: named in snake_case, or,
    where the class reads the action from the path its own way (Batch takes the word
    after ``/v1/``: ``createcomputeenvironment``, ``tags``), the method that word names."""
    from moto.core.responses import BaseResponse
    from moto.core.utils import camelcase_to_underscores

    method = camelcase_to_underscores(operation)
    if method in methods:
        return method
    own = cls.__dict__.get("_get_action")
    if own is None or own is BaseResponse._get_action:
        return None
    for path in paths:
        reader = cls.__new__(cls)
        reader.uri = reader.path = path
        try:
            word = own(reader)
        except Exception:  # it reads more than the path (CloudFront's query string)
            return None
        if isinstance(word, str) and camelcase_to_underscores(word) in methods:
            return camelcase_to_underscores(word)
    return None


@functools.cache
def _stub(function: Any) -> bool:
    """A method that raises NotImplementedError on every path (moto's
    ``get_download_url_for_layer``): routed, and still not served. Read from its
    bytecode: it names the exception and has no return, not even the implicit one."""
    code = getattr(function, "__code__", None)
    if code is None or "NotImplementedError" not in code.co_names:
        return False
    return not any(i.opname.startswith("RETURN") for i in dis.get_instructions(code))


@functools.cache
def _service_name(cls: type) -> str | None:
    try:
        return str(cls().boto3_service_name)
    except Exception:
        return None


def _path_regex(path: str) -> re.Pattern[str]:
    """A ``url_paths`` key as the path the moto server's routing matches (``{0}`` is
    the host part, already matched; a trailing ``/?`` or ``$`` is werkzeug's)."""
    text = path.replace("{0}", "", 1)
    text = text.removesuffix("$")
    if text.endswith("/?"):
        text = text[:-2]
    return re.compile(text.rstrip("/") or "/")


def _sample_paths(request_uri: str) -> list[str]:
    """``/2015-02-01/file-systems/{FileSystemId}/backup-policy`` with each sample value."""
    path = request_uri.partition("?")[0]
    found = []
    for sample in _SAMPLES:
        text = re.sub(r"\{[^}]+\+\}", f"{sample}/{sample}", path)
        found.append(re.sub(r"\{[^}]+\}", sample, text).rstrip("/") or "/")
    return found


def _matches(regex: re.Pattern[str], paths: list[str]) -> bool:
    return any(regex.fullmatch(p) or regex.fullmatch(p + "/") for p in paths)


@functools.cache
def _loader() -> Any:
    # botocore's data files, no Session: an AWS_PROFILE the user config lacks breaks one.
    import botocore.loaders

    return botocore.loaders.create_loader()


@functools.cache
def _model(service: str) -> Any:
    return _loader().load_service_model(service, "service-2")


def analyse() -> dict[str, dict[str, Any]]:
    """botocore service -> ``{"operations", "unlisted", "whole"}`` as moto routes them now."""

    available = set(_loader().list_available_services("service-2"))

    # botocore service -> [(path regex, class)] routed to dispatch, and the paths of
    # handlers of their own: counted for the moto module's service and the handler's
    # class's (``es``'s 2015 paths are ES's; S3's handlers are S3's), not every service
    # whose host the module's URL pattern happens to match (``s3-outposts``).
    squeezed = {name.replace("-", ""): name for name in available}
    routed: dict[str, list[tuple[re.Pattern[str], type]]] = {}
    own: dict[str, list[re.Pattern[str]]] = {}
    for module, path, handler in _handlers():
        classes = _dispatching(handler)
        for cls in classes:
            service = _service_name(cls)
            if service is not None and service in available:
                routed.setdefault(service, []).append((_path_regex(path), cls))
        owner = _owner(handler) if not classes else None
        if owner is not None:
            for service in {squeezed.get(module), _service_name(owner)} & available:
                own.setdefault(service, []).append(_path_regex(path))

    found: dict[str, dict[str, Any]] = {}
    for service in sorted(routed.keys() | own.keys()):
        model = _model(service)
        custom = own.get(service, [])
        routes = routed.get(service, [])
        methods = {cls: _methods(cls) for _, cls in routes}
        rest = model["metadata"].get("protocol") in _REST
        served, unlisted = [], []
        for operation, spec in sorted(model["operations"].items()):
            paths = _sample_paths(spec.get("http", {}).get("requestUri", "/"))
            if any(
                (method := _finds(cls, methods[cls], operation, paths)) is not None
                and not _stub(getattr(cls, method))
                and (not rest or _matches(regex, paths))
                for regex, cls in routes
            ):
                served.append(operation)
            elif rest and any(_matches(regex, paths) for regex in custom):
                unlisted.append(operation)
        if not served and not unlisted:
            continue
        whole = not served and len(unlisted) == len(model["operations"])
        found[service] = {"operations": served, "unlisted": [] if whole else unlisted}
        if whole:
            found[service]["whole"] = True
    return found


def build() -> dict[str, Any]:
    """The data file's content: moto alone, then with the fidelity layer installed."""
    return served_file.build("moto", analyse, lambda: _load_fidelity().install(off=()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    parser.add_argument("--output", type=Path, default=DATA)
    args = parser.parse_args(argv)
    # moto reads the user's AWS config at backend import: none of it belongs here.
    for name in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE"):
        os.environ.pop(name, None)
    return served_file.write_or_check(
        served_file.render(build()), args.output, args.check, __file__
    )


if __name__ == "__main__":
    sys.exit(main())
