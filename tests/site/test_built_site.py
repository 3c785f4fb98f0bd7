"""The built site, read as a reader's browser gets it: every page, number, listing and link."""

from __future__ import annotations

import json
import math
import re
import textwrap
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

import locales
from drawing.style import DECIMAL_COMMA
from sitebuild.runs import computations
from sitebuild.values import FORMATTERS, lookup, range_ends
from tests.printed_numbers import parse_number
from tests.project import DEFAULT, LANGUAGES, PAGES, ROOT, page_file

pytestmark = pytest.mark.slow

SNIPPET = re.compile(r'^-{2}8<-{2} "(?P<path>[^":]+):(?P<section>[\w-]+)"$', re.MULTILINE)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.fixture(scope="module")
def values(site):
    return {
        "experiment": json.loads((site / "run" / "results.json").read_text(encoding="utf-8")),
        "examples": json.loads((site / "run" / "examples.json").read_text(encoding="utf-8")),
    }


def all_pages():
    return [(language, page) for language in LANGUAGES for page in PAGES]


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_every_page_exists_in_all_three_languages(site, language, page):
    html = soup(page_file(site, language, page))
    assert html.html["lang"] == language
    assert html.find("h1") is not None


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_language_switcher_stays_on_the_same_page(site, language, page):
    html = soup(page_file(site, language, page))
    here = page_file(site, language, page)
    targets = {}
    for link in html.select("a.md-select__link[hreflang]"):
        target = (here.parent / unquote(urlsplit(link["href"]).path)).resolve()
        targets[link["hreflang"]] = target if target.suffix else target / "index.html"
    assert targets == {other: page_file(site, other, page).resolve() for other in LANGUAGES}


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_every_printed_value_is_this_builds_result(site, values, language, page):
    printed = soup(page_file(site, language, page)).select("span.value")
    for span in printed:
        kind, key, style = span["data-kind"], span["data-key"], span["data-style"]
        node = lookup(values, key)
        if kind == "range":
            node = range_ends(node, key)
        assert span.get_text() == FORMATTERS[kind](node, style, language), key
        if kind == "num" and style not in ("text", "short"):
            shown = parse_number(span.get_text(), language)
            assert abs(shown - node) <= _half_unit(shown, style) * (1 + 1e-9), key
    if page in ("attention/", "feature-recovery/"):
        assert len(printed) >= 10, "an article without computed values is not computed"


def _half_unit(shown: float, style: str) -> float:
    """Half a unit in the last printed digit: how far rounding can move a value."""
    counted = re.fullmatch(r"(?:fix|zero|sci|sig)(\d+)", style)
    digits = int(counted.group(1)) if counted else 0
    if style.startswith(("fix", "zero")):
        return 0.5 * 10.0**-digits
    if style.startswith(("sci", "sig")) and shown != 0:
        return 0.5 * 10.0 ** (math.floor(math.log10(abs(shown))) - digits + 1)
    return 0.5 if style == "int" else 0.0


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_per_seed_table_shows_every_seed(site, values, language):
    html = soup(page_file(site, language, "feature-recovery/"))
    tables = {  # the per-seed keys each model's table shows, one cell per seed
        "experiment.variants.learned_keys": ("query_block_determinant", "score_map_error"),
        "experiment.variants.three_keys": ("response_error.query",
                                           "interventions.shift_irrelevant",
                                           "invisible_drift"),
        "experiment.variants.three_keys_sgd": ("invisible_drift",),
    }
    for model, keys in tables.items():
        seeds = lookup(values, f"{model}.seeds")
        for key in keys:
            pattern = rf"{re.escape(model)}\.seeds\.\d+\.{re.escape(key)}"
            cells = [span for span in html.select("td span.value")
                     if re.fullmatch(pattern, span["data-key"])]
            assert len(cells) == len(seeds), (model, key)
    for student in ("experiment", *(f"experiment.variants.{name}" for name in
                                    ("learned_keys", "three_keys", "three_keys_sgd"))):
        for key in ("heldout_mse", "uniform_attention_mse"):  # the results table
            assert html.select(f'td span.value[data-key="{student}.summary.{key}"]'), student
    for summary in ("erase_query", "erase_payload",
                    "erase_query_vs_teacher", "erase_payload_vs_teacher"):
        assert html.select(f'td span.value[data-key="experiment.summary.{summary}"]'), summary


