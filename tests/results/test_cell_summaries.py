"""The summary read path gives exactly what the full results give, through every kind of edit.

``cell_summaries`` reads cached numbers as columns and trusts a cached row only when its
key fingerprint and lexicon state are the item's current ones; everything else goes
through ``load_results``'s own resolution. Each step below edits a real project (a
lexicon row, a key, a subject, an override, a new answer, cache rows left from before
the summary columns or written for another key) and compares the two paths cell by cell,
reading the summaries first so that they, not ``load_results``, meet the edit. On both
engines.
"""

import json

import pandas as pd
import pytest

import labeler.results.cache as results_cache
import labeler.results.summaries as summary_path
from labeler import review
from labeler.prompts import CONDITIONS
from labeler.results import (
    CellColumns,
    cell_columns,
    cell_summaries,
    counted_results,
    load_results,
    results_frame,
    summary_file,
)
from labeler.scoring import Match, NameScore, scoring_version
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.score_cache import CachedScore
from tests.conftest import use_postgres

MODELS = ("lab/a", "lab/b", "lab/c")
ASKED = ("blind", "told", "no-image", "slots", "slots-no-image")


def record(project, item_id, model, condition, names, status="ok"):
    return project.responses.record(
        NewResponse(
            item_id=item_id,
            model=model,
            condition=condition,
            request_hash=f"{item_id}{model}{condition}{names}{status}",
            status=status,
            parse_ok=status == "ok",
            raw_text=f"raw answer {names}",
            labels=[{"name": n, "location_hint": h} for n, h in names],
            settings={"slot_order": [0, 1]} if condition.startswith("slots") else {},
        )
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, monkeypatch):
    """Each test once per engine: the summary query and its unpacking run on both."""
    if request.param == "postgresql":
        use_postgres(monkeypatch, request.getfixturevalue("pg_server"))
    return request.param


@pytest.fixture
def project(tmp_path, engine):
    """Three items (one with printed markers, one with a key alternative) × 3 models × 5
    conditions, with an API error and a partly wrong answer in the mix."""
    with Project.create(tmp_path / "p") as project:
        project.lexicon.add("mitral valve", "bicuspid valve")
        heart = project.items.add(
            NewItem(
                item_id="heart",
                subject="heart",
                key=[KeyEntry("Mitral valve", marker="A"), KeyEntry("Aorta", marker="B")],
            )
        )
        cell = project.items.add(
            NewItem(
                item_id="cell",
                subject="animal cell",
                key=[
                    KeyEntry("Nucleus"),
                    KeyEntry("Mitochondrion", alternatives=("mitochondria",)),
                ],
            )
        )
        leaf = project.items.add(
            NewItem(item_id="leaf", subject="leaf", key=[KeyEntry("Stoma"), KeyEntry("Xylem")])
        )
        for n, model in enumerate(MODELS):
            for condition in ASKED:
                record(project, heart.id, model, condition, [("bicuspid valve", "at A")])
                record(
                    project, cell.id, model, condition, [("nucleus", None), ("mitochondria", None)]
                )
                status = "api_error" if (n, condition) == (2, "told") else "ok"
                record(
                    project,
                    leaf.id,
                    model,
                    condition,
                    [("leaf pore", None), ("phloem", None)],
                    status,
                )
        yield project


