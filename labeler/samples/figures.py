"""The sample textbook's figures, as data.

Each figure is a list of simple shapes plus labels with the point their leader
line touches. Coordinates are relative to a 300 x 260 pt drawing box; labels sit
in columns left and right of it. Keeping figures as data (not code) means the
sample book, the demo and the benches share one source of truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Shape = tuple  # ("oval"|"rect"|"poly"|"line", geometry, fill RGB or None)


@dataclass(frozen=True)
class Label:
    """A printed label: its text lines, which side it sits on, what it points at."""

    lines: tuple[str, ...]
    side: str  # "left" | "right" | "marker"
    target: tuple[float, float]
    y: float = 0.0  # label row (drawing-box coordinates); markers sit at the target

    @property
    def name(self) -> str:
        return " ".join(self.lines)


@dataclass(frozen=True)
class FigureSpec:
    """One figure of the sample book."""

    title: str
    subject: str
    shapes: tuple[Shape, ...]
    labels: tuple[Label, ...]
    raster: bool = False
    marker_names: dict[str, str] = field(default_factory=dict)

    @property
    def key_names(self) -> list[str]:
        if self.marker_names:
            return list(self.marker_names.values())
        return [label.name for label in self.labels]


PINK, RED, BLUE, GREEN, LIGHT = (
    (0.96, 0.8, 0.8),
    (0.85, 0.35, 0.35),
    (0.5, 0.6, 0.9),
    (
        0.6,
        0.85,
        0.55,
    ),
    (0.93, 0.93, 0.85),
)
PURPLE, ORANGE, GREY, YELLOW = (
    (0.75, 0.6, 0.85),
    (0.98, 0.75, 0.45),
    (0.8, 0.8, 0.8),
    (
        0.98,
        0.93,
        0.55,
    ),
)


def _l(text: str, side: str, target: tuple[float, float], y: float) -> Label:
    return Label(tuple(text.split("|")), side, target, y)


FIGURES: tuple[FigureSpec, ...] = (
    FigureSpec(
        "The human heart in frontal section",
        "human heart",
        (
            ("oval", (70, 40, 230, 240), PINK),
            ("oval", (85, 60, 150, 130), RED),
            ("oval", (150, 60, 215, 130), BLUE),
            ("oval", (80, 130, 150, 225), RED),
            ("oval", (150, 130, 220, 225), BLUE),
            ("rect", (125, 0, 160, 60), RED),
            ("line", ((150, 130), (215, 130)), None),
        ),
        (
            _l("Aorta", "left", (135, 20), 15),
            _l("Right atrium", "left", (110, 95), 85),
            _l("Right|ventricle", "left", (110, 180), 175),
            _l("Left atrium", "right", (185, 95), 85),
            _l("Mitral valve", "right", (185, 130), 130),
            _l("Left ventricle", "right", (185, 185), 185),
        ),
    ),
    FigureSpec(
        "A typical plant cell",
        "plant cell",
        (
            ("rect", (40, 20, 260, 240), GREEN),
            ("rect", (50, 30, 250, 230), LIGHT),
            ("oval", (110, 80, 200, 190), (0.8, 0.9, 0.98)),
            ("oval", (60, 40, 105, 85), PURPLE),
            ("oval", (75, 52, 90, 67), (0.4, 0.25, 0.5)),
            ("oval", (205, 60, 240, 80), GREEN),
            ("oval", (205, 190, 240, 210), GREEN),
        ),
        (
            _l("Nucleus", "left", (70, 45), 30),
            _l("Nucleolus", "left", (82, 60), 70),
            _l("Cell wall", "left", (44, 150), 150),
            _l("Chloroplast", "right", (222, 70), 60),
            _l("Central|vacuole", "right", (180, 140), 130),
            _l("Cell membrane", "right", (249, 220), 220),
        ),
    ),
    FigureSpec(
        "An animal cell with lettered parts",
        "animal cell",
        (
            ("oval", (30, 20, 270, 240), PINK),
            ("oval", (115, 85, 185, 155), PURPLE),
            ("oval", (60, 170, 110, 195), ORANGE),
            ("rect", (190, 60, 240, 75), YELLOW),
            ("rect", (195, 80, 235, 92), YELLOW),
            ("oval", (200, 170, 225, 195), GREY),
        ),
        (
            Label(("A",), "marker", (150, 120)),
            Label(("B",), "marker", (85, 182)),
            Label(("C",), "marker", (215, 76)),
            Label(("D",), "marker", (212, 182)),
        ),
        marker_names={
            "A": "Nucleus",
            "B": "Mitochondrion",
            "C": "Golgi apparatus",
            "D": "Lysosome",
        },
    ),
    FigureSpec(
        "Structure of a motor neuron",
        "motor neuron",
        (
            ("oval", (40, 100, 100, 160), ORANGE),
            ("oval", (58, 118, 80, 140), PURPLE),
            ("line", ((40, 110), (10, 70)), None),
            ("line", ((45, 150), (10, 200)), None),
            ("rect", (100, 125, 150, 135), YELLOW),
            ("rect", (155, 125, 205, 135), YELLOW),
            ("line", ((100, 130), (270, 130)), None),
            ("line", ((270, 130), (295, 105)), None),
            ("line", ((270, 130), (295, 155)), None),
        ),
        (
            _l("Dendrite", "left", (20, 85), 60),
            _l("Cell body", "left", (50, 140), 175),
            _l("Myelin sheath", "right", (125, 125), 60),
            _l("Node of Ranvier", "right", (152, 130), 100),
            _l("Axon", "right", (230, 130), 170),
            _l("Axon terminal", "right", (290, 150), 215),
        ),
    ),
    FigureSpec(
        "Cross-section of a leaf",
        "leaf cross-section",
        (
            ("rect", (20, 40, 280, 60), GREEN),
            ("rect", (20, 60, 280, 120), (0.45, 0.75, 0.4)),
            ("rect", (20, 120, 280, 190), (0.7, 0.88, 0.6)),
            ("rect", (20, 190, 280, 210), GREEN),
            ("oval", (130, 125, 170, 165), (0.75, 0.55, 0.35)),
            ("oval", (140, 195, 160, 210), LIGHT),
        ),
        (
            _l("Upper epidermis", "left", (40, 50), 30),
            _l("Palisade|mesophyll", "left", (40, 90), 90),
            _l("Spongy mesophyll", "left", (40, 160), 160),
            _l("Xylem", "right", (150, 135), 110),
            _l("Phloem", "right", (150, 158), 150),
            _l("Stoma", "right", (150, 205), 210),
        ),
    ),
    FigureSpec(
        "Parts of a flower (scanned plate)",
        "flower",
        (
            ("oval", (120, 160, 180, 210), GREEN),
            ("oval", (50, 60, 140, 170), PINK),
            ("oval", (160, 60, 250, 170), PINK),
            ("rect", (145, 60, 155, 170), (0.5, 0.75, 0.4)),
            ("oval", (135, 150, 165, 185), (0.85, 0.7, 0.4)),
            ("line", ((130, 170), (120, 80)), None),
            ("line", ((170, 170), (180, 80)), None),
            ("rect", (140, 210, 160, 255), GREEN),
        ),
        (
            _l("Petal", "left", (80, 110), 100),
            _l("Stamen", "left", (122, 95), 40),
            _l("Sepal", "left", (125, 195), 200),
            _l("Stigma", "right", (150, 62), 40),
            _l("Ovary", "right", (150, 168), 150),
            _l("Receptacle", "right", (150, 212), 220),
        ),
        raster=True,
    ),
    FigureSpec(
        "The nephron",
        "kidney nephron",
        (
            ("oval", (30, 30, 100, 100), (0.9, 0.75, 0.75)),
            ("oval", (45, 45, 85, 85), RED),
            ("rect", (100, 55, 200, 70), YELLOW),
            ("rect", (185, 70, 200, 220), YELLOW),
            ("rect", (215, 70, 230, 220), YELLOW),
            ("rect", (250, 20, 265, 250), BLUE),
        ),
        (
            _l("Glomerulus", "left", (65, 65), 60),
            _l("Bowman's capsule", "left", (35, 90), 120),
            _l("Proximal convoluted|tubule", "right", (150, 62), 20),
            _l("Loop of Henle", "right", (207, 215), 200),
            _l("Collecting duct", "right", (257, 120), 110),
        ),
    ),
    FigureSpec(
        "The human eye",
        "human eye",
        (
            ("oval", (50, 30, 250, 230), (0.97, 0.97, 0.97)),
            ("oval", (30, 95, 70, 165), (0.8, 0.9, 1.0)),
            ("oval", (75, 100, 105, 160), (0.85, 0.85, 0.6)),
            ("rect", (60, 90, 70, 110), BLUE),
            ("rect", (60, 150, 70, 170), BLUE),
            ("rect", (245, 120, 295, 140), ORANGE),
            ("oval", (55, 35, 245, 225), None),
        ),
        (
            _l("Cornea", "left", (35, 130), 70),
            _l("Iris", "left", (65, 160), 190),
            _l("Lens", "right", (90, 130), 20),
            _l("Retina", "right", (240, 80), 60),
            _l("Optic nerve", "right", (280, 130), 150),
        ),
    ),
)
