"""Evidence marks: a checked sentence shows a numbered mark, whose note gives what was
measured against its bound, in the page's language and number format.

``{{ claim NAME }}`` becomes a footnote-style superscript,
``<sup class="evidence" data-claim="NAME">``, linking to its note; the notes gather
at the end of the page in one closed box (``<details class="evidence-notes">``).
Material's footnote tooltips (the theme feature ``content.footnote.tooltips``) show
a note on hover and tap: they read the element its ``.footnote-ref`` link points to.
"""

from __future__ import annotations

import html
import re

import locales
from sitebuild.claims import Evidence
from sitebuild.numbers import format_value


class EvidenceError(ValueError):
    """A measure whose quantity has no words in a language."""


def words(language: str) -> dict:
    """LANGUAGE's evidence words: its record's [evidence] (locales/<code>.toml)."""
    return locales.record(language).evidence


def note(found: Evidence, language: str) -> str:
    """FOUND's measures, each as its language's [evidence] `measure` writes a quantity,
    its value and the relation to its bound: "Largest difference: 4.4 × 10⁻¹⁶ (must be
    below 10⁻¹²)"."""
    said = words(language)
    parts = []
    for measure in found.measures:
        quantity = said["quantities"].get(measure.quantity)
        if quantity is None:
            raise EvidenceError(f"locales/{language}.toml has no [evidence.quantities] "
                                f"{measure.quantity!r}")
        value = format_value(measure.value, measure.style, language)
        bound = format_value(measure.bound, measure.bound_style or measure.style, language)
        relation = said["relations"][measure.relation].format(bound=bound)
        parts.append(said["measure"].format(quantity=quantity, value=value, relation=relation))
    text = ". ".join(part[0].upper() + part[1:] for part in parts)
    return text + "."


# A name such as "W_Q" or "d_k" in a note: an italic letter and its subscript, as the
# pages' formulas show it (docs/assets/javascripts/dom.js: rich() for the widgets'
# words), never an underscore, which a screen reader reads out.
SUBSCRIPTED = re.compile(r"([A-Za-z])_([A-Za-z0-9]+)")


def note_html(text: str) -> str:
    """TEXT, a note, as HTML: escaped, its subscripted names set as subscripts."""
    return SUBSCRIPTED.sub(r"<i>\1</i><sub>\2</sub>", html.escape(text))


def anchor(name: str) -> str:
    return f"evidence-{name.replace('_', '-')}"


class Marks:
    """The evidence marks of one page: numbered in the order their claims first appear."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.notes: dict[str, str] = {}  # claim name -> note, in order of appearance

    def mark(self, name: str, found: Evidence) -> str:
        if name not in self.notes:
            self.notes[name] = note(found, self.language)
        number = list(self.notes).index(name) + 1
        label = words(self.language)["mark"].format(number=number)
        return (f'<sup class="evidence" data-claim="{name}">'
                f'<a class="footnote-ref" href="#{anchor(name)}" aria-label="{html.escape(label)}">'
                f'{number}</a></sup>')

    def box(self) -> str:
        """The closed box of every note, for the end of the page; '' without marks."""
        if not self.notes:
            return ""
        said = words(self.language)
        items = "\n".join(f'<li id="{anchor(name)}"><p>{note_html(text)}</p></li>'
                          for name, text in self.notes.items())
        return (f'\n\n<details class="note evidence-notes" id="evidence">\n'
                f'<summary>{html.escape(said["title"])}</summary>\n'
                f'<p>{html.escape(said["intro"])}</p>\n<ol>\n{items}\n</ol>\n</details>\n')
