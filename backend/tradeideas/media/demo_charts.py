"""Chart pictures for the demo data, drawn at seed time (no binary files in the repository).

A candlestick chart of a seeded random walk ending near the idea's entry, with the entry,
invalidation and exit levels drawn as labelled lines: enough to show what a real chart upload looks like.
"""

import io
import random

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 800, 450
BACKGROUND = (15, 23, 42)
GRID = (30, 41, 59)
UP, DOWN = (16, 185, 129), (244, 63, 94)
LEVEL_COLOURS = {"Entry": (56, 189, 248), "Invalidation": (244, 63, 94), "Exit": (16, 185, 129)}
TEXT = (203, 213, 225)


def _number(value: str) -> float:
    try:
        return float(value.replace(",", ""))
    except ValueError:
        return 1.0


def draw_chart(pair: str, levels: list[tuple[str, str]], *, bullish: bool, seed: int) -> bytes:
    """A PNG of `pair` with `levels` ((label, price) pairs, the first being the entry)."""
    rng = random.Random(seed)
    prices = [_number(price) for _, price in levels]
    entry = prices[0]
    span = (max(prices) - min(prices)) or entry * 0.01
    # 60 candles drifting towards the entry from the side the idea expects price to come from.
    price = entry - span * (0.8 if bullish else -0.8)
    candles = []
    for i in range(60):
        pull = (entry - price) * 0.08
        open_ = price
        close = price + pull + rng.gauss(0, span * 0.06)
        high = max(open_, close) + abs(rng.gauss(0, span * 0.03))
        low = min(open_, close) - abs(rng.gauss(0, span * 0.03))
        candles.append((open_, high, low, close))
        price = close if i < 59 else entry
    lowest = min([c[2] for c in candles] + prices) - span * 0.1
    highest = max([c[1] for c in candles] + prices) + span * 0.1

    def y(value: float) -> float:
        return 20 + (highest - value) / (highest - lowest) * (HEIGHT - 50)

    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row in range(1, 6):
        draw.line([(0, row * HEIGHT / 6), (WIDTH, row * HEIGHT / 6)], fill=GRID)
    step = (WIDTH - 140) / len(candles)
    for i, (open_, high, low, close) in enumerate(candles):
        x = 10 + i * step + step / 2
        colour = UP if close >= open_ else DOWN
        draw.line([(x, y(high)), (x, y(low))], fill=colour)
        top, bottom = sorted((y(open_), y(close)))
        draw.rectangle([x - step * 0.35, top, x + step * 0.35, max(bottom, top + 1)], fill=colour)
    for label, value in levels:
        colour = next(c for name, c in LEVEL_COLOURS.items() if label.startswith(name))
        level_y = y(_number(value))
        for x0 in range(0, WIDTH - 130, 12):
            draw.line([(x0, level_y), (x0 + 6, level_y)], fill=colour, width=2)
        draw.text((WIDTH - 125, level_y - 7), f"{label} {value}", fill=colour)
    draw.text((12, HEIGHT - 22), f"{pair} - demo chart", fill=TEXT)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
