"""What a search engine and a phone's browser read first: a description of each page in
its own language, scripts that do not hold up rendering, and images whose box is known
before they load."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from tests.project import DEFAULT, LANGUAGES, PAGES, ROOT, i18n_languages, page_file, page_suffix

pytestmark = pytest.mark.slow

SOURCE = {"": "index", "attention/": "attention", "feature-recovery/": "feature-recovery",
          "notebook/": "notebook"}


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def front_matter(language: str, page: str) -> dict:
    suffix = page_suffix(language)
    text = (ROOT / "docs" / f"{SOURCE[page]}{suffix}.md").read_text(encoding="utf-8")
    return yaml.safe_load(text.split("\n---\n", 1)[0].removeprefix("---\n")) or {}


def test_every_page_has_its_own_description_from_its_front_matter(site):
    assert set(SOURCE) == set(PAGES)
    seen: dict[str, str] = {}
    for language in LANGUAGES:
        for page in PAGES:
            where = f"{language}:{page or 'home'}"
            tags = soup(page_file(site, language, page)).select('meta[name="description"]')
            assert len(tags) == 1, f"{where}: {len(tags)} descriptions"
            description = tags[0]["content"]
            assert description == front_matter(language, page).get("description"), (
                f"{where}: the description is not the page's own (front matter)")
            assert description not in seen, f"{where} has the description of {seen.get(description)}"
            seen[description] = where


# Material's one script, whose name carries its content hash.
MATERIAL_BUNDLE = re.compile(r"bundle\.[0-9a-f]+\.min\.js")


def test_no_script_blocks_rendering_neither_ours_nor_materials_bundle(site):
    """Ours is one ES module (mkdocs.yml), which a browser defers; Material's bundle is
    deferred by overrides/main.html, which adds `defer` to the tag Material writes by a
    string replace: a Material upgrade that writes the tag otherwise would silently make
    the bundle block again."""
    ours = {path.name for path in (ROOT / "docs" / "assets" / "javascripts").glob("*.js")}
    for language in LANGUAGES:
        for page in PAGES:
            where = f"{language}:{page or 'home'}"
            scripts = soup(page_file(site, language, page)).select("script[src]")
            names = [Path(script["src"]).name for script in scripts]
            tags = [script for script in scripts if Path(script["src"]).name in ours]
            # The entry imports the rest: no page lists a widget's module.
            assert [(Path(s["src"]).name, s.get("type")) for s in tags] == \
                [("site.js", "module")], f"{where}: {names}"
            assert [name for name in names if MATERIAL_BUNDLE.fullmatch(name)], \
                f"{where}: Material's bundle is not among {names}"
            blocking = [s["src"] for s in scripts if not (s.has_attr("defer")
                                                          or s.has_attr("async")
                                                          or s.get("type") == "module")]
            assert not blocking, f"{where}: {blocking}"


def test_images_have_a_size_and_those_below_the_fold_load_lazily(site):
    checked = 0
    for language in LANGUAGES:
        for page in PAGES:
            html = page_file(site, language, page).read_text(encoding="utf-8")
            article = BeautifulSoup(html[html.index("<article"):], "html.parser")
            first_section = article.find("h2")
            for image in article.select("img"):
                assert image.get("width") and image.get("height"), image
                below = first_section is not None and first_section in image.find_all_previous()
                assert (image.get("loading") == "lazy") == below, image
                checked += 1
    assert checked, "no image to check"


def test_the_home_page_is_titled_by_the_site_name_and_every_other_page_by_its_own_title(site):
    names = {language: soup(page_file(site, language, "")).select_one("header .md-header__topic")
             for language in LANGUAGES}
    for language in LANGUAGES:
        site_name = names[language].get_text(strip=True)
        for page in PAGES:
            document = soup(page_file(site, language, page))
            title = document.title.get_text()
            where = f"{language}:{page or 'home'}"
            if not page:
                assert title == site_name, f"{where}: {title!r}"
                continue
            heading = document.select_one("article h1").get_text().removesuffix("¶").strip()
            assert title == f"{heading} – {site_name}", f"{where}: {title!r}"


def palette_names() -> dict[str, list[str]]:
    """Each language's names for the light/dark toggles, as mkdocs.yml gives them."""
    return {language["locale"]: [entry["toggle"]["name"]
                                 for entry in language["theme"]["palette"]]
            for language in i18n_languages()}


def test_the_colour_scheme_toggles_speak_the_page_language(site):
    names = palette_names()
    assert set(names) == set(LANGUAGES)
    for language in LANGUAGES:
        if language != DEFAULT:
            assert not set(names[language]) & set(names[DEFAULT]), f"{language}: English toggles"
        for page in PAGES:
            html = soup(page_file(site, language, page))
            shown = [tag["aria-label"] for tag in html.select('input[name="__palette"]')]
            titles = [tag["title"] for tag in html.select("label.md-header__button[for^=__palette]")]
            where = f"{language}:{page or 'home'}"
            assert shown == names[language], f"{where}: toggles say {shown}"
            assert sorted(titles) == sorted(names[language]), f"{where}: titles {titles}"


def test_the_headings_links_are_titled_in_the_page_language(site):
    titles = {language["locale"]: (language.get("extra") or {}).get("permalink_title")
              for language in i18n_languages()}
    for language in LANGUAGES:
        assert titles[language], f"mkdocs.yml: no permalink_title for {language}"
        if language != DEFAULT:
            assert titles[language] != titles[DEFAULT], f"{language}: the English title"
        for page in PAGES:
            links = soup(page_file(site, language, page)).select("a.headerlink")
            where = f"{language}:{page or 'home'}"
            if page != "notebook/":  # mkdocs-jupyter's anchors have no title
                assert links, f"{where}: no heading links"
            assert {link["title"] for link in links} <= {titles[language]}, where


def test_every_page_has_a_content_security_policy_before_any_script_or_style(site):
    pages = [page_file(site, language, page) for language in LANGUAGES for page in PAGES]
    for path in [*pages, site / "404.html"]:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(site).as_posix()
        head = soup(path).head
        policies = head.select('meta[http-equiv="Content-Security-Policy"]')
        assert len(policies) == 1, f"{where}: {len(policies)} policies"
        tags = head.find_all(True)  # the policy covers only what follows it
        assert tags[0].get("charset") and tags[1] is policies[0], where
        directives = dict(d.strip().split(" ", 1) for d in policies[0]["content"].split(";"))
        assert "'unsafe-inline'" not in directives["script-src"]
        assert "'unsafe-eval'" not in directives["script-src"]
        for name in ("default-src", "style-src", "font-src", "connect-src", "worker-src"):
            assert directives[name].split()[0] == "'self'", (where, name)
        assert not re.search(r"https?:|\*|blob:", policies[0]["content"]), where
        assert "<script>" not in text or "'sha256-" in directives["script-src"], where