def check(project, item_ids=None, read=cell_summaries):
    """The summaries (or ``read``'s columns) first: they meet the edit; then the full
    results, cell by cell."""
    summaries = read(project, item_ids)
    full = load_results(project, item_ids)
    assert len(summaries) == len(full) > 0
    if isinstance(summaries, CellColumns):  # what a published row carries, too
        assert summaries.predicted_names == [c.predicted_names for c in full]
        assert summaries.n_pred == [c.n_pred for c in full]
        assert summaries.n_key == [c.n_key for c in full]
        assert {c.item_id: c.key_names for c in full}.items() <= summaries.key_names.items()
    assert summaries.response_id == [c.response_id for c in full]
    for name in ("item_id", "model", "condition", "status", "parse_ok", "stale", "f1"):
        assert getattr(summaries, name) == [getattr(c, name) for c in full], name
    assert summaries.precision == [c.precision for c in full]
    assert summaries.recall == [c.recall for c in full]
    assert summaries.marker_accuracy == [c.marker_accuracy for c in full]
    assert summaries.markers == [c.markers for c in full]
    assert summaries.override == [c.override for c in full]
    assert summaries.counts == [c.counts for c in full]
    flags = summaries.flags()
    for c in full:
        got = flags.get(c.item_id)
        assert (c.unsolved_core, c.recitable) == (
            (True, False) if got is None else (got.unsolved_core, got.recitable)
        )
    assert {i: summaries.public_ids.get(i) for i in summaries.item_id} == {
        c.item_id: c.public_id for c in full
    }
    columns = ["item_id", "model", "condition", "f1", "marker_accuracy"]
    counted = [c for c in counted_results(project, item_ids) if c.condition in CONDITIONS]
    pd.testing.assert_frame_equal(
        summaries.frame(CONDITIONS), results_frame(counted)[columns], check_dtype=False
    )
    return summaries


def summaries_in_a_new_process(project, item_ids=None):
    """:func:`cell_summaries` as a process that never read this project reads them: no
    memo, only what the project holds (its store and the columns kept on disk)."""
    summary_path._SUMMARIES.clear()
    return cell_summaries(project, item_ids)


def columns_in_a_new_process(project, item_ids=None):
    """:func:`cell_columns` (names too) as a process that never read this project."""
    summary_path._SUMMARIES.clear()
    return cell_columns(project, item_ids)


@pytest.fixture(params=["summaries", "columns", "new process", "columns, new process"])
def read(request):
    return {
        "summaries": cell_summaries,
        "columns": cell_columns,
        "new process": summaries_in_a_new_process,
        "columns, new process": columns_in_a_new_process,
    }[request.param]


def test_the_two_paths_agree_through_every_kind_of_edit(project, read):
    first = check(project, read=read)  # nothing cached yet: the summaries score every cell
    assert project.score_cache.count(scoring_version()) == len(first) == 3 * 3 * len(ASKED)
    assert first.status.count("api_error") == 1 and first.counts.count(False) == 1

    project.lexicon.add("stoma", "leaf pore")  # a lexicon edit: the leaf's cells gain a match
    after = check(project, read=read)
    leaf = [f for i, f in zip(after.item_id, after.f1, strict=True) if i == "leaf"]
    before = [f for i, f in zip(first.item_id, first.f1, strict=True) if i == "leaf"]
    assert min(leaf) > max(before)

    project.items.set_key("leaf", [KeyEntry("Stoma"), KeyEntry("Phloem")])  # a key edit
    edited = check(project, read=read)
    assert 1.0 in [f for i, f in zip(edited.item_id, edited.f1, strict=True) if i == "leaf"]

    project.lexicon.add("aorta", "bicuspid valve", relation="distinct", item_id="heart")
    check(project, read=read)  # an item's own row

    review.override(project, "heart", "lab/a", "told", 0.75, "the valve is named", "ana")
    assert 0.75 in check(project, read=read).override

    project.items.update("cell", subject="plant cell")  # its answers are now stale
    stale = check(project, read=read)
    assert {i for i, s in zip(stale.item_id, stale.stale, strict=True) if s} == {"cell"}

    record(project, "heart", "lab/b", "no-image", [("aorta", None)])  # a newer answer
    check(project, read=read)
    check(project, ["heart", "leaf"], read)

    # a slot answer superseded by a failed call: the cell is the failure, and stops counting
    failed = record(project, "leaf", "lab/a", "slots", [], "api_error")
    superseded = check(project, read=read)
    assert superseded.status[superseded.response_id.index(failed)] == "api_error"
    assert len(superseded) == len(first)

    project.items.delete("cell")  # an item goes with its answers: its cells with them
    gone = check(project, read=read)
    assert "cell" not in gone.item_id and len(gone) == len(first) - 3 * len(ASKED)


