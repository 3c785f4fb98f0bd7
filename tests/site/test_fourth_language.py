"""A language is its record, its pages and its entry in mkdocs.yml: a copy of the
project given a fourth language that way, and nothing else, builds strictly, with
that language's pages, numbers, bank figures, words and search."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.language_cases import FOURTH
from tests.project import DEFAULT, OWN_BUILDS, PAGES, copy_project, mkdocs_build, page_file

pytestmark = [pytest.mark.slow, OWN_BUILDS]

# The entry's place: after the last language of the i18n plugin, the last plugin.
AFTER_LAST_ENTRY = re.compile(r"(?<=\n)(?=\n# -+\n# Build logic)")
ENTRY = """        - locale: {code}
          name: {name}
          build: true
          theme:
            language: site
            palette:
              - toggle:
                  name: Switch to dark mode
              - toggle:
                  name: Switch to light mode
          extra:
            permalink_title: Permanent link
"""
SITE_LANGUAGE = re.compile(r'<script id="site-language" type="application/json">(.*?)</script>')


def add_language(project, code: str, name: str, search: str, material: str) -> None:
    """CODE's pages and record copied from the default language's, and its i18n entry."""
    for page in sorted((project / "docs").glob("*.md")):
        if page.suffixes == [".md"]:  # the default language's pages: page.md
            shutil.copy2(page, page.with_suffix(f".{code}.md"))
    record = (project / "locales" / f"{DEFAULT}.toml").read_text(encoding="utf-8")
    record, count = re.subn(r'(?m)^search = "[^"]*"$', f'search = "{search}"', record)
    assert count == 1, "the record's search language: update this test"
    record, count = re.subn(r'(?m)^material = "[^"]*"$', f'material = "{material}"', record)
    assert count == 1, "the record's Material language: update this test"
    (project / "locales" / f"{code}.toml").write_text(record, encoding="utf-8")
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    config, count = AFTER_LAST_ENTRY.subn(ENTRY.format(code=code, name=name), config)
    assert count == 1, "mkdocs.yml's last i18n entry: update this test"
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")


def test_a_fourth_language_is_its_pages_its_record_and_its_i18n_entry(tmp_path):
    project = copy_project(tmp_path / "project")
    add_language(project, **FOURTH)
    site = tmp_path / "site"
    done = mkdocs_build(project, site)
    assert done.returncode == 0, done.stderr[-4000:]
    code = FOURTH["code"]
    for page in PAGES:
        html = page_file(site, code, page).read_text(encoding="utf-8")
        assert f'<html lang="{code}"' in html, page
        assert json.loads(SITE_LANGUAGE.search(html)[1])["code"] == code, page
    attention = page_file(site, code, "attention/").read_text(encoding="utf-8")
    assert f"run/bank-teaser-{code}.svg#only-light" in attention, "no bank figures of its own"
    assert (site / "run" / f"bank-teaser-{code}-dark.svg").is_file()
    search = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert FOURTH["search"] in search["config"]["lang"]
