"""The attention calculator of the attention article computes what examples/bank.py
computes: it starts as the bank model on the page's second sentence, and as the
reader moves arrows (by pointer, sliders or keyboard), the temperature and the mask,
every stage agrees with the Python head to 1e-9. The arithmetic does not depend on
the page's language beyond its sentence, so the sweep runs once; words, number
formats, accessibility and the phone width are checked per language and scheme."""

from __future__ import annotations

import json
import math

import pytest

from examples import bank
from sitebuild.numbers import MINUS, format_value, format_vector
from tests.browser import axe
from tests.project import DEFAULT, LANGUAGES, TRANSLATIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDGET = ".attention-calculator .calculator"
STAGES = ("Q", "K", "V", "scores", "masked", "exponentials", "weights", "weighted", "H",
          "h", "sense")
PHONE = {"width": 390, "height": 844}
FINGER = 44  # CSS pixels: the smallest target a finger takes reliably (WCAG 2.5.5)


@pytest.fixture(scope="module")
def examples(site):
    return json.loads((site / "run" / "examples.json").read_text(encoding="utf-8"))


def state(page) -> dict:
    return json.loads(page.get_attribute(WIDGET, "data-state"))


def sliders(page):
    return page.locator(f"{WIDGET} input[type=range]")


def as_python(value):
    """The widget's JSON with −∞ (written as null) back as a float."""
    if value is None:
        return -math.inf
    if isinstance(value, list):
        return [as_python(v) for v in value]
    return value


def flat(nested) -> list:
    return [x for item in nested for x in flat(item)] if isinstance(nested, list) else [nested]


def close(found, wanted, tolerance: float) -> bool:
    """Nested lists of numbers equal within TOLERANCE, −∞ only where −∞ is expected."""
    found, wanted = flat(as_python(found)), flat(wanted)
    return len(found) == len(wanted) and all(
        a == b if math.isinf(b) else abs(a - b) <= tolerance
        for a, b in zip(found, wanted, strict=True))


def python_head(shown: dict, language: str = DEFAULT) -> dict:
    """The Python head on the sentence the widget shows (the reader's, once composed)."""
    words = [tuple(word) for word in shown["words"]]
    return {name: value.tolist() for name, value in bank.calculator(
        words, shown["plane"], shown["temperature"], shown["causal"]).items()}


def assert_matches_python(shown: dict, language: str = DEFAULT) -> None:
    expected = python_head(shown, language)
    for name in STAGES:
        assert close(shown[name], expected[name], 1e-9), (name, shown[name])


def tip_of(shown: dict, j: int) -> list[float]:
    """Where word J's arrow points: the ambiguous word's query, another word's key."""
    ambiguous = [role for _, role in shown["words"]].index("ambiguous")
    return shown["Q"][j] if j == ambiguous else shown["K"][j]


def move(page, j: int, tip) -> None:
    page.locator(f"{WIDGET} select").select_option(str(j))
    for c, value in enumerate(tip):
        sliders(page).nth(c).fill(str(value))


def drag(page, plane, start, end) -> None:
    """Drag on the look PLANE from START to END, in plane coordinates (y up; the plane
    shows [-3.8, 3.8] on each axis)."""
    plane.scroll_into_view_if_needed()
    box = plane.bounding_box()
    scale = box["width"] / 7.6

    def at(x, y):
        return box["x"] + (x + 3.8) * scale, box["y"] + (3.8 - y) * scale

    page.mouse.move(*at(*start))
    page.mouse.down()
    page.mouse.move(*at(*end), steps=5)
    page.mouse.up()


def set_controls(page, temperature: float, causal: bool) -> None:
    sliders(page).nth(2).fill(str(temperature))
    checkbox = page.locator(f"{WIDGET} input[type=checkbox]")
    if checkbox.is_checked() != causal:
        checkbox.check() if causal else checkbox.uncheck()


SWEEP = [  # word (from 0), where its arrow goes, temperature, causal
    (5, (3.0, 0.0), 1.0, True),  # the query of "bank", where it starts
    (5, (0.0, 3.0), 1.0, True),  # the query turned to "bank"'s own key
    (2, (-1.0, 0.5), 0.25, True),  # the clue's key turned away
    (0, (2.5, -0.4), 0.25, False),  # a plain word's key towards the query, mask off
    (4, (-3.5, 3.5), 4.0, False),
    (5, (-1.2, -2.7), 0.6, True),
]