def test_the_printed_source_hash_is_the_run_caches_key(site, values):
    """The build's cache keys the experiment's run on this hash: the run it published
    recorded it, and every page that prints a hash prints its short form."""
    key = next(c for c in computations(ROOT) if c.package == "experiment").source_hash()
    assert values["experiment"]["source_hash"] == key
    printed = [span.get_text() for language in LANGUAGES for page in PAGES
               for span in soup(page_file(site, language, page)).select(
                   'span.value[data-key="experiment.source_hash"]')]
    assert printed and set(printed) == {key[:12]}


def _section(path: str, section: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    match = re.search(rf"# --8<-- \[start:{section}\]\n(.*?)\n[ \t]*# --8<-- \[end:{section}\]",
                      text, re.DOTALL)
    assert match, f"{path} has no section {section}"
    return textwrap.dedent(match.group(1)).strip()


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_listings_equal_the_source_that_ran(site, language, page):
    suffix = "" if language == DEFAULT else f".{language}"
    source = ROOT / "docs" / f"{(page.rstrip('/') or 'index')}{suffix}.md"
    included = SNIPPET.findall(source.read_text(encoding="utf-8"))
    shown = [code.get_text().strip() for code in
             soup(page_file(site, language, page)).select("div.highlight pre code")]
    for path, section in included:
        assert _section(path, section) in shown, f"{path}:{section} on {source.name}"


def _local_target(site: Path, page: Path, href: str) -> tuple[Path, str]:
    parts = urlsplit(href)
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    if target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


def test_the_404_page_is_the_default_languages(site):
    """One 404.html serves every address; each language's build writes one, and the
    last (Swedish) used to overwrite the English."""
    html = soup(site / "404.html")
    top_level = dict(re.findall(r"^(site_name|site_description): (.+)$",
                                (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE))
    assert html.html["lang"] == DEFAULT
    assert html.title.get_text(strip=True) == top_level["site_name"]
    assert html.select_one('meta[name="description"]')["content"] == top_level["site_description"]


def test_no_broken_link_or_anchor(site):
    ids: dict[Path, set[str]] = {}
    broken = []
    # 404.html links from the site root on purpose: a host serves it at any path.
    for page in (p for p in site.rglob("*.html") if p.name != "404.html"):
        for link in soup(page).select("a[href]"):
            href = link["href"]
            if urlsplit(href).scheme or href.startswith("//"):
                continue
            target, fragment = _local_target(site, page, href)
            if not target.exists():
                broken.append(f"{page.relative_to(site)} → {href}")
                continue
            if fragment and target.suffix == ".html":
                if target not in ids:
                    ids[target] = {tag["id"] for tag in soup(target).select("[id]")}
                if fragment not in ids[target]:
                    broken.append(f"{page.relative_to(site)} → {href} (no such anchor)")
    assert not broken, "\n".join(broken)


URL = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""")


def test_no_page_loads_or_links_anything_from_another_host(site):
    offending = []
    for path in list(site.rglob("*.html")) + list(site.rglob("*.css")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".html":
            html = BeautifulSoup(text, "html.parser")
            for tag in html.find_all(True):
                for attribute in ("href", "src", "srcset", "action", "poster", "data"):
                    value = tag.get(attribute)
                    if isinstance(value, str) and URL.match(value.strip()):
                        offending.append(f"{path.relative_to(site)}: <{tag.name} "
                                         f"{attribute}={value!r}>")
            styles = " ".join(style.get_text() for style in html.find_all("style"))
        else:
            styles = text
        for url in re.findall(r"url\(\s*['\"]?((?:https?:)?//[^'\")]+)", styles):
            offending.append(f"{path.relative_to(site)}: url({url})")
    assert not offending, "\n".join(offending[:20])


XML_NAMESPACE = "http://www.w3.org/"  # names a vocabulary in SVG; nothing fetches it


def test_no_page_names_another_host_even_in_an_inline_script(site):
    """Stricter than attributes and CSS: nbconvert's markup, which mkdocs-jupyter puts
    into the notebook page, carries scripts that import from a CDN (MathJax, Mermaid)."""
    offending = []
    for path in site.rglob("*.html"):
        for url in re.findall(r"""https?://[^\s"'`<>)\\]+""", path.read_text(encoding="utf-8")):
            if not url.startswith(XML_NAMESPACE):
                offending.append(f"{path.relative_to(site)}: {url}")
    assert not offending, "\n".join(offending[:20])


def test_results_and_figures_are_published_for_download(site):
    figures = ("query_response", "value_response", "loss_curves", "training_snapshots",
               "learned_keys_query_responses", "three_keys_query_response", "key_geometry",
               "scaling")
    names = [f"{figure}{twin}.{kind}" for figure in figures for twin in ("", "-dark")
             for kind in ("svg", "png")]
    for name in ("results.json", "examples.json", *names):
        assert (site / "run" / name).stat().st_size > 0, name


THEMES = ("only-light", "only-dark")  # Material shows each on its own scheme only


def unpaired_figures(html: BeautifulSoup, page: Path) -> list[str]:
    """Every #only-light image not followed by its #only-dark twin (the same alt text,
    another existing file; for a run's figure NAME.svg, NAME-dark.svg), and every
    #only-dark image that is no light one's twin."""
    themed = [img for img in html.find_all("img") if urlsplit(img["src"]).fragment in THEMES]
    problems, position = [], 0
    while position < len(themed):
        light, twin = themed[position], themed[position + 1:position + 2]
        light_src = urlsplit(light["src"])
        if light_src.fragment != "only-light":
            problems.append(f"{light['src']}: a dark twin without its light figure before it")
            position += 1
            continue
        dark_src = urlsplit(twin[0]["src"]) if twin else None
        if dark_src is None or dark_src.fragment != "only-dark":
            problems.append(f"{light['src']}: no #only-dark twin after it")
            position += 1
            continue
        light_file, dark_file = (page.parent / unquote(s.path) for s in (light_src, dark_src))
        stem = Path(light_src.path)
        if not (light_file.is_file() and dark_file.is_file()) or dark_file == light_file:
            problems.append(f"{light['src']}: it or its twin {twin[0]['src']} is missing, "
                            "or they are one file")
        elif "notebook" not in stem.parts and Path(dark_src.path).name != (
                f"{stem.stem}-dark{stem.suffix}"):
            problems.append(f"{light['src']}: its twin is {twin[0]['src']}, not {stem.stem}-dark")
        if twin[0].get("alt") != light.get("alt"):
            problems.append(f"{light['src']}: its dark twin has another alt text")
        position += 2
    return problems


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_every_figure_has_its_dark_twin_and_every_twin_its_figure(site, language, page):
    path = page_file(site, language, page)
    problems = unpaired_figures(soup(path), path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("language", "page"), all_pages())
def test_every_figure_prints_the_decimal_mark_of_its_pages_language(site, language, page):
    """A figure drawn with decimal commas shows its comma twin on the pages of a language
    whose record writes a decimal comma, and its twin with points on the others."""
    comma = locales.record(language).numbers.decimal == ","
    problems = []
    for img in soup(page_file(site, language, page)).find_all("img"):
        name = Path(urlsplit(img["src"]).path).name
        if not name.endswith(".svg") or "notebook" in name:
            continue
        light = name.removesuffix(".svg").removesuffix("-dark")
        base = light.removesuffix(DECIMAL_COMMA)
        has_twin = (site / "run" / f"{base}{DECIMAL_COMMA}.svg").is_file()
        if (light != base) != (comma and has_twin):
            problems.append(f"{img['src']}: {'with' if light != base else 'without'} commas")
    assert not problems, "\n".join(problems)
