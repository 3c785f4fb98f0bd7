"""The site's scripts are ES modules that say what they use: every helper is defined in
one module and imported where it is used, every import names what its module exports,
nothing is shared through a global of window, and every module is reached from the one
that each page loads, site.js. Read from the source; the browser tests run it."""

from __future__ import annotations

import re
from collections import defaultdict

from tests.project import ROOT

SCRIPTS = ROOT / "docs" / "assets" / "javascripts"
ENTRY = "site.js"

# A declaration at the top level of a module (a module's body is not indented).
TOP_LEVEL = re.compile(r"^(?:export )?(?:async )?(?:function\*?|const|let|var|class) "
                       r"([A-Za-z_$][\w$]*)", re.MULTILINE)
EXPORT = re.compile(r"^export (?:async )?(?:function\*?|const|let|class) ([A-Za-z_$][\w$]*)",
                    re.MULTILINE)
NAMED_IMPORT = re.compile(r'^import \{([^}]*)\}\s*from "\./([^"]+)";', re.MULTILINE)
NAMESPACE_IMPORT = re.compile(r'^import \* as (\w+) from "\./([^"]+)";', re.MULTILINE)
DYNAMIC_IMPORT = re.compile(r'\bimport\("\./([^"]+)"\)')
ANY_IMPORT = re.compile(r'\bimport\b[^;]*?"([^"]+)"|\bimport\("([^"]+)"\)')

# The parts that every widget has, each its own: the files say so in their headers
# ("state, the DOM, the events"). The same name in two widgets is two different jobs,
# not a copied helper; start() is what site.js calls in each module.
WIDGET_PARTS = {"start", "mount", "setup", "initialState", "compute", "buildDom", "render",
                "wire"}


def modules() -> dict[str, str]:
    found = {path.name: path.read_text(encoding="utf-8") for path in SCRIPTS.glob("*.js")}
    assert ENTRY in found and len(found) > 5, sorted(found)
    return found


def exports(source: str) -> set[str]:
    return set(EXPORT.findall(source))


def test_no_helper_is_defined_in_two_files():
    where = defaultdict(list)
    for name, source in modules().items():
        for helper in set(TOP_LEVEL.findall(source)) - WIDGET_PARTS:
            where[helper].append(name)
    twice = {helper: files for helper, files in where.items() if len(files) > 1}
    assert not twice, f"defined in more than one file (import it from one): {twice}"


def test_the_shared_maths_svg_and_number_helpers_live_in_one_module_each():
    found = modules()
    for helper, home in [("softmax", "maths.js"), ("matmul", "maths.js"),
                         ("mulberry32", "maths.js"), ("normals", "maths.js"),
                         ("adam", "maths.js"), ("svg", "dom.js"), ("parse", "common.js"),
                         ("formatNumber", "common.js")]:
        assert helper in exports(found[home]), f"{home} does not export {helper}"


def test_every_import_names_a_module_of_the_site_and_what_it_exports():
    found = modules()
    for name, source in found.items():
        for specifier in [a or b for a, b in ANY_IMPORT.findall(source)]:
            assert specifier.startswith("./") and specifier[2:] in found, \
                f"{name} imports {specifier!r}: not a module of {SCRIPTS.name}/"
        every = [a or b for a, b in ANY_IMPORT.findall(source) if (a or b).startswith("./")]
        read = (NAMED_IMPORT.findall(source) + NAMESPACE_IMPORT.findall(source)
                + [(None, module) for module in DYNAMIC_IMPORT.findall(source)])
        assert len(every) == len(read), f"{name}: an import of a form this test cannot read"
        for names, module in NAMED_IMPORT.findall(source):
            wanted = {part.split(" as ")[0].strip() for part in names.split(",") if part.strip()}
            missing = wanted - exports(found[module])
            assert not missing, f"{name} imports {sorted(missing)} that {module} does not export"
        for alias, module in NAMESPACE_IMPORT.findall(source):
            used = set(re.findall(rf"(?<![\w./-]){alias}\.(\w+)", source))
            missing = used - exports(found[module])
            assert not missing, f"{name} uses {alias}.{sorted(missing)}: not exported by {module}"


def test_no_script_shares_anything_through_a_global_of_window():
    for name, source in modules().items():
        assigned = re.findall(r"\bwindow\.(\w+)\s*=(?!=)", source)
        assert not assigned, f"{name} sets window.{assigned}: export it instead"


def test_every_module_is_reached_from_the_entry_that_every_page_loads():
    found = modules()
    reached, todo = set(), [ENTRY]
    while todo:
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        source = found[name]
        todo += [module for _, module in NAMED_IMPORT.findall(source)]
        todo += [module for _, module in NAMESPACE_IMPORT.findall(source)]
        todo += DYNAMIC_IMPORT.findall(source)
    assert reached == set(found), f"never loaded: {sorted(set(found) - reached)}"
