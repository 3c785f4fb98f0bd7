"""A figure drawn twice, for a light and a dark page (Material's #only-light and
#only-dark), is one figure to a screen reader: in either scheme the accessibility
tree holds one image of each pair, the one on screen, and one button to open it."""

from __future__ import annotations

import re

import pytest
import yaml

from tests.browser.conftest import SCHEMES
from tests.project import LANGUAGES, PAGES, page_file

pytestmark = pytest.mark.browser

SHOWN_ALTS = ("images => images.filter((image) => !image.closest('[hidden]'))"
              ".map((image) => image.alt)")
NODE = re.compile(r'^(?P<role>[\w-]+)(?: "(?P<name>(?:[^"\\]|\\.)*)")?')


def nodes(tree) -> list[tuple[str, str]]:
    """(role, name) of every node of an aria snapshot (Playwright's YAML), in order."""
    found = []
    for item in tree if isinstance(tree, list) else [tree]:
        key, children = next(iter(item.items())) if isinstance(item, dict) else (item, None)
        match = NODE.match(str(key))
        if match:
            found.append((match["role"], (match["name"] or "").replace('\\"', '"')))
        if isinstance(children, list):
            found.extend(nodes(children))
    return found



class Snapshot(yaml.SafeLoader):
    """An accessibility snapshot's YAML, in which a bare "=" (a table cell's text) is
    text, not YAML's value key."""


Snapshot.add_constructor("tag:yaml.org,2002:value",
                         lambda loader, node: loader.construct_scalar(node))

@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_light_and_dark_pair_is_announced_once(site, open_site_page, language, scheme):
    with_twins = [path for path in PAGES
                  if "#only-dark" in page_file(site, language, path).read_text(encoding="utf-8")]
    assert len(with_twins) >= 3, "the articles and the notebook have figures with twins"
    for path in with_twins:
        page, _ = open_site_page(language, path, scheme=scheme)
        page.wait_for_load_state("networkidle")  # the figure viewer has made its buttons
        # A figure that a widget replaced (its static form, under [hidden]) is no pair.
        pairs = page.locator('img[src$="#only-light"]').evaluate_all(SHOWN_ALTS)
        assert pairs, f"{path}: no figure with a dark twin: has the page changed?"
        assert sorted(pairs) == sorted(page.locator('img[src$="#only-dark"]').evaluate_all(
            SHOWN_ALTS)), f"{path}: a twin of its own alt"
        tree = nodes(yaml.load(page.locator("main").aria_snapshot(), Loader=Snapshot))
        for alt in pairs:
            images = [node for node in tree if node == ("img", alt)]
            opens = [node for node in tree if node[0] == "button" and node[1].startswith(alt)]
            assert len(images) == 1 and len(opens) == 1, (language, scheme, path, alt, tree)
        # A figure drawn in two layouts shows one per screen width (widgets.css).
        assert all(page.locator(f'main img[src$="#only-{scheme}"]').evaluate_all(
            "images => { const other = matchMedia('(min-width: 45em)').matches"
            " ? 'figure-narrow' : 'figure-wide';"
            " return images.filter((image) => !image.closest('[hidden]')"
            " && !image.classList.contains(other)).map((image) => image.checkVisibility()); }"))
