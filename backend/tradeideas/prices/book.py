"""Which ideas on one symbol a batch of new candles can move: their watched levels kept sorted (decision 0055).

A poll round brings one or two new candles per symbol, and most ideas' levels are nowhere near them. The book
keeps, per side and kind of touch (`settlement.Watch`), the levels of the ideas it holds sorted, so the ideas a
batch of candles may move are found by bisecting with the batch's low and high: a quiet round does no work per
idea. The rules stay in `settlement`: the book only says who to replay, and errs on the side of replaying.
"""

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Sequence
from decimal import Decimal

from tradeideas.prices.settlement import Candle, Prices, Side, Watch


class Book:
    def __init__(self) -> None:
        # (side, how) -> sorted [(level, idea id)]
        self._levels: dict[tuple[str, str], list[tuple[Decimal, int]]] = {}
        self._deadlines: list[tuple[int, int]] = []
        self._held: dict[int, Watch] = {}

    def __contains__(self, idea_id: int) -> bool:
        return idea_id in self._held

    def __len__(self) -> int:
        return len(self._held)

    def ids(self) -> Iterable[int]:
        return self._held.keys()

    def add(self, idea_id: int, watch: Watch) -> None:
        self.remove(idea_id)
        self._held[idea_id] = watch
        for side, how, level in watch.levels:
            insort(self._levels.setdefault((side, how), []), (level, idea_id))
        insort(self._deadlines, (watch.deadline, idea_id))

    def remove(self, idea_id: int) -> None:
        watch = self._held.pop(idea_id, None)
        if watch is None:
            return
        for side, how, level in watch.levels:
            entries = self._levels[(side, how)]
            del entries[bisect_left(entries, (level, idea_id))]
        del self._deadlines[bisect_left(self._deadlines, (watch.deadline, idea_id))]

    def touched(self, candles: Sequence[Candle], previous: Candle | None) -> set[int]:
        """Ideas held whose watched levels these candles (the ones after `previous`, the last candle every held idea
        has passed) may touch, or whose deadline they reach."""
        if not candles:
            return set()
        out: set[int] = set()
        for side in ("bid", "ask"):
            prices = [_side(c, side) for c in candles]
            low = min(p.low for p in prices)
            high = max(p.high for p in prices)
            down = self._levels.get((side, "down"), [])
            out.update(i for _, i in down[bisect_left(down, (low, -1)) :])
            up = self._levels.get((side, "up"), [])
            out.update(i for _, i in up[: bisect_right(up, (high, _MAX_ID))])
            if previous is not None:  # a gap from the previous close through the level
                close = _side(previous, side).close
                low, high = min(low, close), max(high, close)
            ranged = self._levels.get((side, "range"), [])
            out.update(i for _, i in ranged[bisect_left(ranged, (low, -1)) : bisect_right(ranged, (high, _MAX_ID))])
        newest = max(c.end for c in candles)
        out.update(i for _, i in self._deadlines[: bisect_right(self._deadlines, (newest, _MAX_ID))])
        return out


_MAX_ID = 2**63


def _side(candle: Candle, side: Side | str) -> Prices:
    return candle.ask if side == "ask" and candle.ask is not None else candle.bid
