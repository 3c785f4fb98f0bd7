"""What mkdocs-static-i18n leaves to the site, in each language's build, and the one
place that reads its internals.

mkdocs-static-i18n builds every language by running the whole build again, with the
language's `extra`; three things it does not do as this site needs them. What the
hooks need to know of it (which language is being built, whether this is the build
of another language than the default, the languages in order) is read here and
nowhere else, so that an upgrade of the plugin is met in this one module
(tests/sitebuild/test_languages.py pins the version these reads were written for).
"""

from __future__ import annotations


def _i18n(config):
    return config.plugins["i18n"]


def building_other_language(config) -> bool:
    """Whether this pass builds a language other than the default: mkdocs-static-i18n
    builds those from within the default language's on_post_build, with `building` set."""
    return bool(_i18n(config).building)


def current(config) -> str | None:
    return _i18n(config).current_language


def codes(config) -> list[str]:
    """The site's language codes, the default first."""
    i18n = _i18n(config)
    every = [language.locale for language in i18n.config.languages]
    default = i18n.default_language
    return [default] + [code for code in every if code != default]


def relative_links(extra) -> None:
    """The language links of EXTRA (the config's) relative to the site, so that the site
    works below any path.

    mkdocs-static-i18n leaves the home page's links as "/uk/"; from the root of a
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
    return template_name != "404.html" or current(config) == _i18n(config).default_language


def titled_permalinks(mdx_configs: dict, extra) -> None:
    """Headings' links titled in the language being built: `extra.permalink_title`,
    per language in mkdocs.yml, for the toc extension (mkdocs-static-i18n cannot set
    an extension's options per language; MkDocs makes each page's Markdown from
    MDX_CONFIGS)."""
    mdx_configs.setdefault("toc", {})["permalink_title"] = extra["permalink_title"]
