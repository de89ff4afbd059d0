"""Tolerant answer parsing: fences, prose, trailing commas, truncation, garbage."""

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.runs.parse import Label, parse_answer
from labeler.status import ResponseStatus

ANSWER = {
    "diagram_is": "the human heart",
    "labels": [
        {"name": "aorta", "location_hint": "top centre"},
        {"name": "left ventricle", "location_hint": "lower right {thick wall}"},
    ],
}
LABELS = [Label("aorta", "top centre"), Label("left ventricle", "lower right {thick wall}")]


def test_plain_json():
    parsed = parse_answer(json.dumps(ANSWER))
    assert parsed.parse_ok and parsed.error is None
    assert parsed.diagram_is == "the human heart" and parsed.labels == LABELS


def test_fenced_json_with_prose_around():
    raw = f"Here is my answer:\n```json\n{json.dumps(ANSWER, indent=2)}\n```\nLet me know {{!}}"
    parsed = parse_answer(raw)
    assert parsed.parse_ok and parsed.labels == LABELS


def test_trailing_commas_are_forgiven_but_not_inside_strings():
    raw = '{"diagram_is": "a, b,]", "labels": [{"name": "aorta", "location_hint": "x",},],}'
    parsed = parse_answer(raw)
    assert parsed.parse_ok
    assert parsed.diagram_is == "a, b,]" and parsed.labels == [Label("aorta", "x")]


def test_prose_braces_before_the_answer_are_skipped():
    parsed = parse_answer('I think {maybe} this: {"diagram_is": "x", "labels": ["aorta"]}')
    assert parsed.parse_ok and parsed.labels == [Label("aorta")]


def test_truncated_answer_salvages_complete_labels_but_is_not_ok():
    full = json.dumps(ANSWER)
    cut = full[: full.index("left ventricle") + 5]
    parsed = parse_answer(cut, truncated=True)
    assert not parsed.parse_ok and parsed.error == "answer was truncated"
    assert parsed.diagram_is == "the human heart"
    assert parsed.labels == [Label("aorta", "top centre")]


def test_truncated_flag_wins_even_when_json_closed():
    parsed = parse_answer(json.dumps(ANSWER), truncated=True)
    assert not parsed.parse_ok and parsed.labels == LABELS


def test_unclosed_fence_from_a_cut_answer():
    parsed = parse_answer('```json\n{"diagram_is": "x", "labels": [{"name": "a"}, {"na', True)
    assert not parsed.parse_ok and parsed.labels == [Label("a")]


def test_failures_are_never_silently_empty_answers():
    for raw in ("", "   ", "The diagram shows a heart.", '{"diagram_is": "x"}', '{"labels": 3}'):
        parsed = parse_answer(raw)
        assert not parsed.parse_ok and parsed.error, raw
        assert parsed.status == ResponseStatus.PARSE_ERROR, raw
    only_bad = parse_answer('{"labels": [7, {"hint": "x"}]}')
    assert only_bad.status == ResponseStatus.PARSE_ERROR and "malformed label" in only_bad.error


def test_a_malformed_label_is_skipped_the_rest_kept_and_the_notes_say_so():
    parsed = parse_answer('{"labels": [{"name": "a"}, 5, {"name": "b"}, {"hint": "x"}]}')
    assert parsed.labels == [Label("a"), Label("b")]
    assert parsed.parse_ok and parsed.status == ResponseStatus.OK
    (note,) = parsed.notes
    assert "skipped 2 malformed" in note and "5" in note and "'hint'" in note


def test_raw_newlines_and_tabs_inside_strings_are_accepted():
    parsed = parse_answer('{"diagram_is": "human\nheart", "labels": [{"name": "aorta\t"}]}')
    assert parsed.parse_ok and parsed.diagram_is == "human\nheart"
    assert parsed.labels == [Label("aorta")]


def test_invalid_escape_keeps_the_raw_diagram_is_and_the_labels():
    parsed = parse_answer('{"diagram_is": "heart\\q", "labels": [{"name": "aorta"}]}')
    assert parsed.parse_ok and parsed.notes == ("repaired: invalid escapes kept as written",)
    assert parsed.diagram_is == "heart\\q" and parsed.labels == [Label("aorta")]
    cut = parse_answer('{"diagram_is": "a\\qb", "labels": [{"name": "x"}, {"na', truncated=True)
    assert cut.diagram_is == "a\\qb" and cut.labels == [Label("x")] and not cut.parse_ok
    assert cut.status == ResponseStatus.TRUNCATED


def test_empty_label_list_is_a_valid_answer():
    parsed = parse_answer('{"diagram_is": "x", "labels": []}')
    assert parsed.parse_ok and parsed.labels == []


PLACEHOLDER = re.compile(r"^<[^<>]*>$")  # "<term>": the prompt's own placeholder, dropped by design

names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=20
).filter(lambda s: s.strip() == s and s and not PLACEHOLDER.match(s))


@settings(max_examples=150, deadline=None)
@given(
    labels=st.lists(st.tuples(names, names), max_size=8),
    before=st.sampled_from(["", "Sure! ", "Answer:\n```json\n", "```\n"]),
    after=st.sampled_from(["", "\n```", " Hope that helps {x}.", "\n```\nDone."]),
    indent=st.sampled_from([None, 2]),
)
def test_any_wrapped_answer_round_trips(labels, before, after, indent):
    answer = {"diagram_is": "d", "labels": [{"name": n, "location_hint": h} for n, h in labels]}
    parsed = parse_answer(before + json.dumps(answer, indent=indent) + after)
    assert parsed.parse_ok
    assert parsed.labels == [Label(n, h) for n, h in labels]


