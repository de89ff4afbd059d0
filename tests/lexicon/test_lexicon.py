"""The lexicon: CSV codec on real files, groups, distinct pairs, layering, edits."""

import os

import pytest

from labeler.errors import ConfigError
from labeler.lexicon import Edit, Lexicon, LexiconRow, load_starter


def write(tmp_path, text: str, name: str = "lex.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_round_trip_and_default_relation(tmp_path):
    path = write(
        tmp_path,
        "canonical,synonym,relation\n"
        "mitral valve,bicuspid valve,\n"
        '"oesophagus","gullet, food pipe",same\n'
        "nucleus,nucleolus,distinct\n"
        "\n",
    )
    lexicon = Lexicon.from_csv(path)
    assert lexicon.rows() == [
        LexiconRow("mitral valve", "bicuspid valve", "same"),
        LexiconRow("oesophagus", "gullet, food pipe", "same"),
        LexiconRow("nucleus", "nucleolus", "distinct"),
    ]
    out = tmp_path / "out" / "saved.csv"
    lexicon.to_csv(out)
    assert out.read_text(encoding="utf-8").splitlines()[0] == "canonical,synonym,relation"
    assert Lexicon.from_csv(out).rows() == lexicon.rows()
    assert lexicon.same("bicuspid valve", "mitral valves")
    assert lexicon.distinct("nucleolus", "nucleus") and not lexicon.same("nucleus", "nucleolus")


def test_two_column_csv_and_bom_are_accepted(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_bytes("\ufeffCanonical,Synonym\nwindpipe,trachea\n".encode())
    assert Lexicon.from_csv(path).same("trachea", "windpipe")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,other\na,b\n", "header"),
        ("canonical,synonym,relation\na,b,similar\n", "line 2: relation must be"),
        ("canonical,synonym,relation\na,,same\n", "line 2: both"),
        (
            "canonical,synonym,relation\nnucleus,nucleolus,same\nnucleolus,nucleus,distinct\n",
            "distinct",
        ),
    ],
)
def test_bad_csv_is_a_clear_error(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message):
        Lexicon.from_csv(write(tmp_path, text))


def test_missing_and_binary_files_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        Lexicon.from_csv(tmp_path / "nope.csv")
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(ConfigError, match="UTF-8"):
        Lexicon.from_csv(binary)


def test_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    path = write(tmp_path, "canonical,synonym,relation\nkeep,me,same\n")
    lexicon = Lexicon.from_rows([("new", "row", "same")])

    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        lexicon.to_csv(path)
    assert path.read_text(encoding="utf-8") == "canonical,synonym,relation\nkeep,me,same\n"
    assert [p.name for p in tmp_path.iterdir()] == ["lex.csv"]


def test_edits_return_their_inverse_for_undo_and_redo():
    lexicon = Lexicon.from_rows([("trachea", "windpipe", "same")])
    undo = lexicon.add("larynx", "voice box")
    assert undo == Edit("remove", LexiconRow("larynx", "voice box", "same"))
    assert lexicon.same("larynx", "voice box")
    redo = lexicon.apply(undo)
    assert not lexicon.same("larynx", "voice box")
    assert redo == Edit("add", LexiconRow("larynx", "voice box", "same"))
    lexicon.apply(redo)
    assert lexicon.same("voice box", "larynx")
    undo_remove = lexicon.remove(LexiconRow("trachea", "windpipe", "same"))
    assert not lexicon.same("trachea", "windpipe")
    lexicon.apply(undo_remove)
    assert lexicon.same("trachea", "windpipe")


def test_conflicting_or_duplicate_edit_is_refused_and_changes_nothing():
    lexicon = Lexicon.from_rows([("nucleus", "nucleolus", "distinct")])
    before = lexicon.rows()
    with pytest.raises(ConfigError, match="distinct"):
        lexicon.add("Nucleoli", "nucleus", "same")
    with pytest.raises(ConfigError, match="already"):
        lexicon.add("Nucleus", "nucleolus.", "distinct")
    with pytest.raises(ConfigError, match="no row"):
        lexicon.remove(LexiconRow("a", "b", "same"))
    assert lexicon.rows() == before and lexicon.distinct("nucleus", "nucleolus")


