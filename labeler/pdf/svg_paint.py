"""Rewrite the SVG paint MuPDF cannot draw into paint it can, before MuPDF reads the file.

MuPDF's SVG reader fills a shape black when its paint is a gradient (``fill:url(#g)``) and
ignores ``<style>`` sheets, so a class-styled shape is black too. Inkscape and Illustrator
exports use both; a textbook figure then shows black silhouettes where the bone, the
membrane or the organ should be, and the erased question is unusable. Labeler cannot ship a
full SVG renderer, but the two commonest cases have a faithful-enough rewrite:

* a gradient becomes the flat colour it averages to (offset-weighted over its stops, its
  opacity kept): the shape keeps its colour and stays distinguishable from its neighbours;
* a style sheet's simple rules (``.class``, ``#id``, ``tag``, ``tag.class`` and comma lists of
  them) are written into each matching element's ``style`` attribute, in CSS's order
  (specificity, then rule order; the element's own ``style`` wins).

What cannot be rewritten (patterns, selectors with combinators or pseudo-classes) is listed,
so the source's warning says exactly what may still be drawn wrongly
(:func:`labeler.pdf.damage.svg_warning`). Files needing nothing are passed to MuPDF untouched.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_GRADIENTS = {f"{{{SVG_NS}}}linearGradient", f"{{{SVG_NS}}}radialGradient"}
_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)['\"]?\s*\)")
_PAINT_PROPERTIES = ("fill", "stroke")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
_AT_BLOCK = re.compile(r"@[^{;]*(\{[^{}]*(\{[^{}]*\}[^{}]*)*\}|;)")
_SIMPLE = re.compile(r"^([A-Za-z][\w-]*)?((?:[.#][\w-]+)*)$")
_NAMED = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "silver": (192, 192, 192),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
}


@dataclass
class Rewrite:
    """An SVG after :func:`drawable_svg`: its bytes and what was, and was not, rewritten."""

    data: bytes
    flattened: int = 0  # paints that referred to a gradient, now a flat colour
    inlined: int = 0  # style-sheet rules written into elements
    left: list[str] = field(default_factory=list)  # what MuPDF may still draw wrongly

    @property
    def changed(self) -> bool:
        return bool(self.flattened or self.inlined)


def needs_rewrite(data: bytes) -> bool:
    """Whether ``data`` uses a style sheet or a paint server (cheap: no parse)."""
    return b"<style" in data or b"url(" in data


def drawable_svg(data: bytes) -> Rewrite:
    """``data`` with its gradients flattened and its simple style rules inlined.

    An SVG that cannot be parsed as XML is returned unchanged: MuPDF's own error for it
    is the one to show.
    """
    if not needs_rewrite(data):
        return Rewrite(data)
    _register_namespaces(data)
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return Rewrite(data)
    rewrite = Rewrite(data)
    rewrite.inlined = _inline_style_sheets(root, rewrite.left)
    rewrite.flattened = _flatten_gradients(root, rewrite.left)
    if rewrite.changed:
        rewrite.data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return rewrite


def _register_namespaces(data: bytes) -> None:
    """Keep the file's own prefixes (MuPDF matches element names, not namespaces)."""
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    for prefix, uri in re.findall(rb'xmlns:([\w.-]+)="([^"]+)"', data[:65536]):
        if uri.decode() not in (SVG_NS, XLINK_NS) and not prefix.startswith(b"ns"):
            with contextlib.suppress(ValueError):  # a reserved prefix: ElementTree picks one
                ET.register_namespace(prefix.decode(), uri.decode())


# -- style sheets ---------------------------------------------------------------------


