"""The providers a user's own Terraform would use: their CLI config, read and honoured.

Real terraform inits against the configs the plugin writes; nothing reaches a
network (the "network mirror" is a closed loopback port).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_converge.errors import ToolchainError
from pytest_converge.isolation.safety import terraform_env
from pytest_converge.terraform.toolchain import bundled_provider_zips, resolve_toolchain
from pytest_converge.terraform.workspace import Templates

AWS = "registry.terraform.io/hashicorp/aws"
#: The aws 5.100.0 build these machines hold, unpacked in a filesystem-mirror layout.
AWS5_MIRROR = Path(os.environ.get("CONVERGE_AWS5_MIRROR", "/opt/tf-plugins"))
needs_aws5 = pytest.mark.skipif(
    not (AWS5_MIRROR / "registry.terraform.io/hashicorp/aws/5.100.0").is_dir(),
    reason=f"no aws 5.100.0 filesystem mirror at {AWS5_MIRROR}",
)


def user_config(tmp_path: Path, text: str) -> dict[str, str]:
    """An environment whose TF_CLI_CONFIG_FILE holds ``text`` (and nothing else of the user's)."""
    rc = tmp_path / "user.tfrc"
    rc.write_text(text)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "TF_CLI_CONFIG_FILE": str(rc), "HOME": str(home)}


def module(tmp_path: Path, constraint: str | None, body: str = "") -> Path:
    path = tmp_path / "mod"
    path.mkdir()
    version = f'\n      version = "{constraint}"' if constraint else ""
    (path / "main.tf").write_text(
        "terraform {\n  required_providers {\n    aws = {\n"
        f'      source = "hashicorp/aws"{version}\n    }}\n  }}\n}}\n'
        'provider "aws" {\n  region = "us-east-1"\n}\n' + body
    )
    return path


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@needs_aws5
def test_a_module_without_a_constraint_gets_the_newest_version_of_all_sources(tmp_path):
    """The user's terraform sees only 5.100.0; ours sees it beside the bundled 2.70/3.39
    and, like terraform over several sources, picks the newest."""
    env = user_config(
        tmp_path,
        f'provider_installation {{\n  filesystem_mirror {{\n    path = "{AWS5_MIRROR}"\n  }}\n}}\n',
    )
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    template = Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, None))
    assert template.providers == {AWS: "5.100.0"}
    assert template.schema is not None and template.schema.version == "5.100.0"


def test_without_a_user_mirror_the_bundled_provider_is_used(tmp_path):
    """The suite's modules have no version pins: with no user config naming another
    mirror, they keep running on the bundled 3.39.0 (TF_CLI_CONFIG_FILE names a
    missing file here, as on these machines)."""
    env = {**os.environ, "TF_CLI_CONFIG_FILE": str(tmp_path / "missing.tfrc")}
    env["HOME"] = str(tmp_path)
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    assert toolchain.user_config.missing == tmp_path / "missing.tfrc"
    template = Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, None))
    assert template.providers == {AWS: "3.39.0"}


def test_a_plugin_cache_credentials_and_hosts_of_the_user_config_are_honoured(tmp_path):
    cache = tmp_path / "user-cache"
    cache.mkdir()
    port = closed_port()
    env = user_config(
        tmp_path,
        f'plugin_cache_dir = "{cache}"\n'
        'credentials "app.terraform.io" {\n  token = "xxxx.atlasv1.yyyy"\n}\n'
        f'host "registry.corp.test" {{\n  services = {{\n'
        f'    "modules.v1" = "https://127.0.0.1:{port}/modules/"\n  }}\n}}\n',
    )
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    assert toolchain.plugin_cache == cache
    text = toolchain.cli_config.read_text()
    assert 'token = "xxxx.atlasv1.yyyy"' in text and "registry.corp.test" in text
    # terraform reads the config we wrote without a complaint ...
    version = subprocess.run(
        [*toolchain.command, "version"],
        env=terraform_env(toolchain.cli_config, tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert version.returncode == 0
    assert "problems with the CLI configuration" not in version.stdout + version.stderr
    # ... and installs into the user's plugin cache.
    template = Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, None))
    assert template.provider is not None and cache in template.provider.parents