def test_item_rows_layer_over_the_global_lexicon_without_changing_it():
    global_lexicon = Lexicon.from_rows([("mitral valve", "bicuspid valve", "same")])
    item = global_lexicon.with_rows([("bicuspid valve", "left AV valve", None)])
    assert item.same("mitral valve", "left AV valve")
    assert not global_lexicon.same("mitral valve", "left AV valve")
    assert global_lexicon.with_rows([]) is global_lexicon
    assert global_lexicon.with_rows([("Mitral valve", "bicuspid valve", "")]) is global_lexicon


def test_merge_skips_rows_already_present():
    a = Lexicon.from_rows([("trachea", "windpipe", "same")])
    b = Lexicon.from_rows([("Trachea", "windpipe", "same"), ("larynx", "voice box", "same")])
    merged = a.merge(b)
    assert [r.synonym for r in merged.rows()] == ["windpipe", "voice box"]
    assert len(a) == 1


def test_search_matches_either_column_normalised():
    lexicon = Lexicon.from_rows(
        [("loop of Henle", "nephron loop", ""), ("trachea", "windpipe", ""), ("X", "henle's Y", "")]
    )
    assert [r.canonical for r in lexicon.search("HENLE")] == ["loop of Henle", "X"]
    assert [r.synonym for r in lexicon.search("wind")] == ["windpipe"]


def test_starter_lexicon_is_large_consistent_and_has_the_known_pairs():
    lexicon = load_starter()
    assert len(lexicon) >= 300
    assert lexicon.same("oesophagus", "esophagus")
    assert lexicon.same("mitral valve", "left AV valve")
    for a, b in [("nucleus", "nucleolus"), ("ileum", "ilium"), ("ureter", "urethra")]:
        assert lexicon.distinct(a, b)


def test_groups_join_chains_and_plurals_and_count_their_rows():
    lexicon = Lexicon.from_rows(
        [
            ("mitral valve", "bicuspid valve", "same"),
            ("stomach", "gaster", "same"),
            ("bicuspid valves", "left AV valve", "same"),  # plural of a member: same group
            ("nucleus", "nucleolus", "distinct"),
            ("left av valve", "Mitral Valve", "same"),  # a row inside one group adds no group
        ]
    )
    heart, gut = lexicon.groups()
    assert heart.canonical == "mitral valve"
    assert heart.members == ("mitral valve", "bicuspid valve", "bicuspid valves", "left AV valve")
    assert heart.row_count == 3 and heart.rows[1].synonym == "left AV valve"
    assert (gut.canonical, gut.members, gut.row_count) == ("stomach", ("stomach", "gaster"), 1)
    # every member is the same as every other, as the scorer sees it
    assert all(lexicon.same(a, b) for a in heart.members for b in heart.members)
    assert not lexicon.same(heart.members[0], gut.members[0])
    # names only in distinct rows make no group
    assert all("nucleus" not in g.members for g in lexicon.groups())


def test_a_chain_is_one_group_until_its_link_is_removed():
    lexicon = Lexicon.from_rows([("A", "B", "same"), ("B", "C", "same")])
    assert [g.members for g in lexicon.groups()] == [("A", "B", "C")]
    lexicon.remove(LexiconRow("A", "B"))
    assert [(g.canonical, g.members) for g in lexicon.groups()] == [("B", ("B", "C"))]
    assert Lexicon().groups() == [] and Lexicon().distinct_pairs() == []


def test_distinct_pairs_are_one_per_pair_of_groups():
    lexicon = Lexicon.from_rows(
        [
            ("nucleus", "nucleolus", "distinct"),
            ("nucleoli", "nuclei", "distinct"),  # plurals, reversed: the same pair
            ("nucleus", "karyon", "same"),
            ("karyon", "nucleolus", "distinct"),  # karyon is in nucleus's group: same pair
            ("vein", "artery", "distinct"),
        ]
    )
    assert lexicon.distinct_pairs() == [("nucleus", "nucleolus"), ("vein", "artery")]
    assert [g.members for g in lexicon.groups()] == [("nucleus", "karyon")]