def _inline_style_sheets(root: ET.Element, left: list[str]) -> int:
    sheets = [el for el in root.iter() if _local(el.tag) == "style"]
    if not sheets:
        return 0
    rules: list[tuple[tuple[int, int, int], int, str, dict[str, str]]] = []
    for sheet in sheets:
        text = _AT_BLOCK.sub("", _COMMENT.sub("", sheet.text or ""))
        for selectors, body in _RULE.findall(text):
            declarations = _declarations(body)
            for selector in selectors.split(","):
                selector = selector.strip()
                if not selector:
                    continue
                parsed = _simple_selector(selector)
                if parsed is None:
                    left.append(f"CSS selector {selector!r}")
                    continue
                rules.append((_specificity(*parsed), len(rules), selector, declarations))
    rules.sort(key=lambda rule: (rule[0], rule[1]))
    applied = 0
    for element in root.iter():
        from_sheet: dict[str, str] = {}
        for _, _, selector, declarations in rules:
            tag, ids, classes = _simple_selector(selector) or ("", [], [])
            if _matches(element, tag, ids, classes):
                from_sheet.update(declarations)
                applied += 1
        if from_sheet:
            own = _declarations(element.get("style", ""))
            element.set("style", _style_text({**from_sheet, **own}))
    return applied


def _simple_selector(selector: str) -> tuple[str, list[str], list[str]] | None:
    """``tag.a.b#c`` → (tag, ids, classes); ``None`` for anything with combinators."""
    match = _SIMPLE.match(selector)
    if match is None or selector == "":
        return None
    tag, rest = match.group(1) or "", match.group(2)
    parts = re.findall(r"([.#])([\w-]+)", rest)
    return (
        tag,
        [name for kind, name in parts if kind == "#"],
        [name for kind, name in parts if kind == "."],
    )


def _specificity(tag: str, ids: list[str], classes: list[str]) -> tuple[int, int, int]:
    return (len(ids), len(classes), 1 if tag and tag != "*" else 0)


def _matches(element: ET.Element, tag: str, ids: list[str], classes: list[str]) -> bool:
    if tag and tag != "*" and _local(element.tag) != tag:
        return False
    if ids and element.get("id") not in ids:
        return False
    own = set(element.get("class", "").split())
    return set(classes) <= own


# -- gradients ------------------------------------------------------------------------


def _flatten_gradients(root: ET.Element, left: list[str]) -> int:
    gradients = {el.get("id"): el for el in root.iter() if el.tag in _GRADIENTS and el.get("id")}
    servers = {el.get("id") for el in root.iter() if el.get("id")}
    colours: dict[str, tuple[str, float] | None] = {}
    flattened = 0
    for element in root.iter():
        for name in _PAINT_PROPERTIES:
            value = element.get(name)
            if value and "url(" in value:
                paint = _flat_paint(value, gradients, colours)
                if paint is not None:
                    element.set(name, paint[0])
                    if paint[1] < 0.999:
                        opacity = _number(element.get(f"{name}-opacity"), 1.0) * paint[1]
                        element.set(f"{name}-opacity", f"{opacity:.3g}")
                    flattened += 1
                else:
                    _note_unresolved(value, servers, gradients, left)
        style = element.get("style")
        if style and "url(" in style:
            declarations = _declarations(style)
            for name in _PAINT_PROPERTIES:
                value = declarations.get(name)
                if not value or "url(" not in value:
                    continue
                paint = _flat_paint(value, gradients, colours)
                if paint is None:
                    _note_unresolved(value, servers, gradients, left)
                    continue
                declarations[name] = paint[0]
                opacity = _number(declarations.get(f"{name}-opacity"), 1.0) * paint[1]
                if opacity < 0.999:
                    declarations[f"{name}-opacity"] = f"{opacity:.3g}"
                flattened += 1
            element.set("style", _style_text(declarations))
    return flattened


def _note_unresolved(
    value: str, servers: set[str | None], gradients: dict[str | None, ET.Element], left: list[str]
) -> None:
    match = _URL.search(value)
    if match and match.group(1) not in gradients:
        what = "pattern or other paint" if match.group(1) in servers else "missing paint"
        left.append(f"{what} url(#{match.group(1)})")


