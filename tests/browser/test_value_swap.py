"""The value swap of the attention article, on the bank model: it starts from the
build's numbers, swapping the two columns of W_V keeps "bank"'s attention weights
and sends it to the other sense in both sentences, as examples/bank.py computes
(1e-9), from the keyboard too; without JavaScript the reader gets the static table.

Its arithmetic is tested once; its words, formats and accessibility per language."""

from __future__ import annotations

import json

import pytest

import locales
from examples import bank
from sitebuild.numbers import format_value, format_vector
from tests.browser import axe
from tests.project import DEFAULT, LANGUAGES, TRANSLATIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET = ".value-swap .value-swap__widget"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def examples(site):
    return json.loads((site / "run" / "examples.json").read_text(encoding="utf-8"))


def state(page) -> dict:
    return json.loads(page.get_attribute(WIDGET, "data-state"))


def ambiguous_word(language: str) -> str:
    return next(token for token, role in bank.sentences()[language][0] if role == "ambiguous")


def python_sentence(language: str, number: int, swapped: bool) -> dict:
    """examples/bank.py's head 1 on the sentence, W_V as built or with its columns swapped."""
    words = bank.sentences()[language][number]
    X = bank.embed(words)
    W_V = bank.tensor(bank.W_V)[:, bank.SWAP] if swapped else None
    stages = bank.head_1(X, W_V_=W_V)
    ambiguous = len(words) - 1
    h = stages["H"][ambiguous]
    return {"weights": stages["weights"][ambiguous].tolist(), "h": h.tolist(),
            "sense_after": (X[ambiguous, 2:] + h @ bank.tensor(bank.W_O)[:2, 2:]).tolist()}