def test_a_registry_module_is_looked_up_where_the_host_block_says(tmp_path):
    """A `host` block (service discovery of a private registry) is carried: init asks
    the address it names (a closed loopback port), not the real host."""
    port = closed_port()
    env = user_config(
        tmp_path,
        f'host "registry.corp.test" {{\n  services = {{\n'
        f'    "modules.v1" = "https://127.0.0.1:{port}/modules/"\n  }}\n}}\n',
    )
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    mod = module(
        tmp_path, None, 'module "net" {\n  source  = "registry.corp.test/corp/net/aws"\n}\n'
    )
    with pytest.raises(Exception, match=f"127.0.0.1:{port}"):
        Templates(toolchain, tmp_path / "t", cache=False).get(mod)


def test_an_init_failure_lists_every_source_and_the_constraint(tmp_path):
    """A network mirror of the user's config is asked (and named) only for what no
    local mirror holds; when nothing has the version, the error says what each
    source offered."""
    port = closed_port()
    mirror = f"https://127.0.0.1:{port}/providers/"
    env = user_config(
        tmp_path, f'provider_installation {{\n  network_mirror {{\n    url = "{mirror}"\n  }}\n}}\n'
    )
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    first, fallback = toolchain.cli_config.read_text(), toolchain.direct_config.read_text()
    assert mirror in first and f'exclude = ["{AWS}"]' in first  # on disk: not asked
    assert mirror in fallback and "exclude" not in fallback
    with pytest.raises(ToolchainError) as failure:
        Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, "= 9.9.9"))
    text = str(failure.value)
    assert 'could not install hashicorp/aws; the module asks for "= 9.9.9" (main.tf:5)' in text
    assert f"  - network_mirror {mirror}, from {env['TF_CLI_CONFIG_FILE']}:2: asked over" in text
    assert "  - the offline mirror has: 2.70.0, 3.39.0" in text
    assert f"127.0.0.1:{port}" in text.split("terraform said:")[1]  # terraform's own words


@needs_aws5
def test_an_init_failure_names_a_symlinked_version_directory_terraform_skips(tmp_path):
    """An unpacked mirror lists the versions terraform finds in it; a version directory
    that is a symlink terraform does not follow (it answers "no available releases
    match"), and the error says so, with the fix. Linking the TARGET directory works."""
    version_dir = AWS5_MIRROR / AWS / "5.100.0"
    linked = tmp_path / "mirror" / AWS
    linked.mkdir(parents=True)
    (linked / "5.100.0").symlink_to(version_dir)
    [bundled] = [z for z in bundled_provider_zips() if "_3.39.0_" in z.name]
    (linked / bundled.name).symlink_to(bundled)  # a linked zip is fine
    env = user_config(
        tmp_path,
        f'provider_installation {{\n  filesystem_mirror {{\n    path = "{tmp_path / "mirror"}"'
        "\n  }\n}\n",
    )
    toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
    with pytest.raises(ToolchainError) as failure:
        Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, "~> 5.0"))
    text = str(failure.value)
    assert (
        f"  - filesystem_mirror {tmp_path / 'mirror'}, from {env['TF_CLI_CONFIG_FILE']}:2: "
        "3.39.0; terraform does not follow "
        "a symlinked directory in a filesystem mirror (registry.terraform.io/hashicorp/aws/"
        f"5.100.0 -> {version_dir.resolve()}): make it a real directory" in text
    )
    assert "no available releases match" in text.split("terraform said:")[1]
    # The fix it names: a real version directory, its TARGET directory a link.
    (linked / "5.100.0").unlink()
    (linked / "5.100.0").mkdir()
    (linked / "5.100.0" / "linux_amd64").symlink_to(version_dir / "linux_amd64")
    fixed = resolve_toolchain(root=tmp_path / "cache2", environ=env)
    (tmp_path / "b").mkdir()
    template = Templates(fixed, tmp_path / "t2", cache=False).get(module(tmp_path / "b", "~> 5.0"))
    assert template.providers == {AWS: "5.100.0"}


