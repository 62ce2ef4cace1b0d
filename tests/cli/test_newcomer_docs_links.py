"""Every link and file path in README.md, docs/ and the HTML report resolves inside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "src" / "statebox" / "domains").glob("*/AUTHORING.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# A path in backticks that names a file of the repository, e.g. `src/statebox/domains/retail/AUTHORING.md`.
PATH = re.compile(r"`((?:src|docs|tests|benchmarks)/[\w./-]+\.(?:md|py|yaml|sql|html|js|css))`")
REPORT_FILES = sorted((ROOT / "src" / "statebox" / "report").glob("*.[jh]*"))


def _anchors(doc: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+\s+(.+)$", doc.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _broken(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{target} (no such heading)")
    broken += [f"`{p}` (no such file)" for p in PATH.findall(text) if not (ROOT / p).exists()]
    return broken


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_every_link_and_path_in_the_docs_resolves_in_the_repository(doc: Path) -> None:
    assert not _broken(doc), _broken(doc)


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(ROOT).as_posix() for d in DOCS])
def test_the_docs_never_point_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text and "/work/shared" not in text


@pytest.mark.parametrize("source", REPORT_FILES, ids=[f.name for f in REPORT_FILES])
def test_the_html_report_names_only_files_a_clone_has(source: Path) -> None:
    text = source.read_text(encoding="utf-8")
    named = re.findall(r"\b((?:docs|src)/[\w./-]+\.md)\b", text)
    hrefs = [h for h in re.findall(r'href="([^"#:]+)"', text) if not h.startswith(("$", "{"))]
    missing = [n for n in named if not (ROOT / n).exists()] + [h for h in hrefs if "/" in h and not (ROOT / h).exists()]
    assert not missing, missing
