"""The user's CLI config read as terraform reads it, and the config every run gets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_converge.errors import ToolchainError
from pytest_converge.terraform.cliconfig import (
    CliConfig,
    Source,
    check_mirror,
    current_platform,
    install_failure,
    local_first,
    matches,
    providers_on_disk,
    read_cli_config,
    render,
    unfollowed_links,
    write_config,
)
from pytest_converge.terraform.hcl import parse_config

AWS = "registry.terraform.io/hashicorp/aws"
HERE = current_platform()


def packed(mirror: Path, version: str, type_: str = "aws", target: str = HERE) -> Path:
    path = mirror / "registry.terraform.io" / "hashicorp" / type_
    path.mkdir(parents=True, exist_ok=True)
    zip_file = path / f"terraform-provider-{type_}_{version}_{target}.zip"
    zip_file.write_bytes(b"PK")
    return mirror


def unpacked(mirror: Path, version: str, type_: str = "aws", target: str = HERE) -> Path:
    path = mirror / "registry.terraform.io" / "hashicorp" / type_ / version / target
    path.mkdir(parents=True)
    (path / f"terraform-provider-{type_}_v{version}_x5").write_bytes(b"\x7fELF")
    return mirror


def env_with(tmp_path: Path, text: str | None, **extra: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "xdg"), "XDG_DATA_DIRS": ""}
    if text is not None:
        rc = tmp_path / "ci.tfrc"
        rc.write_text(text)
        env["TF_CLI_CONFIG_FILE"] = str(rc)
    env.update(extra)
    return env


def test_providers_on_disk_reads_both_layouts(tmp_path):
    packed(tmp_path, "3.39.0")
    unpacked(tmp_path, "5.100.0")
    packed(tmp_path, "4.0.0", target="darwin_arm64")
    found = providers_on_disk(tmp_path)
    assert found == {AWS: {"3.39.0": {HERE}, "5.100.0": {HERE}, "4.0.0": {"darwin_arm64"}}}


def test_a_mirror_lists_only_what_terraform_follows(tmp_path):
    """terraform 1.11 follows a symlinked TARGET directory or file of a filesystem
    mirror, not a symlinked HOST, NAMESPACE, TYPE or VERSION directory (measured:
    "no available releases match" for the provider behind one)."""
    real = unpacked(tmp_path / "real", "5.100.0")
    version_dir = real / "registry.terraform.io" / "hashicorp" / "aws" / "5.100.0"
    linked = tmp_path / "linked" / "registry.terraform.io" / "hashicorp" / "aws"
    linked.mkdir(parents=True)
    (linked / "5.100.0").symlink_to(version_dir)  # not followed
    (linked / "5.99.0").mkdir()
    (linked / "5.99.0" / HERE).symlink_to(version_dir / HERE)  # followed
    packed(tmp_path / "linked", "3.39.0")
    (linked.parent / "random").symlink_to(real / "registry.terraform.io" / "hashicorp" / "aws")
    mirror = tmp_path / "linked"
    assert providers_on_disk(mirror) == {AWS: {"3.39.0": {HERE}, "5.99.0": {HERE}}}
    assert unfollowed_links(mirror) == [
        ("registry.terraform.io/hashicorp/aws/5.100.0", str(version_dir.resolve())),
        ("registry.terraform.io/hashicorp/random", str((real / AWS).resolve())),
    ]
    offered = Source("filesystem_mirror", str(mirror)).offers(AWS)
    assert offered.startswith(
        "3.39.0, 5.99.0; terraform does not follow a symlinked directory in a filesystem "
        f"mirror (registry.terraform.io/hashicorp/aws/5.100.0 -> {version_dir.resolve()}): "
    )
    assert "random" not in offered  # another provider's link is not this one's
    assert "link the files inside it" in offered
    # A mirror whose only provider is behind a link holds nothing terraform can use.
    only = tmp_path / "only" / "registry.terraform.io" / "hashicorp" / "aws"
    only.mkdir(parents=True)
    (only / "5.100.0").symlink_to(version_dir)
    with pytest.raises(ValueError, match=r"holds no provider \(terraform does not follow"):
        check_mirror(tmp_path / "only")
    assert unfollowed_links(tmp_path / "nope") == []


def test_an_install_failure_names_a_symlinked_version_directory(tmp_path):
    real = unpacked(tmp_path / "real", "5.100.0")
    mirror = tmp_path / "mirror" / "registry.terraform.io" / "hashicorp" / "aws"
    mirror.mkdir(parents=True)
    (mirror / "5.100.0").symlink_to(real / AWS / "5.100.0")
    source = Source("filesystem_mirror", str(tmp_path / "mirror"), origin="~/.terraformrc:2")
    text = install_failure(AWS, ['"~> 5.0" (versions.tf:5)'], [source], CliConfig())
    line = text.splitlines()[1]
    assert line.startswith(
        f"  - filesystem_mirror {tmp_path / 'mirror'}, from ~/.terraformrc:2: nothing; "
        "terraform does not follow a symlinked directory in a filesystem mirror "
        "(registry.terraform.io/hashicorp/aws/5.100.0 -> "
    )


def test_a_user_mirror_methods_and_restrictions_are_kept(tmp_path):
    mirror = unpacked(tmp_path / "mirror", "5.100.0")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "cache").mkdir()
    env = env_with(
        tmp_path,
        f"""