def test_rows_not_to_trust_are_resolved_not_read(project):
    rules = scoring_version()
    truth = check(project)
    ids = truth.response_id
    # a row written for another key, with a made-up score, and a row from before the
    # summary columns (migration 14): neither may be read as it stands
    wrong = CachedScore(ids[0], "another key", "x", "y", 0.123, None, "{}", 0.5, 0.5, None)
    project.score_cache.put_many(rules, [wrong])
    project.db.execute(
        "UPDATE score_cache SET name_precision = NULL, name_recall = NULL WHERE response_id = ?",
        (ids[1],),
    )
    # this process read them before: its memo (keyed on the answers, items, key and
    # lexicon fingerprints and overrides, none of which moved) gives what it read
    assert cell_summaries(project).f1 == truth.f1
    summary_path._SUMMARIES.clear()  # a fresh process reads the rows, and must not trust them
    summary_file.path_in(project.folder).unlink()  # (nor find the columns kept on disk)
    again = check(project)
    assert again.f1 == truth.f1 and again.precision == truth.precision
    restored = {r[0]: r for r in project.score_cache.summary_rows(rules)}
    assert restored[ids[1]][11] == truth.precision[1]  # stored again in full
    assert restored[ids[0]][10] == truth.f1[0]


def test_an_empty_project_has_no_summaries(tmp_path, engine):
    with Project.create(tmp_path / "p") as project:
        project.items.add(NewItem(item_id="x", key=[KeyEntry("Nucleus")]))
        summaries = cell_summaries(project)
        assert len(summaries) == 0 and summaries.flags() == {}
        assert list(summaries.frame(CONDITIONS).columns) == [
            "item_id", "model", "condition", "f1", "marker_accuracy"
        ]  # fmt: skip


def test_columns_name_the_cached_results_whatever_their_layout():
    """The names a published row carries are scanned from the result's leading fields; a
    result laid out otherwise is parsed whole, to the same values."""
    score = NameScore(0.5, 1.0, 0.25, 2, 4, [Match("aorta", "Aorta", "exact")], [], ["Apex"])
    result = results_cache._Result(("aorta", "left ventricle"), ("Aorta", "Apex"), score, None, ())
    encoded = results_cache._encode(result)
    shuffled = '{"s": [0.5, 1.0, 0.25, 2, 4], "m": [], "p": ["aorta", "left ventricle"]}'
    expected = (("aorta", "left ventricle"), 2, 4)
    assert summary_path._published(encoded) == summary_path._published(shuffled) == expected


def test_the_names_of_many_results_are_read_in_one_parse_to_each_results_own():
    """:func:`_published_columns` parses every result's head at once; names that hold the
    text it cuts at (``,"m":``), quotes, backslashes or non-ASCII still come out whole, and
    a batch with one result laid out otherwise is read result by result, to the same values."""
    names = [('a,"m":b', 'say "m":', "back\\slash"), ("nucléole",), ()]
    encoded = [
        results_cache._encode(
            results_cache._Result(
                predicted,
                ("Aorta",),
                NameScore(0.5, 1.0, 0.25, len(predicted), 1, [], [], []),
                None,
                (),
            )
        )
        for predicted in names
    ]
    late = '{"p":["aorta","left ventricle"],"e":[],"m":[],"s":[0.5,1.0,0.25,2,4]}'  # s after m
    for batch in (encoded, [*encoded, late]):
        expected = [list(c) for c in zip(*map(summary_path._published, batch), strict=True)]
        assert summary_path._published_columns(batch) == expected
    assert summary_path._published_columns(encoded)[0] == names
    assert summary_path._published_columns(encoded)[1] == [3, 1, 0]


def test_views_reading_together_read_the_cells_once(project):
    """Two readers at once, each on its own thread and connection (a view's worker and the
    export's): the second waits for the first read and takes its memo (the same columns)."""
    import threading

    summary_path._SUMMARIES.clear()
    found = {}

    def read(name):
        with Project.open(project.folder) as own:
            found[name] = cell_summaries(own)

    workers = [threading.Thread(target=read, args=(n,)) for n in ("list", "review")]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert found["list"].f1 is found["review"].f1
    assert found["list"].response_id == check(project).response_id


def test_the_memo_follows_an_edit_of_an_item_not_read(project):
    """A read of some items hands back every item's key: an edit of another one is seen."""
    check(project, ["heart"])
    project.items.set_key("leaf", [KeyEntry("Stoma"), KeyEntry("Phloem")])
    again = cell_summaries(project, ["heart"])
    assert [e.name for e in again.keys["leaf"]] == ["Stoma", "Phloem"]


