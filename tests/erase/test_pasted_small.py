"""The shared SVG figures pasted as images at the sizes where their key used to come out wrong.

The placement audit (``test_placement_audit``) found two placements whose pixels and
readability held but whose key did not, and a sweep of widths 200–504 pt found three more:

* the bone figure 200 pt wide: the leader of "Trabecular (spongy) bone" leaves from between
  its two lines, each line found it in the pixels, and the grouper took them for two leaders;
* the bone figure 280 pt wide: "(membrane covering bone)" boxes 1.36 × as tall as
  "Periosteum" (its brackets), with the same x-height;
* the membrane figure 320 pt wide: a row of phospholipid heads read as "000000" (at 180 pt
  from the margin) or "700200000" (at 100 pt);
* the membrane figure 240 pt wide: "Filaments:of cytoskeleton", a word space read as a colon;
* the membrane figure 280 pt wide at 224 pt: "cytoskeleton" boxes 1.38 × as tall as
  "Filaments of" above it.

Each placement must key exactly the printed labels (``KEYS``, read off the figures by eye),
keep every pixel outside the label boxes and leave no key name readable.
"""

from __future__ import annotations

import numpy as np
import pytest

from labeler.erase.raster_path import _circles, _spaced
from tests.erase.test_pasted_figures import KEYS
from tests.erase.test_placement_audit import _outside_labels, _pasted, _readable, _rgb

DPI = 200

# (figure, width on the page in points, left offset from the margin)
PLACEMENTS = [
    ("bone-cross-section.svg", 200.0, 300.0),
    ("bone-cross-section.svg", 280.0, 0.0),
    ("cell-membrane-components.svg", 320.0, 180.0),
    ("cell-membrane-components.svg", 320.0, 100.0),
    ("cell-membrane-components.svg", 240.0, 0.0),
    ("cell-membrane-components.svg", 280.0, 224.0),
]


@pytest.fixture(params=PLACEMENTS, ids=lambda p: f"{p[0][:4]}-{p[1]:.0f}pt-at-{p[2]:.0f}")
def case(request):
    name, width, left = request.param
    return name, *_pasted(name, width, left)


def test_the_key_is_the_printed_labels(case):
    name, result, _ = case
    assert result.method == "ocr"
    assert sorted(label.text for label in result.labels) == KEYS[name]


def test_every_pixel_outside_the_labels_is_kept(case):
    _, result, clip = case
    question, answer = _rgb(result.question_png), _rgb(result.answer_png)
    outside = _outside_labels(result, clip, DPI, question.shape)
    assert np.array_equal(question[outside], answer[outside])
    assert not np.array_equal(question[~outside], answer[~outside])


def test_no_key_name_is_readable(case):
    name, result, _ = case
    assert _readable(result, name) == []


@pytest.mark.parametrize(
    ("read", "texture"),
    [
        ("000000", True),  # the membrane's heads at 320 pt, 180 pt from the margin
        ("700200000", True),  # the same row at 100 pt from the margin
        ("o0O", True),
        ("12", False),  # callout numbers
        ("100", False),
        ("O2", False),
        ("CO2", False),
        ("1715", False),
    ],
)
def test_a_long_run_of_round_digits_is_texture(read, texture):
    assert _circles(read) is texture


@pytest.mark.parametrize(
    ("read", "spaced"),
    [
        ("Filaments:of cytoskeleton", "Filaments of cytoskeleton"),
        ("Vertebral arch:", "Vertebral arch:"),
        ("Ratio 1:2", "Ratio 1:2"),
        ("Layer: Outer", "Layer: Outer"),
    ],
)
def test_a_colon_between_lowercase_letters_is_a_word_space(read, spaced):
    assert _spaced(read) == spaced
