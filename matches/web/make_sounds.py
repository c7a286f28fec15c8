"""Make the web client's sounds (static/web/sounds/*.wav): tiny 8 kHz 8-bit mono WAVs,
synthesised here so the project ships its own files. Run: python -m matches.web.make_sounds"""

from __future__ import annotations

import math
import random
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 8000
OUT = Path(__file__).resolve().parent / "static" / "web" / "sounds"


def tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 6.0) -> list[float]:
    n = int(RATE * seconds)
    return [
        volume * math.exp(-decay * i / n) * math.sin(2 * math.pi * freq * i / RATE)
        for i in range(n)
    ]


def clicks(count: int, seed: int) -> list[float]:
    """Short noise bursts, like dice or a checker on wood."""
    rng = random.Random(seed)
    out: list[float] = []
    for _ in range(count):
        burst = int(RATE * 0.012)
        out += [rng.uniform(-0.7, 0.7) * math.exp(-5 * i / burst) for i in range(burst)]
        out += [0.0] * int(RATE * rng.uniform(0.02, 0.05))
    return out


SOUNDS: dict[str, Callable[[], list[float]]] = {
    "dice": lambda: clicks(5, 1),
    "checker": lambda: clicks(1, 2) + tone(180, 0.05, 0.4, 8),
    "turn": lambda: tone(660, 0.12, 0.4) + tone(880, 0.18, 0.4),
    "low": lambda: tone(990, 0.1, 0.5, 2) + [0.0] * 400 + tone(990, 0.1, 0.5, 2),
}


def write(name: str, samples: list[float]) -> None:
    with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(bytes(max(0, min(255, int(128 + 127 * s))) for s in samples))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        write(name, make())


if __name__ == "__main__":
    main()