def test_a_result_scored_now_is_memoised_as_its_stored_text_decodes(project):
    """A cell scored by a read is memoised as the result itself, not parsed back from the
    JSON just stored: that is sound only if decoding the stored text gives an equal result
    (same types: a list where the decoder makes a list), for every kind of cell."""
    import hashlib
    import json

    results_cache._DECODED.clear()
    load_results(project)  # nothing cached yet: every cell is scored and memoised
    fresh = dict(results_cache._DECODED)  # one per distinct result: the fixture's three
    assert len(fresh) >= 3
    assert any(r.markers is not None for r in fresh.values())
    assert any(r.score.matches and r.score.missed_key for r in fresh.values())
    for (digest, key), result in fresh.items():
        text = results_cache._encode(result)
        assert hashlib.blake2b(text.encode(), digest_size=16).digest() == digest
        assert results_cache._decode(json.loads(text), key) == result


def same_columns(a, b):
    """Every per-cell column equal (NaN equal to NaN: a decoded NaN is another object)."""

    def same(x, y):
        return x == y or (isinstance(x, float) and isinstance(y, float) and x != x and y != y)

    for name in summary_path._SUMMARY_FIELDS:
        left, right = getattr(a, name), getattr(b, name)
        assert len(left) == len(right) and all(map(same, left, right)), name


def no_rows(*args, **kwargs):
    raise AssertionError("the rows were read although the kept columns are current")


def test_a_new_process_takes_the_columns_kept_on_disk_and_reads_no_row(project, monkeypatch):
    first = check(project)
    assert summary_file.path_in(project.folder).is_file()
    monkeypatch.setattr(type(project.score_cache), "summary_rows", no_rows)
    again = summaries_in_a_new_process(project)
    same_columns(again, first)
    assert again.markers[0] is not None and again.markers.count(again.markers[0]) > 1
    assert len({id(m) for m in again.markers if m is not None}) < len(again)  # shared
    assert again.keys == first.keys and again.items == first.items
    assert again.public_ids == first.public_ids and again.overrides == first.overrides
    assert again.counts == first.counts and again.flags() == first.flags()
    some = summaries_in_a_new_process(project, ["leaf", "heart"])  # filtered: cut from them
    assert set(some.item_id) == {"leaf", "heart"} and set(some.items) == {"leaf", "heart"}
    cells = zip(first.response_id, first.item_id, strict=True)
    assert some.response_id == [r for r, i in cells if i != "cell"]


def test_a_read_of_every_item_by_name_keeps_its_columns_as_a_whole_read(project, monkeypatch):
    """The export names the items it exports; when that is every item, what it built is kept
    and serves the next whole read (and the other way round)."""
    every = [i.id for i in project.items.list()]
    first = check(project, every, read=cell_columns)
    monkeypatch.setattr(type(project.score_cache), "summary_rows", no_rows)
    same_columns(summaries_in_a_new_process(project), first)
    assert columns_in_a_new_process(project, [*every, "gone"]).predicted_names == (
        first.predicted_names
    )


def spy_on_summary_rows(project, monkeypatch):
    """The ``after`` of every ``summary_rows`` call from now on (0: every cell's row)."""
    calls = []
    real = type(project.score_cache).summary_rows

    def spied(self, rules, *, with_result=False, after=0):
        calls.append(after)
        return real(self, rules, with_result=with_result, after=after)

    monkeypatch.setattr(type(project.score_cache), "summary_rows", spied)
    return calls


