"""Claims on PostgreSQL: one holder at a time, taken over when its lease runs out, done once."""

import time

from labeler.store import Project
from labeler.store.claims import Taken

KEY = ("it-1", "m/a", "told", "hash", 0)


def test_a_claim_has_one_holder_until_its_lease_runs_out(tmp_path, pg_server):
    url = pg_server.database()
    with Project.create(tmp_path / "p", db_url=url) as ann, Project.open(tmp_path / "p") as bob:
        ann.claims.offer([KEY])
        bob.claims.offer([KEY])  # offered twice: still one claim
        assert ann.db.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 1
        assert ann.claims.take(KEY, "ann", 0.5) is Taken.MINE
        assert bob.claims.take(KEY, "bob", 0.5) is Taken.HELD
        assert ann.claims.renew("ann", 0.5) == 1
        with ann.transaction():  # ann is in the middle of taking it: bob skips, never waits
            ann.db.execute("SELECT * FROM claims FOR UPDATE")
            started = time.monotonic()
            assert bob.claims.take(KEY, "bob", 0.5) is Taken.HELD
            assert time.monotonic() - started < 1
        time.sleep(0.7)  # ann stopped renewing (killed): her lease ran out
        assert bob.claims.take(KEY, "bob", 0.5) is Taken.MINE
        assert ann.claims.take(KEY, "ann", 0.5) is Taken.HELD
        with bob.transaction():
            bob.claims.finish(KEY)
        assert ann.claims.take(KEY, "ann", 0.5) is Taken.DONE
        assert bob.claims.renew("bob", 0.5) == 0  # nothing open is left to renew


def test_a_runner_that_stops_early_gives_its_claims_back(tmp_path, pg_server):
    with Project.create(tmp_path / "p", db_url=pg_server.database()) as project:
        project.claims.offer([KEY])
        assert project.claims.take(KEY, "ann", 60) is Taken.MINE
        project.claims.release("ann")
        assert project.claims.take(KEY, "bob", 60) is Taken.MINE
