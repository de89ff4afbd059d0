"""Helpers for the run tests: a small real project and a models.toml for the loopback server."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw

from labeler.store import KeyEntry, NewItem, Project

KEY_ENV = "LABELER_TEST_KEY"

ITEMS = {
    "heart": ("the human heart", ["aorta", "left ventricle", "right atrium"], "PNG"),
    "valves": ("valves of the heart", ["aorta", "mitral valve", "tricuspid valve"], "JPEG"),
    "kidney": ("the kidney nephron", ["loop of Henle", "glomerulus"], "PNG"),
}


def figure(fmt: str = "PNG", size: tuple[int, int] = (400, 300), seed: int = 0) -> bytes:
    """A small figure with leader lines, encoded as ``fmt``."""
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    for i in range(5):
        y = 30 + 50 * i + seed
        draw.line((20, y, size[0] // 2, size[1] // 2), fill="black", width=2)
    draw.ellipse((size[0] // 3, size[1] // 3, size[0] // 2 + 40, size[1] // 2 + 40), outline="red")
    buf = io.BytesIO()
    img.save(buf, fmt)
    return buf.getvalue()


def make_project(folder: Path) -> Project:
    project = Project.create(folder, name="runs")
    for seed, (item_id, (subject, names, fmt)) in enumerate(ITEMS.items()):
        project.items.add(
            NewItem(
                item_id=item_id,
                subject=subject,
                question_png=figure(fmt, seed=seed),
                key=[KeyEntry(name) for name in names],
            )
        )
    return project


def models_toml(path: Path, server_url: str, **extra: dict) -> Path:
    """A models.toml with one model per provider, all pointed at the loopback server."""
    entries = {
        "t/openai": {
            "provider": "openai",
            "model": "gpt-test",
            "base_url": f"{server_url}/v1",
            "temperature": 0,
            "max_tokens": 8000,
            "price_input_per_mtok": 2.5,
            "price_output_per_mtok": 10.0,
        },
        "t/anthropic": {
            "provider": "anthropic",
            "model": "claude-test",
            "base_url": server_url,
            "effort": "high",
            "max_tokens": 24000,
        },
        "t/gemini": {
            "provider": "gemini",
            "model": "gemini-test",
            "base_url": server_url,
            "temperature": 0,
            "thinking_budget": 1024,
            "max_tokens": 8000,
            "price_input_per_mtok": 0.3,
            "price_output_per_mtok": 2.5,
        },
    }
    lines = []
    for name, entry in entries.items():
        entry = {**entry, **extra.get(name, {})}
        lines.append("[[models]]")
        lines.append(f'name = "{name}"')
        lines.append(f'api_key_env = "{KEY_ENV}"')
        for key, value in entry.items():
            lines.append(
                f"{key} = {value!r}" if not isinstance(value, str) else f'{key} = "{value}"'
            )
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path