def test_answers_added_since_the_kept_columns_are_the_only_rows_read(project, monkeypatch):
    """A run adds answers: the columns kept (in this process, or on disk for the next) are
    brought up to date by reading the newer answers' rows alone, and equal a rebuild. The
    file is rewritten only once it lacks REWRITE_SHARE of its cells' answers: until then the
    next process reads it and the newer answers."""
    first = check(project)
    newest = max(first.response_id)
    path = summary_file.path_in(project.folder)
    key = json.loads(path.read_text(encoding="utf-8").splitlines()[0])["key"]
    calls = spy_on_summary_rows(project, monkeypatch)
    record(project, "heart", "lab/b", "told", [("aorta", None)])  # answers a cell anew
    record(project, "leaf", "lab/d", "blind", [("xylem", None)])  # a new model's first cell
    again = check(project)  # this process: from its memo
    assert calls == [newest] and len(again) == len(first) + 1
    # 2 answers of 46 cells are under 5 %: the file keeps its columns and stamp
    assert summary_path.REWRITE_SHARE * len(again) > 2
    stamp, kept = summary_file.load(path, key, summary_path._SUMMARY_FIELDS)
    assert stamp == (len(first), newest) and kept["f1"] == first.f1
    calls.clear()
    fresh = check(project, read=summaries_in_a_new_process)  # the next process: file + 2 rows
    assert calls == [newest]
    same_columns(fresh, again)
    later = record(project, "cell", "lab/c", "desc", [("nucleus", None)])  # 3 of 47: rewritten
    calls.clear()
    fresh = check(project, read=summaries_in_a_new_process)
    assert calls == [newest] and fresh.response_id[-1] == later
    stamp, kept = summary_file.load(path, key, summary_path._SUMMARY_FIELDS)
    assert stamp == project.score_cache.answers_stamp() and kept["f1"] == fresh.f1
    calls.clear()
    again = check(project, read=summaries_in_a_new_process)  # from the rewritten file alone
    assert calls == []
    calls.clear()
    summary_path._SUMMARIES.clear()
    summary_file.path_in(project.folder).unlink()
    same_columns(cell_summaries(project), fresh)  # what a rebuild gives
    assert calls == [0]


def test_answers_that_changed_otherwise_mean_a_rebuild(project, monkeypatch):
    """An answer gone and another stored (as two writers of a team store committing out of
    order also leave a count the newer ids do not explain): every row is read again."""
    first = check(project)
    calls = spy_on_summary_rows(project, monkeypatch)
    gone = first.response_id[first.item_id.index("leaf")]
    with project.transaction():
        project.db.execute("DELETE FROM responses WHERE id = ?", (gone,))
    record(project, "heart", "lab/a", "told", [("aorta", None)])
    again = check(project, read=summaries_in_a_new_process)
    assert calls == [0] and gone not in again.response_id and len(again) == len(first) - 1


def test_numbering_items_keeps_the_columns_and_a_new_process_reads_the_new_numbers(
    project, monkeypatch
):
    """An export numbers the items it publishes for the first time; the columns it kept do
    not depend on the numbers, so the next process reads them (no rows) with the numbers."""
    first = check(project)
    assert first.public_ids == {}
    project.public_ids.add({"leaf": 1, "heart": 2})
    monkeypatch.setattr(type(project.score_cache), "summary_rows", no_rows)
    again = summaries_in_a_new_process(project)
    same_columns(again, first)
    assert again.public_ids == {"leaf": f"{project.id_prefix}-1", "heart": f"{project.id_prefix}-2"}


