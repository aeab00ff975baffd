"""Which ideas on one symbol a batch of new candles can move: their watched levels kept sorted (decision 0055).

A poll round brings one or two new candles per symbol, and most ideas' levels are nowhere near them. The book
keeps, per side and kind of touch (`Watch`, below), the levels of the ideas it holds sorted, so the ideas a
batch of candles may move are found by bisecting with the batch's low and high: a quiet round does no work per
idea. The rules stay in `settlement`: the book only says who to replay, and errs on the side of replaying.
"""

from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from tradeideas.prices.progress import MAX_SECONDS, TRIGGER_SECONDS, Candle, Plan, Prices, Progress, Side

# ---------------------------------------------------------------- what can move an idea next

How = Literal["range", "down", "up"]


@dataclass(frozen=True)
class Watch:
    """The levels whose touch can move an idea, and its deadline: a candle that touches none of them and ends before
    the deadline leaves the idea where it is (`advance` only moves its cursor, closes and MAE/MFE).

    Each level is (side, how, level): `side` the prices it trades on ("bid" holds crypto's trade prices), `how`
    "range" (touched when it lies in the path from the previous close through the candle's low and high), "down"
    (touched when the low reaches it) or "up" (when the high does).
    """

    levels: tuple[tuple[Side, How, Decimal], ...]
    deadline: int


def watched(plan: Plan, p: Progress) -> Watch | None:
    """What can move a waiting or open idea next (None once it is done)."""
    if p.done:
        return None
    exit_side: Side = "ask" if plan.two_sided and not plan.buy else "bid"
    entry_side: Side = "ask" if plan.two_sided and plan.buy else "bid"
    against: How = "down" if plan.buy else "up"
    towards: How = "up" if plan.buy else "down"
    if p.state == "waiting":
        ranged: How = "range"
        levels = ((entry_side, ranged, plan.entry), (exit_side, against, plan.stop))
        return Watch(levels, plan.published + TRIGGER_SECONDS)
    levels = ((exit_side, against, plan.stop), (exit_side, towards, plan.exits[p.reached]))
    return Watch(levels, plan.published + MAX_SECONDS)


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