def assert_matches_python(shown: dict, language: str) -> None:
    for number, sentence in enumerate(shown["sentences"]):
        expected = python_sentence(language, number, shown["swapped"])
        for key, value in expected.items():
            assert sentence[key] == pytest.approx(value, abs=1e-9), (number, key)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widget_starts_from_the_numbers_of_the_static_table(open_site_page, examples,
                                                                 language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    assert page.locator(".value-swap table").first.is_hidden()  # the static one, replaced
    shown = state(page)
    assert shown["swapped"] is False
    assert_matches_python(shown, language)
    rows = page.locator(f"{WIDGET} tbody tr")
    for i, sentence in enumerate(examples["bank"]["sentences"][language]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        # Where "bank" lands is the plane's to show: the table has what stays, what swaps.
        assert cells == [format_value(sentence["clue_weight"], "fix2", language),
                         format_vector(sentence["h"], "fix2", language)]
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_swapping_keeps_the_weights_and_sends_bank_to_the_other_sense(open_site_page,
                                                                     examples):
    page, traffic = open_site_page(DEFAULT, "attention/")
    words = json.loads(page.locator("#site-language").text_content())["words"]["valueSwap"]
    swap = page.locator(f"{WIDGET} button")
    before = state(page)
    swap.focus()
    page.keyboard.press("Enter")
    # The button says what it will do next: swap back.
    assert swap.text_content() == words["swapBack"].replace("W_V", "WV")
    after = state(page)
    assert after["swapped"] is True
    assert_matches_python(after, DEFAULT)
    for number, (was, now) in enumerate(zip(before["sentences"], after["sentences"],
                                            strict=True)):
        assert now["weights"] == pytest.approx(was["weights"], abs=1e-12)
        assert now["h"] == pytest.approx(was["h"][::-1], abs=1e-12)
        recorded = examples["bank"]["sentences"][DEFAULT][number]["swapped"]["sense_after"]
        assert now["sense_after"] == pytest.approx(recorded, abs=1e-12)
        # Sentence 1 leaned to sense 1 and now leans to sense 2, and the other way round.
        assert (now["sense_after"][0] > now["sense_after"][1]) == (number == 1)
    page.keyboard.press("Space")  # and back
    assert state(page)["swapped"] is False
    assert swap.text_content() == words["swap"].replace("W_V", "WV")
    assert_matches_python(state(page), DEFAULT)
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_control_and_heading_is_in_the_pages_language(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["valueSwap"]
    assert page.locator(f"{WIDGET} button").text_content() == words["swap"].replace("W_V", "WV")
    headers = page.locator(f"{WIDGET} thead th").all_inner_texts()  # the swap note is hidden
    assert headers[:2] == [words["sentence"], words["clueWeight"]]
    record = locales.record(language)
    clues = [next(t for t, role in s if role.startswith("clue")) for s in record.sentences]
    assert page.locator(f"{WIDGET} .value-swap__move text").all_text_contents() == [
        words["end"].format(w=record.quote.format(clue)) for clue in clues]
    # Each row is named by its sentence, the page's own words.
    rows = page.locator(f"{WIDGET} tbody th").all_inner_texts()
    assert rows == [" ".join(token for token, _ in sentence)
                    for sentence in bank.sentences()[language]]
    status = page.locator(f"{WIDGET} .widget__status")  # for a screen reader, not shown
    sentences = state(page)["sentences"]
    assert status.text_content() == words["status"].format(
        swapped="", w=ambiguous_word(language),
        weight1=format_value(sentences[0]["clue_weight"], "fix2", language),
        weight2=format_value(sentences[1]["clue_weight"], "fix2", language),
        after1=format_vector(sentences[0]["sense_after"], "fix2", language),
        after2=format_vector(sentences[1]["sense_after"], "fix2", language))
    assert status.bounding_box()["width"] <= 1


# Each label and tick of the sense plane, as the plane's box (y up).
TEXTS = """(widget) => Array.from(widget.querySelectorAll('.sense-plane text'),
  (text) => { const b = text.getBBox();
              return [text.getAttribute('class') || '', text.textContent,
                      b.x, b.x + b.width, -(b.y + b.height), -b.y]; })"""


def test_the_plane_has_ticks_and_its_labels_stay_clear_of_each_other(open_site_page):
    """The plane reads off coordinates (ticks at 0, 1, 2 along both axes), and where
    "bank" lands is labelled clear of the other sentence's label, swapped or not."""
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    for _ in range(2):
        texts = page.locator(WIDGET).evaluate(TEXTS)
        ticks = sorted(text for kind, text, *_ in texts if "tick" in kind)
        assert ticks == ["0", "1", "1", "2", "2"]
        labels = [box for kind, text, *box in texts if not kind and text.strip()]
        assert len(labels) == 2
        (a0, a1, a2, a3), (b0, b1, b2, b3) = labels
        assert a1 <= b0 or b1 <= a0 or a3 <= b2 or b3 <= a2
        page.locator(f"{WIDGET} button").click()


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_static_table_remains(open_site_page, examples, language):
    page, _ = open_site_page(language, "attention/", java_script_enabled=False)
    assert page.locator(".value-swap__widget").count() == 0
    table = page.locator(".value-swap table")
    assert table.is_visible() and table.locator("tbody tr").count() == 2
    key = f"examples.bank.sentences.{language}.0.swapped.sense_after"
    assert page.locator(f'.value-swap span.value[data-key="{key}"]').is_visible()


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_swapped_widget_has_no_axe_violations(open_site_page, scheme):
    page, _ = open_site_page(TRANSLATIONS[0], "attention/", scheme=scheme)
    page.locator(f"{WIDGET} button").click()
    assert axe.violations(page, ".value-swap") == []


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_at_phone_width_the_swap_fits_and_passes_axe(open_site_page, scheme):
    page, traffic = open_site_page(TRANSLATIONS[-1], "attention/", scheme=scheme, fresh=True)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(WIDGET)
    widget = page.locator(WIDGET)
    widget.scroll_into_view_if_needed()
    assert widget.bounding_box()["width"] <= PHONE["width"]
    assert axe.violations(page, ".value-swap") == []
    assert traffic.console_errors == [] and traffic.page_errors == []