@pytest.mark.parametrize(
    "damage",
    [
        "garbage",
        "truncated",
        "no end line",
        "other format",
        "a column too long",
        "bad base64",
        "empty",
    ],
)
def test_a_damaged_file_is_ignored_and_written_again(project, damage, monkeypatch):
    truth = check(project)
    path = summary_file.path_in(project.folder)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    damaged = {
        "garbage": "\x00not json at all\n",
        "truncated": "".join(lines)[: len("".join(lines)) // 2],
        "no end line": "".join(lines[:-1]),
        "other format": lines[0].replace('"format":2', '"format":99') + "".join(lines[1:]),
        "a column too long": "".join([*lines[:2], lines[1], *lines[2:]]),  # a chunk twice
        "bad base64": "".join([lines[0], lines[1].replace('"ints":"', '"ints":"!', 1), *lines[2:]]),
        "empty": "",
    }[damage]
    path.write_text(damaged, encoding="utf-8")
    reads = []
    real = type(project.score_cache).summary_rows
    monkeypatch.setattr(
        type(project.score_cache),
        "summary_rows",
        lambda self, *a, **k: reads.append(1) or real(self, *a, **k),
    )
    same_columns(summaries_in_a_new_process(project), truth)
    assert reads == [1]  # rebuilt from the store
    assert path.read_text(encoding="utf-8") == "".join(lines)  # and kept again, whole


def test_a_folder_that_refuses_the_file_costs_only_the_rebuild(project):
    """A read-only or full disk: the read works; the next process rebuilds (a file where the
    cache folder should be makes writing fail for every user, root included)."""
    truth = check(project)
    folder = summary_file.path_in(project.folder).parent
    summary_file.path_in(project.folder).unlink()
    folder.rmdir()
    folder.write_text("not a folder", encoding="utf-8")
    same_columns(summaries_in_a_new_process(project), truth)
    assert folder.read_text(encoding="utf-8") == "not a folder"


def test_the_file_round_trips_every_kind_of_value_in_small_chunks(tmp_path, monkeypatch):
    from labeler.scoring import MarkerScore

    monkeypatch.setattr(summary_file, "CHUNK", 2)  # every column spread over several lines
    marks = MarkerScore(0.5, 2, ["A"], {"B": "C"}, [])
    columns = {
        "response_id": [3, 9, 12],
        "item_id": ["heart", "leaf", "heart"],
        "model": ["lab/a", "lab/a", "lab/b"],
        "condition": ["blind", "no-image", "told"],
        "status": ["ok", "api_error", "ok"],
        "parse_ok": [True, False, True],
        "stale": [False, False, True],
        "f1": [0.25, float("nan"), 1.0],
        "precision": [1 / 3, float("nan"), 1.0],
        "recall": [0.2, float("nan"), 1.0],
        "marker_accuracy": [0.5, None, None],
        "markers": [marks, None, MarkerScore(0.5, 2, ["A"], {"B": "C"}, [])],
        "override": [None, None, 0.75],
    }
    path = tmp_path / "cache" / "cell-summaries.jsonl"
    assert summary_file.save(path, "k1", (3, 12), columns)
    kept = summary_file.load(path, "k1", list(columns))
    assert kept is not None and kept[0] == (3, 12)
    back = kept[1]
    for name, values in columns.items():
        assert len(back[name]) == len(values)
        for x, y in zip(back[name], values, strict=True):
            assert x == y or (x != x and y != y), name
    assert back["markers"][0] is back["markers"][2]  # equal scores decode to one object
    assert summary_file.load(path, "another key", list(columns)) is None
    assert summary_file.load(path, "k1", [*columns, "more"]) is None
    assert summary_file.load(tmp_path / "missing.jsonl", "k1", list(columns)) is None
    with pytest.raises(ValueError, match="different lengths"):
        summary_file.save(path, "k2", (2, 2), {"a": [1], "b": [1, 2]})
    assert summary_file.load(path, "k1", list(columns)) is not None  # left as it was


def test_the_digest_is_the_same_in_every_process(tmp_path):
    import subprocess
    import sys

    signature = ("rules 3", None, (10, 42), [("it-1", 2)], [("a", "b", "same")], {"x": []})
    code = f"from labeler.results import summary_file;print(summary_file.digest({signature!r}))"
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(seed), "PATH": ""},
            cwd=str(summary_file.Path(summary_path.__file__).parents[2]),
        ).stdout.strip()
        for seed in (1, 2, 3)
    }
    assert len(digests) == 1 and digests == {summary_file.digest(signature)}


def test_names_are_kept_by_a_names_read_and_serve_both_kinds_of_read(project, monkeypatch):
    """An export or report (``cell_columns``) keeps the published names too; a later export
    in a new process takes them, as a view does the summaries. Summaries kept by a view alone
    cannot serve a names read: it rebuilds, and keeps the names for the next."""
    check(project)  # a view's read: summaries only are kept
    rebuilt = columns_in_a_new_process(project)
    truth = check(project, read=cell_columns)  # the names against the full results
    assert rebuilt.predicted_names == truth.predicted_names
    monkeypatch.setattr(type(project.score_cache), "summary_rows", no_rows)
    again = columns_in_a_new_process(project)
    same_columns(again, truth)
    assert again.predicted_names == truth.predicted_names
    assert all(type(names) is tuple for names in again.predicted_names)
    assert again.n_pred == truth.n_pred and again.n_key == truth.n_key
    assert again.key_names == truth.key_names
    same_columns(summaries_in_a_new_process(project), truth)  # the same file, names unread
