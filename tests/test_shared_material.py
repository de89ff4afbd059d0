"""The shared reference material must be present: tests that read it never skip."""

from tests.paths import EXTERNAL_FIGURES, REFERENCE


def test_shared_material_sits_beside_the_checkout():
    assert (REFERENCE / "blindspot-dataset-card.md").is_file(), (
        f"missing {REFERENCE}: CI lays ../shared beside the clone; put it there to run the suite"
    )
    assert len(list(EXTERNAL_FIGURES.glob("*.jpg"))) >= 3, EXTERNAL_FIGURES