@needs_aws5
def test_converge_runs_on_the_provider_of_the_user_config(tmp_path):
    """Done when: a user CLI config with a filesystem mirror of aws 5.100.0 (and nothing
    else) makes `pytest --converge ROOT` use 5.100.0, and the report says so."""
    root = tmp_path / "root"
    root.mkdir()
    mod = module(root, "~> 5.0", 'resource "aws_vpc" "main" {\n  cidr_block = "10.9.0.0/16"\n}\n')
    env = user_config(
        tmp_path,
        f'provider_installation {{\n  filesystem_mirror {{\n    path = "{AWS5_MIRROR}"\n  }}\n}}\n',
    )
    env["CONVERGE_CACHE_DIR"] = os.environ.get("CONVERGE_CACHE_DIR") or str(tmp_path / "cache")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            "--converge",
            str(mod.relative_to(root)),
            "--converge-faults",
            "none",
            "--converge-report",
            "out.json",
            "--converge-sarif",
            "out.sarif",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads((root / "out.json").read_text())
    assert report["toolchains"]["mod"]["providers"] == {AWS: "5.100.0"}
    assert report["toolchains"]["mod"]["engine"]["flavor"] in ("terraform", "tofu", "bundled")
    sarif = json.loads((root / "out.sarif").read_text())
    assert sarif["runs"][0]["properties"]["toolchains"]["mod"]["providers"] == {AWS: "5.100.0"}


@needs_aws5
def test_converge_provider_mirror_adds_a_mirror_beside_the_user_sources(tmp_path):
    env = {
        **os.environ,
        "TF_CLI_CONFIG_FILE": str(tmp_path / "missing.tfrc"),
        "HOME": str(tmp_path),
    }
    toolchain = resolve_toolchain(root=tmp_path / "cache", provider_mirror=AWS5_MIRROR, environ=env)
    assert [s.origin for s in toolchain.sources] == [
        "implied",
        "--converge-provider-mirror",
        "bundled",
    ]
    template = Templates(toolchain, tmp_path / "t", cache=False).get(module(tmp_path, "= 5.100.0"))
    assert template.providers == {AWS: "5.100.0"}
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ToolchainError, match="a file, not a directory"):
        resolve_toolchain(root=tmp_path / "cache", provider_mirror=tmp_path / "a-file", environ=env)


def _self_signed(where: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (the certificate is its own CA)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = where / "cert.pem", where / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


def test_a_network_mirror_installs_what_no_local_mirror_holds(tmp_path, monkeypatch):
    """A loopback HTTPS network mirror (self-signed, trusted through SSL_CERT_FILE)
    offering aws "2.70.1": the local-first init finds no such version on disk, the
    second init asks the user's network mirror and installs from it. A module the
    bundled provider satisfies never asks it."""
    import http.server
    import ssl
    import threading

    from pytest_converge.terraform.toolchain import bundled_provider_zips

    zips = [z for z in bundled_provider_zips() if "_2.70.0_" in z.name]
    if not zips:
        pytest.skip("the bundled aws 2.70.0 zip (offline extra) is not installed")
    served = {
        "/registry.terraform.io/hashicorp/aws/index.json": json.dumps(
            {"versions": {"2.70.1": {}}}
        ).encode(),
        "/registry.terraform.io/hashicorp/aws/2.70.1.json": json.dumps(
            {"archives": {"linux_amd64": {"url": "aws.zip"}}}
        ).encode(),
        "/registry.terraform.io/hashicorp/aws/aws.zip": zips[0].read_bytes(),
    }
    asked: list[str] = []

    class Mirror(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            body = served.get(self.path)
            self.send_response(200 if body is not None else 404)
            kind = "application/zip" if self.path.endswith(".zip") else "application/json"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            pass

    cert, key = _self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Mirror)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # terraform (Go) trusts it from here
    try:
        url = f"https://127.0.0.1:{server.server_address[1]}/"
        env = user_config(
            tmp_path,
            f'provider_installation {{\n  network_mirror {{\n    url = "{url}"\n  }}\n}}\n',
        )
        toolchain = resolve_toolchain(root=tmp_path / "cache", environ=env)
        templates = Templates(toolchain, tmp_path / "t", cache=False)
        # A provider on disk: the network mirror is not asked at all (offline-safe).
        (tmp_path / "local").mkdir()
        local = templates.get(module(tmp_path / "local", None))
        assert local.providers == {AWS: "3.39.0"} and asked == []
        template = templates.get(module(tmp_path, "= 2.70.1"))
    finally:
        server.shutdown()
        server.server_close()
    assert template.providers == {AWS: "2.70.1"}
    assert "/registry.terraform.io/hashicorp/aws/aws.zip" in asked