def test_an_answer_read_as_sent_has_no_notes():
    assert parse_answer(json.dumps(ANSWER)).notes == ()
    assert parse_answer(f"```json\n{json.dumps(ANSWER)}\n```").notes == ()


def test_every_repair_is_named_in_the_notes():
    parsed = parse_answer("{'labels': [{name: 'aorta', 'hint': None},], // sure\n}")
    assert [x.name for x in parsed.labels] == ["aorta"] and parsed.parse_ok
    (note,) = parsed.notes
    assert note == (
        "repaired: Python literals, comments removed, single-quoted strings, "
        "trailing commas, unquoted keys or words"
    )


def test_the_draft_is_never_scored_and_the_notes_say_so():
    think = parse_answer('<think>{"labels": ["atrium"]}</think>{"labels": ["auricle"]}')
    assert [x.name for x in think.labels] == ["auricle"]
    assert think.notes == (
        "scored only the text after </think>; the reasoning before it (with a draft answer)"
        " was not read",
    )
    blocks = parse_answer('```json\n{"labels": ["a"]}\n```\nWait, fixed:\n{"labels": ["b"]}')
    assert [x.name for x in blocks.labels] == ["b"]
    assert blocks.notes == ("scored the last of 2 answer blocks; the earlier ones are drafts",)
    unclosed = parse_answer('{"labels": ["x"]} <think> {"labels": ["y"]}')
    assert [x.name for x in unclosed.labels] == ["x"]
    assert "never closed" in unclosed.notes[0]


def test_text_forms_are_named_in_the_notes():
    listed = parse_answer("Parts:\n1. Aorta\n2. Vena cava")
    assert [x.name for x in listed.labels] == ["Aorta", "Vena cava"]
    assert listed.notes == ("read a markdown list (no JSON)",)
    lines = parse_answer('{"name": "Aorta"}\n{"name": "Vena cava"}')
    assert lines.notes == ("read 2 separate label objects (no 'labels' list)",)


def test_a_decline_is_refused_but_names_are_never_a_decline():
    declined = parse_answer("Sorry, I cannot identify these structures.")
    assert declined.status == ResponseStatus.REFUSED and not declined.parse_ok
    assert declined.error == (
        "model declined in plain text: 'Sorry, I cannot identify these structures.'"
    )
    hedged = parse_answer("Sorry, I can't be sure, but:\n- Aorta\n- Left atrium")
    assert hedged.status == ResponseStatus.OK and len(hedged.labels) == 2
    cut = parse_answer("I'm sorry, I can", truncated=True)
    assert cut.status == ResponseStatus.TRUNCATED


def test_labels_keyed_by_name_give_the_value_as_the_hint():
    parsed = parse_answer('{"labels": {"Aorta": "top centre", "Left atrium": "upper right"}}')
    assert parsed.labels == [Label("Aorta", "top centre"), Label("Left atrium", "upper right")]


def test_the_prompts_placeholder_is_not_a_name():
    parsed = parse_answer('{"diagram_is": "x", "labels": [{"name": "<term>"}]}')
    assert parsed.labels == [] and parsed.parse_ok


def test_a_surrogate_in_a_hint_or_diagram_loses_only_that_character():
    parsed = parse_answer('{"diagram_is": "he\ud800art", "labels": [{"name": "aorta", '
                          '"location_hint": "to\udc00p"}]}')  # fmt: skip
    assert parsed.diagram_is == "heart" and parsed.labels == [Label("aorta", "top")]


def test_a_cut_answer_without_names_is_a_parse_error_not_an_empty_answer():
    parsed = parse_answer('{"diagram_is": "x", "labels": [{"name": "aor')
    assert parsed.status == ResponseStatus.PARSE_ERROR and parsed.labels == []
    assert "the text ends inside the answer" in parsed.error


def test_marker_keys_and_fields_keep_the_bare_letter():
    parsed = parse_answer(
        '{"labels": {"A)": "Aorta", "(B)": "Vena cava", "Label C.": "Atrium", "4": "Valve"}}'
    )
    assert [(x.name, x.marker) for x in parsed.labels] == [
        ("Aorta", "A"),
        ("Vena cava", "B"),
        ("Atrium", "C"),
        ("Valve", "4"),
    ]
    fields = parse_answer('{"labels": [{"marker": "(D)", "name": "Septum"}]}')
    assert fields.labels == [Label("Septum", "", "D")]


def test_missing_commas_are_read_and_noted():
    parsed = parse_answer('{"labels": [{"name": "Nucleus"}\n{"name": "Vacuole"}]}')
    assert [x.name for x in parsed.labels] == ["Nucleus", "Vacuole"]
    assert parsed.notes == ("repaired: missing commas",)


def test_a_marker_before_a_name_stays_with_it_whatever_its_separator():
    parsed = parse_answer("1. **A - Aorta**\n2. B. Vena cava\n3. (C) Atrium: upper right")
    assert parsed.labels == [
        Label("A - Aorta"),
        Label("B. Vena cava"),
        Label("(C) Atrium", "upper right"),
    ]
    lettered = parse_answer("A. Nucleus\nB - Golgi apparatus – near the nucleus")
    assert lettered.labels == [
        Label("A. Nucleus"),
        Label("B - Golgi apparatus", "near the nucleus"),
    ]
    assert parse_answer("e.g. the heart\nmaybe").status == ResponseStatus.PARSE_ERROR


def test_a_name_longer_than_any_part_name_is_skipped_not_scored():
    flood = "a " * 5_000
    parsed = parse_answer(json.dumps({"labels": ["Aorta", flood]}))
    assert parsed.labels == [Label("Aorta")] and "skipped 1 malformed" in parsed.notes[0]
