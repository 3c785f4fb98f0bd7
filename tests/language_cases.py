"""What the tests expect of each language beyond its record: Material's own words,
the searches that must find something, the length of the articles. The one test
module besides tests/project.py that names languages; the list of languages itself
is the records' (tests/project.py: LANGUAGES)."""

from __future__ import annotations

# A language that Material, lunr and mkdocs-static-i18n all know and the site has not:
# tests/site/test_fourth_language.py adds it to a copy of the project.
FOURTH = {"code": "de", "name": "Deutsch", "search": "de"}
