"""What mkdocs-static-i18n leaves to the site, in each language's build.

mkdocs-static-i18n builds every language by running the whole build again, with the
language's `extra`; three things it does not do as this site needs them.
"""

from __future__ import annotations


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


def writes_template(template_name: str, language: str | None, default: str) -> bool:
    """Whether LANGUAGE's build writes TEMPLATE_NAME: 404.html only the DEFAULT's.

    A server has one 404 page, at the root, and every language's build writes it
    there: left alone, the last one built (Swedish) is what every reader gets
    (mkdocs-static-i18n#284)."""
    return template_name != "404.html" or language == default


def titled_permalinks(mdx_configs: dict, extra) -> None:
    """Headings' links titled in the language being built: `extra.permalink_title`,
    per language in mkdocs.yml, for the toc extension (mkdocs-static-i18n cannot set
    an extension's options per language; MkDocs makes each page's Markdown from
    MDX_CONFIGS)."""
    mdx_configs.setdefault("toc", {})["permalink_title"] = extra["permalink_title"]
