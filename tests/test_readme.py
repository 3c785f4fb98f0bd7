"""The README documents what an author writes: every shortcode kind the pages use
has an example in its "Writing pages" section, and every number style one too."""

import re

from sitebuild.numbers import STYLES
from tests.project import ROOT

KIND = re.compile(r"\{\{\s*([a-z]+)\s")


def writing_pages() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Writing pages", 1)[1].split("\n## ", 1)[0]


def test_every_shortcode_kind_in_the_pages_has_an_example():
    used = {kind for page in (ROOT / "docs").glob("*.md")
            for kind in KIND.findall(page.read_text(encoding="utf-8"))}
    documented = set(KIND.findall(writing_pages()))
    assert used, "no shortcode found in docs/"
    assert used <= documented, f"undocumented shortcodes: {sorted(used - documented)}"


def test_every_number_style_has_an_example():
    section = writing_pages()
    for style in re.findall(r"(\w+) \(", STYLES):
        assert f"| `{style}` |" in section, f"style {style} has no row in Writing pages"
