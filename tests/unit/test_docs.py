"""The README and the docs stay true to the repository: links, commands, cited files.

The README's two developer commands are the ones CI runs; its first screen
gets to a failing check; every link resolves; every test, example or bench
file the text cites as evidence exists. (The docs site's own links and pages
are checked by `mkdocs build --strict`; tests/test_docs_build.py builds it.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
CONTRIBUTING = REPO / "CONTRIBUTING.md"
DOCS = REPO / "docs"
TEXTS = [README, CONTRIBUTING, *sorted(DOCS.rglob("*.md"))]
#: Paths the texts cite in other repositories (terraform-aws-vpc's own example).
FOREIGN = {"examples/simple", "examples/complete"}


def section(text: str, title: str) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_readme_developer_commands_are_what_ci_runs() -> None:
    develop = section(README.read_text(), "Develop pytest-converge")
    [commands] = re.findall(r"```bash\n(.*?)```", develop, re.S)
    assert commands.splitlines() == ['pip install -e ".[dev]"', "pytest"]
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert 'time pip install -e ".[dev]"' in ci
    assert "time pytest" in ci
    assert any(line.startswith("NO_MKDOCS_2_WARNING=1 mkdocs build --strict") for line in ci)
    # CONTRIBUTING starts from the same two commands.
    assert f"```bash\n{commands}```" in CONTRIBUTING.read_text()


def test_the_readme_first_screen_reaches_a_failing_check() -> None:
    lines = README.read_text().splitlines()
    first_screen = "\n".join(lines[:60])
    assert 'pip install "pytest-converge[offline]"' in first_screen
    assert "stack.assert_converged()" in first_screen
    assert "ConvergenceError:" in first_screen
    # A README a user reads in two minutes; the rest is in docs/.
    assert len(lines) <= 200, len(lines)


def test_the_docs_extra_is_part_of_dev() -> None:
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {re.split(r"[\[<>=]", req)[0] for req in extras["docs"]}
    assert {"mkdocs", "mkdocstrings-python"} <= names
    assert any("docs" in req for req in extras["dev"] if req.startswith("pytest-converge["))


@pytest.mark.parametrize("path", [README, CONTRIBUTING], ids=lambda p: p.name)
def test_links_of_the_repository_texts_resolve(path: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)]+)\)", path.read_text()):
        if re.match(r"[a-z]+://", target) or target.startswith("#"):
            continue
        if not (path.parent / target.split("#", 1)[0]).exists():
            broken.append(target)
    assert broken == []


def test_every_cited_file_exists() -> None:
    """Each claim names its evidence (a test, an example, a bench script): it must exist."""
    cited = re.compile(r"`((?:tests|examples|bench|pytest_converge|\.ci)/[\w./-]*\w)`")
    missing = []
    for path in TEXTS:
        for name in cited.findall(path.read_text()):
            if "<" in name or "*" in name or name in FOREIGN:
                continue
            if not (REPO / name).exists():
                missing.append(f"{path.relative_to(REPO)}: {name}")
    assert missing == []


def test_the_readme_links_every_docs_page() -> None:
    readme = README.read_text()
    pages = [
        p.relative_to(REPO).as_posix()
        for p in DOCS.rglob("*.md")
        if p.parent.name not in {"_incoming", "hooks"}
        and p.name not in {"index.md", "changelog.md", "license.md", "contributing.md"}
    ]
    assert pages
    assert [p for p in pages if f"]({p})" not in readme] == []