plugin_cache_dir = "$HOME/cache"
provider_installation {{
  filesystem_mirror {{
    path    = "{mirror}"
    include = ["hashicorp/aws"]
  }}
  network_mirror {{
    url     = "https://mirror.corp.example/providers/"
    exclude = ["registry.terraform.io/hashicorp/aws"]
  }}
  direct {{
    exclude = ["registry.terraform.io/*/*"]
  }}
}}
""",
    )
    config = read_cli_config(env)
    assert config.explicit and config.files == (Path(env["TF_CLI_CONFIG_FILE"]),)
    kinds = [(s.kind, s.location, s.include, s.exclude) for s in config.sources]
    assert kinds == [
        ("filesystem_mirror", str(mirror), ("hashicorp/aws",), ()),
        ("network_mirror", "https://mirror.corp.example/providers/", (), (AWS,)),
        ("direct", "", (), ("registry.terraform.io/*/*",)),
    ]
    assert config.sources[0].origin.endswith("ci.tfrc:4")  # the line of the method
    assert config.plugin_cache_dir == tmp_path / "home" / "cache"  # $HOME expanded


def test_credentials_helpers_and_hosts_are_carried(tmp_path):
    env = env_with(
        tmp_path,
        """
credentials "app.terraform.io" {
  token = "xxxxxx.atlasv1.zzzzzzzzzzzzz"
}
credentials_helper "corp" {
  args = ["--profile", "ci"]
}
host "registry.corp.example" {
  services = {
    "providers.v1" = "https://registry.corp.example/providers/v1/"
  }
}
""",
    )
    config = read_cli_config(env)
    text = render(config.sources, tmp_path / "plugins", config.carried)
    _, blocks = parse_config(text)  # what we write parses
    carried = {(b.type, b.labels[0]): b for b in blocks if b.labels}
    assert carried["credentials", "app.terraform.io"].value("token") == (
        "xxxxxx.atlasv1.zzzzzzzzzzzzz"
    )
    assert carried["credentials_helper", "corp"].value("args") == ["--profile", "ci"]
    assert carried["host", "registry.corp.example"].value("services") == {
        "providers.v1": "https://registry.corp.example/providers/v1/"
    }


def test_home_rc_and_the_config_dir_are_read_without_an_override(tmp_path):
    env = env_with(tmp_path, None)
    home = Path(env["HOME"])
    (home / ".terraformrc").write_text('credentials "a.example" {\n  token = "one"\n}\n')
    (home / ".terraform.d").mkdir()
    # What `terraform login` writes.
    (home / ".terraform.d" / "credentials.tfrc.json").write_text(
        json.dumps({"credentials": {"b.example": {"token": "two"}}})
    )
    config = read_cli_config(env)
    assert [b.label for b in config.carried] == ["a.example", "b.example"]
    assert not config.explicit


def test_a_missing_override_is_ignored_as_terraform_does(tmp_path):
    env = env_with(tmp_path, None, TF_CLI_CONFIG_FILE=str(tmp_path / "nope.tfrc"))
    (Path(env["HOME"]) / ".terraformrc").write_text("this is not read {")
    config = read_cli_config(env)
    assert config.missing == tmp_path / "nope.tfrc" and config.files == ()
    assert [s.kind for s in config.sources] == ["direct"]  # implied
    assert "no such file; terraform ignores it too" in config.describe()


def test_implied_local_mirrors_and_direct_for_the_rest(tmp_path):
    env = env_with(tmp_path, None)
    plugins = unpacked(Path(env["HOME"]) / ".terraform.d" / "plugins", "5.100.0")
    xdg = packed(tmp_path / "xdg" / "terraform" / "plugins", "3.0.0", type_="random")
    config = read_cli_config(env)
    assert [(s.kind, s.location) for s in config.sources] == [
        ("filesystem_mirror", str(plugins)),
        ("filesystem_mirror", str(xdg)),
        ("direct", ""),
    ]
    assert config.sources[-1].exclude == (AWS, "registry.terraform.io/hashicorp/random")


def test_tf_plugin_cache_dir_wins_over_the_file(tmp_path):
    (tmp_path / "env-cache").mkdir()
    env = env_with(
        tmp_path,
        f'plugin_cache_dir = "{tmp_path}/file-cache"\n',
        TF_PLUGIN_CACHE_DIR=str(tmp_path / "env-cache"),
    )
    assert read_cli_config(env).plugin_cache_dir == tmp_path / "env-cache"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("provider_installation {\n  direct {\n", r"ci.tfrc:\d+: not valid HCL"),
        (
            'provider_installation {\n  filesystem_mirror {\n    path = "/no/such/dir"\n  }\n}\n',
            "filesystem_mirror path /no/such/dir: no such directory",
        ),
        (
            'provider_installation {\n  filesystem_mirror {\n    path = "{tmp}"\n  }\n}\n',
            "filesystem_mirror path .*: holds no provider",
        ),
        ('plugin_cache_dir = "/no/such/cache"\n', "plugin cache directory /no/such/cache"),
        (
            "provider_installation {\n  direct {}\n}\nprovider_installation {\n  direct {}\n}\n",
            "2 provider_installation blocks",
        ),
        ("provider_installation {\n  s3_mirror {}\n}\n", "unknown provider installation method"),
        ("provider_installation {\n  network_mirror {}\n}\n", 'network_mirror needs url = "..."'),
    ],
)
def test_a_config_terraform_would_refuse_is_one_clear_error(tmp_path, text, error):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ToolchainError, match=error):
        read_cli_config(env_with(tmp_path, text.replace("{tmp}", str(tmp_path / "empty"))))


def test_json_cli_configs_are_read(tmp_path):
    mirror = packed(tmp_path / "m", "3.39.0")
    text = json.dumps(
        {
            "provider_installation": {"filesystem_mirror": [{"path": str(mirror)}]},
            "credentials": {"app.terraform.io": {"token": "t"}},
        }
    )
    config = read_cli_config(env_with(tmp_path, text))
    assert [(s.kind, s.location) for s in config.sources] == [("filesystem_mirror", str(mirror))]
    assert [b.label for b in config.carried] == ["app.terraform.io"]


@pytest.mark.parametrize(
    ("pattern", "address", "expected"),
    [
        ("hashicorp/aws", AWS, True),
        ("registry.terraform.io/hashicorp/*", AWS, True),
        ("registry.terraform.io/*/*", "registry.terraform.io/corp/thing", True),
        ("example.com/*/*", AWS, False),
        ("hashicorp/awscc", AWS, False),
        ("HashiCorp/AWS", AWS, True),
    ],
)
def test_include_exclude_patterns(pattern, address, expected):
    assert matches(pattern, address) is expected


def test_local_first_keeps_providers_on_disk_off_the_network(tmp_path):
    mirror = packed(tmp_path / "bundled", "3.39.0")
    other = packed(tmp_path / "elsewhere", "1.0.0", type_="null", target="windows_386")
    sources = [
        Source("network_mirror", "https://m.example/", origin="ci.tfrc:3"),
        Source("direct", exclude=("example.com/*/*",)),
        Source("filesystem_mirror", str(mirror), include=(AWS,), origin="bundled"),
        Source("filesystem_mirror", str(other)),  # not for this platform: not local
    ]
    first = local_first(sources)
    assert first[0].exclude == (AWS,)
    assert first[1].exclude == ("example.com/*/*", AWS)
    assert first[2:] == sources[2:]


def test_check_mirror_names_what_is_wrong(tmp_path):
    (tmp_path / "file").write_text("")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no such directory"):
        check_mirror(tmp_path / "nope")
    with pytest.raises(ValueError, match="a file, not a directory"):
        check_mirror(tmp_path / "file")
    with pytest.raises(ValueError, match=r"holds no provider.*HOST/NAMESPACE/TYPE"):
        check_mirror(tmp_path / "empty")
    assert check_mirror(unpacked(tmp_path / "ok", "5.100.0")) == (tmp_path / "ok").resolve()


def test_configs_are_named_by_content_and_private(tmp_path):
    one = write_config(tmp_path, "terraform", "a = 1\n")
    two = write_config(tmp_path, "terraform", "a = 2\n")
    assert one != two and one.read_text() == "a = 1\n"
    assert one.stat().st_mode & 0o077 == 0  # it may carry credentials


def test_an_install_failure_lists_what_each_source_offered(tmp_path):
    bundled = packed(packed(tmp_path / "bundled", "3.39.0"), "2.70.0")
    user = unpacked(tmp_path / "user", "5.100.0")
    sources = [
        Source("filesystem_mirror", str(user), origin="~/.terraformrc:2"),
        Source("network_mirror", "https://m.example/", exclude=("hashicorp/*",), origin="rc:5"),
        Source("filesystem_mirror", str(bundled), include=(AWS,), origin="bundled"),
    ]
    text = install_failure(AWS, ['"= 9.9.9" (main.tf:4)'], sources, CliConfig())
    lines = text.splitlines()
    assert lines[0].startswith(
        'terraform init could not install hashicorp/aws; the module asks for "= 9.9.9" (main.tf:4)'
    )
    assert lines[1] == f"  - filesystem_mirror {user}, from ~/.terraformrc:2: 5.100.0"
    assert lines[2] == (
        "  - network_mirror https://m.example/, from rc:5: not asked for it "
        "(its include/exclude leave it out)"
    )
    assert lines[3] == f"  - the offline mirror has: 2.70.0, 3.39.0 ({bundled})"
    assert "No source may ask the network for it" in lines[4]
