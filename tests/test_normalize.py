"""Normalize: free text onto the closed label set, or INVALID, exactly as the seed does."""

import pytest

from conftest import LABELS, evalpy

I = evalpy.INVALID

TABLE = [
    # what the seed accepts: case, a final full stop, a missing accent
    ("bug", "bug"),
    ("Bug", "bug"),
    ("BUG", "bug"),
    ("bug.", "bug"),
    ("Bug.", "bug"),
    ("facturacion", "facturación"),
    ("Facturación", "facturación"),
    ("FACTURACIÓN.", "facturación"),
    ("peticion", "petición"),
    ("Petición", "petición"),
    ("acceso", "acceso"),
    ("Accesó", "acceso"),                 # an accent too many is still the label
    # whitespace and the stripped characters . " ' ` * at both ends
    ("  acceso\n", "acceso"),
    ("\tbug\r\n", "bug"),
    ('"bug"', "bug"),
    ("'acceso'", "acceso"),
    ("`petición`", "petición"),
    ("**bug**", "bug"),
    ("*facturación*.", "facturación"),
    ('."bug".', "bug"),
    ("...bug...", "bug"),
    # what the seed rejects: the label inside a sentence, a prefix, an explanation
    ("Categoría: Bug", I),
    ("categoría: bug", I),
    ("La categoría es bug.", I),
    ("bug\n\nEl ticket describe un fallo de la aplicación.", I),
    ("Bug (error de la aplicación)", I),
    ("bug, acceso", I),
    ("bugs", I),
    ("billing", I),
    ("", I),
    ("   ", I),
    ("**", I),
    # whitespace inside the stripped characters is not stripped again (the seed's order)
    ("** bug **", I),
    ("bug .", I),
    ("- bug", I),
    ("[bug]", I),
    ("INVALID", I),
]


@pytest.mark.parametrize("answer, label", TABLE)
def test_normalize(answer, label):
    assert evalpy.normalize(answer, LABELS) == label


def test_decomposed_accents_match_composed_labels():
    assert evalpy.normalize("petic\u0069\u0301on", LABELS) == "petición"
    assert evalpy.normalize("facturaci\u00f3n", ["facturacio\u0301n", "bug"]) == "facturacio\u0301n"
