"""A language lives in its record, its pages and its entry in mkdocs.yml: no other
product file names a language code, and among the tests only tests/project.py (which
derives the languages from the records) and tests/language_cases.py (what tests expect
of particular languages) do. So adding or removing a language touches no code."""

from __future__ import annotations

import re
import subprocess

from tests.project import LANGUAGES, ROOT

# Where a language is meant to be named: its record, its pages, the i18n entry; the
# documents that describe the languages; what the benchmarks measure.
OWN_HOMES = re.compile(r"^(locales/|docs/[^/]+\.md$|mkdocs\.yml$|GLOSSARY\.md$|README\.md$"
                       r"|benchmarks/|\.ci/)")
TEST_HOMES = {"tests/project.py", "tests/language_cases.py"}
BINARY = (".woff", ".woff2", ".png", ".svg", ".ico")


def naming_a_language(paths, root=ROOT) -> dict[str, list[str]]:
    """PATHS (relative to ROOT) that name a language code as a quoted string, a folder
    or a file-name part ("xx", /xx/, .xx.), with the codes they name."""
    found = {}
    for path in paths:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        codes = [code for code in LANGUAGES if re.search(rf"[\"'/.]{code}[\"'/.]", text)]
        if codes:
            found[path] = codes
    return found


def tracked() -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return [path for path in listed if not path.endswith(BINARY) and (ROOT / path).is_file()]


def test_no_product_file_outside_a_languages_homes_names_one():
    product = [p for p in tracked() if not p.startswith("tests/") and not OWN_HOMES.match(p)]
    assert naming_a_language(product) == {}


def test_only_two_test_files_name_a_language():
    tests = [p for p in tracked() if p.startswith("tests/")]
    assert set(naming_a_language(tests)) <= TEST_HOMES


def test_the_search_finds_a_named_code(tmp_path):
    code = LANGUAGES[-1]
    texts = {"a.py": f'page = "index.{code}.md"', "b.js": f"fetch('/{code}/run/x.json')",
             "c.py": f"# in English, a word that merely contains {code}: x{code}y"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert naming_a_language(texts, tmp_path) == {"a.py": [code], "b.js": [code]}