def test_the_calculator_starts_as_the_bank_model(open_site_page, examples):
    page, traffic = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    start = state(page)
    sentence = examples["bank"]["sentences"][DEFAULT][1]
    embeddings = examples["bank"]["model"]["embeddings"]
    assert start["plane"] == [embeddings[role][:2] for role in sentence["roles"]]
    assert start["temperature"] == 1 and start["causal"] is True
    assert close(start["weights"], sentence["weights"], 1e-12)
    assert start["h"] == pytest.approx(sentence["h"], abs=1e-12)
    assert start["sense"] == pytest.approx(sentence["sense_after"], abs=1e-12)
    assert_matches_python(start)
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_every_stage_agrees_with_the_python_head_over_a_sweep(open_site_page):
    page, traffic = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    for j, tip, temperature, causal in SWEEP:
        move(page, j, tip)
        set_controls(page, temperature, causal)
        shown = state(page)
        assert shown["selected"] == j
        assert tip_of(shown, j) == pytest.approx(list(tip), abs=1e-12)
        assert (shown["temperature"], shown["causal"]) == (temperature, causal)
        assert_matches_python(shown)
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_the_causal_switch_changes_the_earlier_rows_only(open_site_page, examples):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    masked = state(page)
    page.locator(f"{WIDGET} input[type=checkbox]").uncheck()
    open_ = state(page)
    assert masked["masked"][0][1] is None and open_["masked"][0][1] is not None
    assert open_["weights"][-1] == pytest.approx(masked["weights"][-1], abs=1e-12)
    assert open_["weights"][0] != pytest.approx(masked["weights"][0], abs=1e-3)
    assert_matches_python(open_)
    page.locator(f"{WIDGET} .calculator__controls .md-button").click()  # the bank model
    assert state(page)["causal"] is True


