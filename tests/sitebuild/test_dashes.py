"""A spaced dash never begins a line: the space before it does not break
(sitebuild.dashes)."""

from __future__ import annotations

from sitebuild.dashes import unbroken_before_dashes

NBSP = "\u00a0"


def test_the_space_before_a_spaced_dash_does_not_break():
    assert unbroken_before_dashes("<p>Ключ — стрілка</p>") == f"<p>Ключ{NBSP}— стрілка</p>"
    assert unbroken_before_dashes("<p>en nyckel – en pil</p>") == f"<p>en nyckel{NBSP}– en pil</p>"


def test_a_line_break_in_the_source_before_the_dash_does_not_break_either():
    assert unbroken_before_dashes("<p>запит\n— стрілка</p>") == f"<p>запит{NBSP}— стрілка</p>"


def test_ranges_and_unspaced_dashes_are_left_alone():
    text = "<p>0,35–0,52, 1\u2009–\u20092 and a word—another</p>"
    assert unbroken_before_dashes(text) == text


def test_code_preformatted_text_and_math_keep_their_spaces():
    text = ("<pre><code>x = 1 — 2</code></pre><p><code>a — b</code></p>"
            "<math><mo> — </mo></math><script>s = ' — '</script>")
    assert unbroken_before_dashes(text) == text


def test_prose_between_kept_elements_is_still_set():
    text = "<code>a</code> слово — <code>b</code> і — ще"
    assert unbroken_before_dashes(text) == (
        f"<code>a</code> слово{NBSP}— <code>b</code> і{NBSP}— ще")


def test_attributes_and_headings_keep_their_spaces():
    """An alt text is not laid out in lines; a heading's words are also the page's
    title and its table of contents entry, which the theme writes unchanged."""
    text = '<h1 id="a">Attention – hur</h1><img alt="рядки — ознаки"><p>a — b</p>'
    assert unbroken_before_dashes(text) == (
        f'<h1 id="a">Attention – hur</h1><img alt="рядки — ознаки"><p>a{NBSP}— b</p>')