def _flat_paint(
    value: str,
    gradients: dict[str | None, ET.Element],
    colours: dict[str, tuple[str, float] | None],
) -> tuple[str, float] | None:
    """``url(#g)`` (with or without a fallback colour) → the gradient's mean colour, opacity."""
    match = _URL.search(value)
    if match is None:
        return None
    ident = match.group(1)
    if ident not in colours:
        stops = _stops(gradients.get(ident), gradients)
        colours[ident] = _mean_colour(stops) if stops else None
    return colours[ident]


def _stops(
    gradient: ET.Element | None, gradients: dict[str | None, ET.Element]
) -> list[tuple[float, tuple[int, int, int], float]]:
    """(offset, rgb, opacity) of a gradient's stops, following ``href`` to inherited stops."""
    seen: set[int] = set()
    while gradient is not None and id(gradient) not in seen:
        seen.add(id(gradient))
        stops = [el for el in gradient if _local(el.tag) == "stop"]
        if stops:
            return [_stop(el) for el in stops]
        href = gradient.get(f"{{{XLINK_NS}}}href") or gradient.get("href") or ""
        gradient = gradients.get(href[1:]) if href.startswith("#") else None
    return []


def _stop(stop: ET.Element) -> tuple[float, tuple[int, int, int], float]:
    style = _declarations(stop.get("style", ""))
    offset = stop.get("offset", "0").strip()
    position = _number(offset[:-1], 0.0) / 100 if offset.endswith("%") else _number(offset, 0.0)
    colour = _rgb(style.get("stop-color") or stop.get("stop-color") or "black")
    opacity = _number(style.get("stop-opacity") or stop.get("stop-opacity"), 1.0)
    return (min(1.0, max(0.0, position)), colour, min(1.0, max(0.0, opacity)))


def _mean_colour(stops: list[tuple[float, tuple[int, int, int], float]]) -> tuple[str, float]:
    """The colour a gradient averages to along its axis (pads before the first and after
    the last stop, linear between), and its mean opacity."""
    stops = sorted(stops, key=lambda s: s[0])
    points = [(0.0, stops[0][1], stops[0][2]), *stops, (1.0, stops[-1][1], stops[-1][2])]
    total = [0.0, 0.0, 0.0, 0.0]
    for (a, ca, oa), (b, cb, ob) in itertools.pairwise(points):
        width = max(0.0, b - a)
        for channel in range(3):
            total[channel] += width * (ca[channel] + cb[channel]) / 2
        total[3] += width * (oa + ob) / 2
    red, green, blue = (round(min(255.0, max(0.0, v))) for v in total[:3])
    return f"#{red:02x}{green:02x}{blue:02x}", total[3]


def _rgb(value: str) -> tuple[int, int, int]:
    value = value.strip().lower()
    if value.startswith("#") and len(value) in (4, 7):
        digits = value[1:] if len(value) == 7 else "".join(c * 2 for c in value[1:])
        try:
            return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
        except ValueError:
            return (0, 0, 0)
    match = re.match(r"rgb\(\s*([\d.]+%?)\s*,\s*([\d.]+%?)\s*,\s*([\d.]+%?)\s*\)", value)
    if match:
        red, green, blue = (_channel(v) for v in match.groups())
        return (red, green, blue)
    return _NAMED.get(value, (0, 0, 0))


def _channel(text: str) -> int:
    value = _number(text[:-1], 0.0) * 2.55 if text.endswith("%") else _number(text, 0.0)
    return round(min(255.0, max(0.0, value)))


# -- shared ---------------------------------------------------------------------------


def _declarations(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in text.split(";"):
        name, sep, value = part.partition(":")
        if sep and name.strip():
            out[name.strip().lower()] = value.strip()
    return out


def _style_text(declarations: dict[str, str]) -> str:
    return ";".join(f"{name}:{value}" for name, value in declarations.items())


def _number(text: str | None, default: float) -> float:
    try:
        return float(text) if text is not None else default
    except ValueError:
        return default


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""
