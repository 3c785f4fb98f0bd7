"""The site's languages in each language's build: their records, what
mkdocs-static-i18n leaves to the site, and the one place that reads its internals.

A language's record (locales/<code>.toml) is everything the build knows about it;
mkdocs.yml's i18n entry gives MkDocs and Material its names and theme. mkdocs-static-i18n
builds every language by running the whole build again, with the language's `extra`;
three things it does not do as this site needs them. What the hooks need to know of
the plugin (which language is being built, whether this is the build of another
language than the default, the languages in order) is read here and nowhere else, so
that an upgrade of the plugin is met in this one module (tests/sitebuild/test_languages.py
pins the version these reads were written for).
"""

from __future__ import annotations

import json

from jinja2 import ChoiceLoader, DictLoader

import locales

PAGE_RECORD = "language"  # the key of `extra` that overrides/main.html writes into the page


class LanguageMismatch(ValueError):
    """mkdocs.yml's i18n entries and the language records name different languages."""


def check_records(config) -> None:
    """Every language of CONFIG's i18n plugin has a record, and every record an entry:
    a language is its record, its pages and its entry, and a missing one would fail
    far from its cause (a page without signs, a record never built)."""
    entries = {language.locale for language in _i18n(config).config.languages}
    records = set(locales.codes())
    if entries != records:
        raise LanguageMismatch(
            f"mkdocs.yml's i18n entries ({', '.join(sorted(entries))}) and the records in "
            f"locales/ ({', '.join(sorted(records))}) must name the same languages")


def search_languages() -> list[str]:
    """lunr's languages for the search index: each record's, once, in the records' order."""
    return list(dict.fromkeys(record.search for record in locales.records().values()))


def configure(config) -> None:
    """CONFIG checked against the records, with their search languages for Material's
    search plugin (which MkDocs names material/search). The records are read afresh:
    `mkdocs serve` loads the config again for every rebuild, an edit of a record too."""
    locales.records.cache_clear()
    check_records(config)
    config.plugins["material/search"].config.lang = search_languages()


# Every i18n entry's theme.language: Material reads its words from
# partials/languages/<theme.language>.html, which with_material_words() provides from
# the record of the language being built.
MATERIAL_PARTIAL = "partials/languages/site.html"


def with_material_words(env, language: str) -> None:
    """ENV (the theme's Jinja environment) with MATERIAL_PARTIAL for LANGUAGE: Material's
    own partial of the record's `material` language, each word of the record's
    [material_words] in place of Material's (Material's documented way to adjust a
    language: a partial of one's own that imports its)."""
    record = locales.record(language)
    words = json.dumps(record.material_words, ensure_ascii=False)  # a Jinja dict literal
    source = (f'{{% import "partials/languages/{record.material}.html" as language %}}'
              f"{{% macro t(key) %}}{{{{ {words}.get(key) or language.t(key) }}}}{{% endmacro %}}")
    env.loader = ChoiceLoader([DictLoader({MATERIAL_PARTIAL: source}), env.loader])


def building(config) -> str:
    """The language of the build under way (mkdocs-static-i18n builds one at a time)."""
    return _i18n(config).current_language


def of_page(page, config) -> str:
    """PAGE's language: its file's, which mkdocs-static-i18n sets from the suffix."""
    return getattr(page.file, "locale", None) or building(config)


def for_page(extra, language: str) -> None:
    """EXTRA (the config's) with LANGUAGE's record for the page's scripts, which
    overrides/main.html writes into every page as JSON and common.js reads."""
    extra[PAGE_RECORD] = locales.record(language).for_page()


def _i18n(config):
    return config.plugins["i18n"]


def building_other_language(config) -> bool:
    """Whether this pass builds a language other than the default: mkdocs-static-i18n
    builds those from within the default language's on_post_build, with `building` set."""
    return bool(_i18n(config).building)


def codes(config) -> list[str]:
    """The site's language codes, the default first."""
    i18n = _i18n(config)
    every = [language.locale for language in i18n.config.languages]
    default = i18n.default_language
    return [default] + [code for code in every if code != default]


def relative_links(extra) -> None:
    """The language links of EXTRA (the config's) relative to the site, so that the site
    works below any path.

    mkdocs-static-i18n leaves the home page's links as "/<code>/"; from the root of a
    project site such as https://user.github.io/project/ that leaves the site. It
    assigns extra.alternate as an attribute, which templates read before the item of
    the same name."""
    for alternate in getattr(extra, "alternate", None) or extra.get("alternate") or []:
        if alternate.get("link", "").startswith("/"):
            alternate["link"] = alternate["link"].lstrip("/") or "./"


def writes_template(template_name: str, config) -> bool:
    """Whether this language's build writes TEMPLATE_NAME: 404.html only the default's.

    A server has one 404 page, at the root, and every language's build writes it
    there: left alone, the last one built (Swedish) is what every reader gets
    (mkdocs-static-i18n#284)."""
    return template_name != "404.html" or building(config) == _i18n(config).default_language


def titled_permalinks(mdx_configs: dict, extra) -> None:
    """Headings' links titled in the language being built: `extra.permalink_title`,
    per language in mkdocs.yml, for the toc extension (mkdocs-static-i18n cannot set
    an extension's options per language; MkDocs makes each page's Markdown from
    MDX_CONFIGS)."""
    mdx_configs.setdefault("toc", {})["permalink_title"] = extra["permalink_title"]
