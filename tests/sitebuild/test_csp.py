"""A page's Content-Security-Policy names the hash of each inline script and style it
holds, and nothing else inline (sitebuild.csp)."""

from __future__ import annotations

import base64
import hashlib

import pytest

from sitebuild import csp

PAGE = """<!doctype html><html><head>
<meta charset="utf-8">
<script>var a = 1;</script>
<script id="__config" type="application/json">{"not": "run"}</script>
<script src="assets/x.js" defer></script>
<style>.x { color: red; }</style>
</head><body><script type="module">import "./y.js";</script></body></html>"""


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def directives(page: str) -> dict[str, list[str]]:
    return {name: values for name, *values in
            (part.split() for part in csp.policy(page).split(";"))}


def test_each_inline_script_that_runs_is_allowed_by_its_hash_and_nothing_else_inline():
    script_src = directives(PAGE)["script-src"]
    assert script_src == ["'self'", *sorted([sha256("var a = 1;"),
                                             sha256('import "./y.js";')])]
    assert sha256('{"not": "run"}') not in script_src  # a data block is not run


def test_each_inline_style_element_is_allowed_by_its_hash():
    assert directives(PAGE)["style-src"] == ["'self'", sha256(".x { color: red; }")]


def test_a_page_without_inline_code_allows_its_own_origin_only():
    found = directives("<html><head><meta charset='utf-8'></head><body></body></html>")
    assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"]
    assert found["object-src"] == ["'none'"]


def test_the_policy_comes_right_after_the_charset_before_any_script():
    page = csp.with_policy(PAGE)
    meta = page.index('<meta http-equiv="Content-Security-Policy"')
    assert page.index('<meta charset="utf-8">') < meta < page.index("<script")
    assert "&#x27;" not in page and "'self'" in page[meta:page.index("<script")]


def test_a_page_without_a_head_is_an_error():
    with pytest.raises(csp.PolicyError):
        csp.with_policy("<p>no head</p>")