def test_the_keyboard_moves_every_control(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    before = state(page)
    first = sliders(page).first
    first.focus()
    page.keyboard.press("ArrowRight")
    moved = state(page)
    assert tip_of(moved, 5)[0] == pytest.approx(tip_of(before, 5)[0] + 0.1, abs=1e-12)
    page.locator(f"{WIDGET} select").focus()
    page.keyboard.press("ArrowUp")
    assert state(page)["selected"] == 4
    sliders(page).nth(1).focus()
    page.keyboard.press("ArrowLeft")
    assert tip_of(state(page), 4)[1] == pytest.approx(tip_of(before, 4)[1] - 0.1, abs=1e-12)
    sliders(page).nth(2).focus()
    page.keyboard.press("ArrowLeft")
    assert state(page)["temperature"] == pytest.approx(0.95, abs=1e-12)
    page.locator(f"{WIDGET} input[type=checkbox]").focus()
    page.keyboard.press("Space")
    assert state(page)["causal"] is False
    assert_matches_python(state(page))


def test_dragging_an_arrow_head_moves_that_arrow(open_site_page):
    page, traffic = open_site_page(DEFAULT, "attention/")
    plane = page.locator(f"{WIDGET} .calculator__plane")
    drag(page, plane, (3.0, 0.0), (1.5, 1.5))  # the head of "bank"'s query
    # Chromium hands pointer moves to the page with its next frames, which on a busy
    # machine can come after mouse.up() has returned: give the drag time to arrive.
    page.wait_for_function(
        "(s) => { const [x, y] = JSON.parse(document.querySelector(s).dataset.state).Q[5];"
        " return Math.abs(x - 1.5) < 0.11 && Math.abs(y - 1.5) < 0.11; }", arg=WIDGET)
    moved = state(page)
    assert moved["selected"] == 5
    assert all(abs(v * 10 - round(v * 10)) < 1e-9 for v in moved["Q"][5])  # on the grid
    assert_matches_python(moved)
    assert sliders(page).nth(0).input_value() == str(moved["Q"][5][0])
    assert traffic.console_errors == [] and traffic.page_errors == []


def printed(value, language: str, style: str = "sig3") -> str:
    if isinstance(value, list):
        return format_vector(value, style, language)
    return f"{MINUS}∞" if value == -math.inf else format_value(value, style, language)


CELLS = "rows => rows.map(r => Array.from(r.querySelectorAll('td'), td => td.textContent))"


@pytest.mark.parametrize("language", (DEFAULT, TRANSLATIONS[-1]))
def test_the_cells_a_reader_sees_are_the_python_heads_numbers(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    move(page, 2, (-1.0, 0.5))
    set_controls(page, 0.6, False)
    expected = python_head(state(page), language)
    rows = page.eval_on_selector_all(f"{WIDGET} table.calculator__row tbody tr", CELLS)
    last = len(rows) - 1
    # What the head computes to two decimals, the model's values as the article has them.
    assert rows == [[printed(expected["masked"][last][j], language, "fix2"),
                     printed(expected["weights"][last][j], language, "fix2"),
                     printed(expected["V"][j], language, "sig2"),
                     printed(expected["weighted"][last][j], language, "fix2")]
                    for j in range(len(rows))]
    footer = page.eval_on_selector_all(f"{WIDGET} table.calculator__row tfoot tr", CELLS)
    assert footer == [[printed(expected["h"], language, "fix2")],
                      [printed(expected["sense"], language, "fix2")]]
    grid = page.eval_on_selector_all(
        f"{WIDGET} table.calculator__pattern tbody tr",
        "rows => rows.map(r => Array.from(r.querySelectorAll('td'), td => td.textContent))")
    assert grid == [[printed(w, language, "fix2") for w in row] for row in expected["weights"]]
    assert traffic.console_errors == [] and traffic.page_errors == []


def compose(page, tokens) -> None:
    """Empty the sentence, then add TOKENS from the word tiles, in order."""
    page.locator(f"{WIDGET} .calculator__builder .md-button").click()
    for token in tokens:
        page.locator(f'{WIDGET} .calculator__palette button[data-token="{token}"]').click()
    assert [w for w, _ in state(page)["words"]] == list(tokens)


def vocabulary(language: str) -> dict[str, str]:
    """The bank model's words on LANGUAGE's page: role -> the first word of that role."""
    words = {}
    for sentence in bank.sentences()[language]:
        for token, role in sentence:
            words.setdefault(role, token)
    return words


@pytest.mark.parametrize("language", (DEFAULT, TRANSLATIONS[0]))
def test_composed_sentences_agree_with_the_python_head(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    w = vocabulary(language)
    sentences = [  # both clues before "bank"; a clue after it; a longer mix
        (w["clue_1"], w["clue_2"], w["ambiguous"]),
        (w["plain"], w["ambiguous"], w["clue_2"]),
        (w["clue_2"], w["plain"], w["ambiguous"], w["clue_1"], w["plain"]),
    ]
    for tokens in sentences:
        compose(page, tokens)
        assert_matches_python(state(page), language)
        move(page, 0, (1.2, -0.7))
        set_controls(page, 1.7, True)
        assert_matches_python(state(page), language)
        set_controls(page, 1.0, False)
        assert_matches_python(state(page), language)
        set_controls(page, 1.0, True)
    # The clue after "bank" is hidden from its query: weight 0, its key faded.
    compose(page, sentences[1])
    shown = state(page)
    assert shown["masked"][1][2] is None and shown["weights"][1][2] == 0
    assert "is-masked" in page.locator(f'{WIDGET} .calculator__point[data-arrow="2"]'
                                       ).get_attribute("class")
    set_controls(page, 1.0, False)
    assert state(page)["weights"][1][2] > 0.5  # with the mask off, "bank" finds it
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_without_bank_the_calculator_waits_for_it(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    w = vocabulary(DEFAULT)
    compose(page, (w["plain"], w["clue_1"]))
    assert page.locator(f"{WIDGET} .calculator__results").is_hidden()
    assert "Q" not in state(page)
    page.locator(f'{WIDGET} .calculator__palette button[data-token="{w["ambiguous"]}"]').click()
    assert page.locator(f"{WIDGET} .calculator__results").is_visible()
    assert page.locator(
        f'{WIDGET} .calculator__palette button[data-token="{w["ambiguous"]}"]').is_disabled()
    assert_matches_python(state(page))
    page.locator(f"{WIDGET} .calculator__tile").first.click()  # takes the plain word out
    assert [role for _, role in state(page)["words"]] == ["clue_1", "ambiguous"]


def test_the_tasks_check_themselves_against_the_numbers(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    assert state(page)["tasks"] == {"even": False, "undecided": False, "hot": False,
                                    "outcome": None}
    move(page, 5, (0.0, 2.0))  # the query at right angles to the clue's key
    shown = state(page)
    assert shown["tasks"]["even"]
    assert shown["weights"][5][2] == pytest.approx(shown["weights"][5][5], abs=5e-3)
    w = vocabulary(DEFAULT)
    compose(page, (w["clue_1"], w["clue_2"], w["ambiguous"]))
    shown = state(page)
    assert shown["tasks"]["undecided"]
    assert abs(shown["sense"][0] - shown["sense"][1]) <= 0.01
    set_controls(page, 3.5, True)
    assert not state(page)["tasks"]["hot"]  # no prediction yet
    set_controls(page, 1.0, True)
    compose(page, (w["plain"], w["clue_2"], w["ambiguous"]))
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    page.locator(f"{WIDGET} .calculator__tasks button", has_text=words["shrink"]).click()
    set_controls(page, 3.0, True)
    done = state(page)["tasks"]
    assert done["hot"] and done["outcome"]["after"] < done["outcome"]["before"]
    assert done["outcome"]["right"]
    assert page.locator(f"{WIDGET} .calculator__mark.is-done").count() == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_widget_speaks_the_pages_language(open_site_page, language):
    page, traffic = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    assert page.locator(f"{WIDGET} .widget__title").text_content() == words["title"]
    for control in page.locator(f"{WIDGET} input, {WIDGET} select").all():
        assert control.get_attribute("aria-label") or control.get_attribute("id")
    shown = state(page)
    assert_matches_python(shown, language)
    tokens = [token for token, _ in bank.sentences()[language][1]]
    options = page.locator(f"{WIDGET} select option").all_inner_texts()
    # An arrow per word, and last the key of "bank", whose query is its own arrow.
    assert len(options) == len(tokens) + 1
    assert all(t in o for t, o in zip([*tokens, tokens[-1]], options, strict=True))
    assert options[-1] == words["keyOf"].format(w=tokens[-1])
    # What the planes show, said for a screen reader: the largest weight, where "bank" goes.
    status = page.locator(f"{WIDGET} .widget__status")
    assert format_value(max(shown["weights"][-1]), "fix2", language) in status.text_content()
    assert format_vector(shown["sense"], "fix2", language) in status.text_content()
    assert status.get_attribute("role") == "status" and status.bounding_box()["width"] <= 1
    assert traffic.console_errors == [] and traffic.page_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_picture_and_the_table_remain(open_site_page, language):
    page, _ = open_site_page(language, "attention/", java_script_enabled=False)
    assert page.locator(".calculator").count() == 0
    assert page.locator(".attention-calculator p").is_visible()
    # The static table of the sentence: one row per word, the words in order.
    tokens = [token for token, _ in bank.sentences()[language][1]]
    tables = page.locator("#queries-keys ~ * table, #queries-keys ~ table")
    firsts = [tables.nth(i).locator("tbody tr th, tbody tr td:first-child").all_inner_texts()
              for i in range(tables.count())]
    assert any([cell.strip() for cell in cells] == tokens for cells in firsts), firsts


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_calculator_has_no_axe_violations(open_site_page, scheme):
    page, _ = open_site_page(TRANSLATIONS[-1], "attention/", scheme=scheme)
    page.wait_for_selector(WIDGET)
    page.locator(f"{WIDGET} input[type=checkbox]").uncheck()
    page.locator(f"{WIDGET} input[type=checkbox]").check()  # −∞ and zero weights shown
    assert axe.violations(page, ".attention-calculator") == []


@pytest.mark.parametrize("scheme", ("light", "dark"))
def test_at_phone_width_the_calculator_fits_and_passes_axe(open_site_page, scheme):
    page, traffic = open_site_page(TRANSLATIONS[0], "attention/", scheme=scheme, fresh=True)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(WIDGET)
    widget = page.locator(WIDGET)
    widget.scroll_into_view_if_needed()
    assert widget.bounding_box()["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert axe.violations(page, ".attention-calculator") == []
    assert traffic.console_errors == [] and traffic.page_errors == []


# Each table's scrolling box: how much wider its content is than the box.
OVERFLOW = """(widget) => Array.from(widget.querySelectorAll('.widget__scroll'),
  (box) => box.scrollWidth - box.clientWidth)"""
# Each weight's bar and number against their cell, and the cell against the next one.
BARS = """(widget) => Array.from(widget.querySelectorAll('table.calculator__row tbody tr'),
  (row) => {
    const bar = row.querySelector('.calculator__bar');
    const [own, cell, next] = [bar, bar.parentElement, bar.parentElement.nextElementSibling]
      .map((node) => node.getBoundingClientRect());
    return { barInside: own.right <= cell.right + 0.5,
             cellBeforeNext: cell.right <= next.left + 0.5 };
  })"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_phone_the_tables_fit_and_no_bar_reaches_into_the_next_column(open_site_page,
                                                                          language):
    page, _ = open_site_page(language, "attention/", fresh=True)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(WIDGET)
    widget = page.locator(WIDGET)
    assert widget.evaluate(OVERFLOW) == [0, 0]  # neither table scrolls sideways
    assert all(r["barInside"] and r["cellBeforeNext"] for r in widget.evaluate(BARS))


# Each arrow's handle and the reach a finger can take it by, on screen.
TARGETS = """(widget) => Array.from(widget.querySelectorAll('.calculator__point'),
  (point) => [point.querySelector('.calculator__handle'), point.querySelector('.calculator__reach')]
    .map((c) => c.getBoundingClientRect()).map((b) => [b.width, b.height]))"""


def test_on_a_phone_every_arrow_has_a_fingers_target_and_drags_by_it(open_site_page):
    page, traffic = open_site_page(DEFAULT, "attention/", fresh=True)
    page.set_viewport_size(PHONE)
    page.wait_for_selector(WIDGET)
    targets = page.locator(WIDGET).evaluate(TARGETS)
    assert len(targets) == len(state(page)["words"]) + 1  # "bank"'s own key too
    assert all(min(reach) >= FINGER for _, reach in targets), targets
    # Taken a little off its handle, within reach: the clue's key, from [1, 0] to [2, 1].
    drag(page, page.locator(f"{WIDGET} .calculator__plane"), (1.35, -0.2), (2.0, 1.0))
    page.wait_for_function(
        "(s) => { const [x, y] = JSON.parse(document.querySelector(s).dataset.state).K[2];"
        " return Math.abs(x - 2) < 0.11 && Math.abs(y - 1) < 0.11; }", arg=WIDGET)
    assert state(page)["selected"] == 2
    assert_matches_python(state(page))
    assert traffic.console_errors == [] and traffic.page_errors == []


def test_the_key_of_bank_moves_with_its_query_from_one_embedding(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    own = len(state(page)["words"])  # the arrow after the words' own
    move(page, own, (1.0, 1.0))  # "bank"'s key, to split its attention with the clue
    shown = state(page)
    ambiguous = own - 1
    assert shown["selected"] == own and shown["K"][ambiguous] == pytest.approx([1.0, 1.0])
    assert shown["plane"][ambiguous] == pytest.approx([1.0, 1.0])  # W_K copies the plane
    assert shown["Q"][ambiguous] != pytest.approx([3.0, 0.0])  # and its query turned with it
    assert_matches_python(shown)
    assert sliders(page).nth(0).input_value() == "1"


# Each label of the sense plane, as the plane's box (y up): the diagonal y = x runs
# through a label when the label's x and y ranges overlap.
LABELS = """(widget) => Array.from(
  widget.querySelectorAll(
    '.calculator__sense text:not(.sense-plane__name):not(.sense-plane__tick)'),
  (text) => { const b = text.getBBox();
              return [text.textContent, b.x, b.x + b.width, -(b.y + b.height), -b.y]; })"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_label_of_the_sense_plane_lies_across_its_diagonal(open_site_page, language):
    page, _ = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    for text, x0, x1, y0, y1 in page.locator(WIDGET).evaluate(LABELS):
        if text.strip():
            assert x1 < y0 or y1 < x0, (text, x0, x1, y0, y1)


def _overlap(a, b) -> bool:
    return not (a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2])


MOVE = """(widget) => { const line = widget.querySelector('.calculator__move');
  const at = (name) => Number(line.getAttribute(name));
  return [[at('x1'), -at('y1')], [at('x2'), -at('y2')]]; }"""


def uncrossed(page) -> None:
    """No label of the sense plane lies across the arrow of the move of "bank"."""
    texts = page.locator(WIDGET).evaluate(LABELS)
    moved = page.locator(WIDGET).evaluate(MOVE)
    assert not any(_crosses(box, moved) for text, *box in texts if text.strip()), (texts, moved)


def _crosses(box, segment) -> bool:
    """Whether SEGMENT ([[x1, y1], [x2, y2]]) runs through BOX ([x0, x1, y0, y1])."""
    (ax, ay), (bx, by) = segment
    low, high = 0.0, 1.0
    for start, step, lo, hi in ((ax, bx - ax, box[0], box[1]), (ay, by - ay, box[2], box[3])):
        if step == 0:
            if not lo <= start <= hi:
                return False
        else:
            ta, tb = (lo - start) / step, (hi - start) / step
            low, high = max(low, min(ta, tb)), min(high, max(ta, tb))
    return low <= high


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sense_planes_labels_name_what_they_mark_and_never_overlap(open_site_page,
                                                                       language):
    """The value of "bank" and where "bank" lands are told apart by their labels, no
    two labels lie on each other, undecided "bank" (its h on its own value) included,
    and the arrow of the move of "bank" runs through none where the plane leaves a label
    room beside it: not where "bank" moves up the money axis to the plane's top, right
    of the clue's value, whose label then has no spot inside the plane off the arrow."""
    page, _ = open_site_page(language, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    w = vocabulary(language)
    for tokens in ((w["plain"], w["clue_2"], w["ambiguous"]),
                   (w["clue_1"], w["clue_2"], w["ambiguous"])):  # the second undecided
        compose(page, tokens)
        texts = page.locator(WIDGET).evaluate(LABELS)
        shown = [text for text, *_ in texts if text.strip()]
        assert words["landed"].format(w=w["ambiguous"]) in shown
        assert words["valueOf"].format(w=w["ambiguous"]) in shown
        assert "h" in shown
        boxes = [box for text, *box in texts if text.strip()]
        assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]), texts
    uncrossed(page)  # the second composition, undecided "bank"


def test_the_planes_have_ticks_and_named_axes(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    look = page.locator(f"{WIDGET} .calculator__plane")
    assert look.locator(".calculator__axis-name").all_text_contents() == ["u", "w"]
    ticks = look.locator(".calculator__tick").all_text_contents()
    assert sorted(set(ticks)) == sorted({printed(float(t), DEFAULT, "int") for t in range(-3, 4)
                                         if t})
    sense = page.locator(f"{WIDGET} .calculator__sense .sense-plane__tick")
    assert sorted(sense.all_text_contents()) == ["0", "1", "1", "2", "2"]


def test_a_tie_is_reported_as_a_tie(open_site_page):
    """With the query of "bank" at right angles to the clue's key, the clue and "bank"
    itself get the same weight: the status names both, not one winner."""
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    move(page, 5, (0.0, 3.0))
    shown = state(page)
    assert shown["weights"][5][2] == pytest.approx(shown["weights"][5][5], abs=1e-12)
    status = page.locator(f"{WIDGET} .widget__status").text_content()
    tokens = [token for token, _ in shown["words"]]
    both = f"“{tokens[2]}” and “{tokens[5]}”"
    assert status == words["statusTie"].format(
        w=tokens[5], v=both, weight=format_value(shown["weights"][5][2], "fix2", DEFAULT),
        after=format_vector(shown["sense"], "fix2", DEFAULT))
    move(page, 5, (3.0, 0.0))  # back to one winner, the clue
    status = page.locator(f"{WIDGET} .widget__status").text_content()
    assert status.startswith(words["status"].split("{v}")[0].format(w=tokens[5]) + tokens[2])


def test_a_full_sentence_without_bank_says_to_take_a_word_out(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    w = vocabulary(DEFAULT)
    compose(page, [w["plain"]] * 8)
    palette = page.locator(f"{WIDGET} .calculator__palette button")
    assert all(palette.nth(i).is_disabled() for i in range(palette.count()))
    note = page.locator(f"{WIDGET} .calculator__note").text_content()
    assert note == words["fullNoBank"].format(w=w["ambiguous"])
    page.locator(f"{WIDGET} .calculator__tile").first.click()  # a word out: room for "bank"
    assert page.locator(f"{WIDGET} .calculator__note").text_content() == words[
        "needBank"].format(w=w["ambiguous"])
    assert page.locator(
        f'{WIDGET} .calculator__palette button[data-token="{w["ambiguous"]}"]').is_enabled()


def test_the_first_task_has_a_hint_on_request(open_site_page):
    page, _ = open_site_page(DEFAULT, "attention/")
    page.wait_for_selector(WIDGET)
    words = json.loads(page.locator("#site-language").text_content())["words"]["calculator"]
    button = page.locator(f"{WIDGET} .calculator__hint-button")
    text = page.locator(f"{WIDGET} .calculator__hint-text")
    assert button.get_attribute("aria-expanded") == "false" and text.is_hidden()
    button.click()
    assert button.get_attribute("aria-expanded") == "true" and text.is_visible()
    assert text.text_content() == words["hintEven"].format(w=vocabulary(DEFAULT)["ambiguous"])
    assert button.get_attribute("aria-controls") == text.get_attribute("id")
    button.click()
    assert text.is_hidden()
