"""examples/examples.schema.json: the real examples.json validates against it, every
name in it is described for the authors who cite it, and a wrong file fails."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from tests.project import LANGUAGES, ROOT

FIRST, SECOND, THIRD = LANGUAGES[:3]

SCHEMA_PATH = ROOT / "examples" / "examples.schema.json"
# The keywords under which a schema holds further schemas (those the schema uses).
ONE_SCHEMA = ("additionalProperties", "items", "not", "propertyNames")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_MAPS = ("properties", "$defs")


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def data(examples_dir) -> dict:
    return json.loads((examples_dir / "examples.json").read_text(encoding="utf-8"))


def subschemas(schema: dict, where: str = "#"):
    """(location, schema) of SCHEMA and of every schema inside it."""
    yield where, schema
    for keyword in ONE_SCHEMA:
        if isinstance(schema.get(keyword), dict):
            yield from subschemas(schema[keyword], f"{where}/{keyword}")
    for keyword in SCHEMA_LISTS:
        for i, inner in enumerate(schema.get(keyword, ())):
            yield from subschemas(inner, f"{where}/{keyword}/{i}")
    for keyword in SCHEMA_MAPS:
        for name, inner in schema.get(keyword, {}).items():
            yield from subschemas(inner, f"{where}/{keyword}/{name}")


def description(schema: dict, root: dict) -> str:
    """SCHEMA's own description, or that of the definition its $ref names."""
    if schema.get("description"):
        return schema["description"]
    reference = schema.get("$ref", "")
    if reference.startswith("#/$defs/"):
        return description(root["$defs"][reference.removeprefix("#/$defs/")], root)
    return ""


def test_the_real_examples_validate_against_the_schema(validator, data):
    errors = [f"{error.json_path}: {error.message}" for error in validator.iter_errors(data)]
    assert errors == []


def test_every_property_at_every_level_has_a_description(schema):
    undescribed = [f"{where}/properties/{name}"
                   for where, inner in subschemas(schema)
                   for name, property_schema in inner.get("properties", {}).items()
                   if not description(property_schema, schema).strip()]
    # The per-language maps' entries are described where the map names them.
    undescribed += [f"{where}/additionalProperties" for where, inner in subschemas(schema)
                    if isinstance(inner.get("additionalProperties"), dict)
                    and not description(inner["additionalProperties"], schema).strip()]
    assert schema["description"].strip()
    assert undescribed == []


def test_every_object_is_closed(schema):
    """A key of examples.json is one the schema names (and so describes) or an entry of
    a map whose entries it describes: no object of the schema admits other keys."""
    open_objects = [where for where, inner in subschemas(schema)
                    if inner.get("type") == "object" and "additionalProperties" not in inner]
    assert open_objects == []


def test_every_language_of_the_pages_is_in_the_maps(data):

    assert set(data["bank"]["sentences"]) == set(LANGUAGES)
    assert set(data["heads"]["sentences"]) == set(LANGUAGES)


def rename(data, path, new):
    *parents, key = path
    for part in parents:
        data = data[part]
    data[new] = data.pop(key)


def replace(data, path, value):
    *parents, key = path
    for part in parents:
        data = data[part]
    data[key] = value


PLANTED = [  # what is planted, and where the validator must report it
    ("a renamed top-level key", lambda d: rename(d, ["bank", "shift"], "shfit"), "$.bank"),
    ("a renamed key of a sentence",
     lambda d: rename(d, ["bank", "sentences", SECOND, 0, "clue_weight"], "clue_weigth"),
     f"$.bank.sentences.{SECOND}[0]"),
    ("a renamed key of the layer's sentences",
     lambda d: rename(d, ["heads", "sentences", THIRD, 1, "updated"], "update"),
     f"$.heads.sentences.{THIRD}[1]"),
    ("a string where a number is",
     lambda d: replace(d, ["two_positions", "q_2"], "1.0"), "$.two_positions.q_2"),
    ("a string in a matrix",
     lambda d: replace(d, ["bank", "model", "W_Q", 0, 1], "-3"), "$.bank.model.W_Q[0][1]"),
    ("a string in a per-language entry",
     lambda d: replace(d, ["bank", "sentences", FIRST, 1, "h", 0], "0.05"),
     f"$.bank.sentences.{FIRST}[1].h[0]"),
    ("a vector of the wrong length",
     lambda d: replace(d, ["heads", "query"], [3.0, 0.0, 0.0]), "$.heads.query"),
    ("a weight above 1", lambda d: replace(d, ["scaling", "largest", "largest_unscaled"], 1.5),
     "$.scaling.largest.largest_unscaled"),
    ("a language with one sentence",
     lambda d: d["bank"]["sentences"][THIRD].pop(), f"$.bank.sentences.{THIRD}"),
]


@pytest.mark.parametrize(("plant", "where"), [(plant, where) for _, plant, where in PLANTED],
                         ids=[name for name, _, _ in PLANTED])
def test_a_planted_error_fails_validation_where_it_is(validator, data, plant, where):
    planted = copy.deepcopy(data)
    plant(planted)
    paths = [error.json_path for error in validator.iter_errors(planted)]
    assert paths, "the planted error validated"
    assert where in paths
