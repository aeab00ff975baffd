"""The demo customer's journal: trades taken from sample ideas, two closed (a win and a loss) and one open,
so a first run shows results in R and in the account currency beside each educator's outcome. With the demo history,
the customer also took some completed history ideas and managed them their own way (out early, stopped with
slippage, cut a loser), so once the price checks settle the journal shows what managing cost them (issue #42). And
demo followers: members who journaled some of each educator's history ideas, so "taken" shows on ideas and records."""

import random
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.desk.models import JournalEntry
from tradeideas.desk.schemas import JournalCreate, JournalUpdate
from tradeideas.desk.service import take_idea, update_entry
from tradeideas.desk.taken import TAKEN_THRESHOLD, level_number
from tradeideas.ideas import service as ideas
from tradeideas.ideas.schemas import IdeaOut
from tradeideas.settings import Settings

# Per educator, how many history ideas followers took: the first by every follower, the others by a few.
FOLLOWED_IDEAS = 4

# (status of the sample idea taken, where the customer got out: "close" the educator's close price,
# "invalidation" the stop, None still open, the customer's note)
TAKEN: tuple[tuple[str, str | None, str], ...] = (
    ("successful", "close", "Took it at the first entry; out where the educator closed."),
    ("unsuccessful", "invalidation", "Stopped out. Risk was 1 % as planned."),
    ("active", None, "Second entry still to fill if price dips."),
)


async def seed_sample_journal(db: AsyncSession, _settings: Settings, demo: DemoAccounts) -> None:
    customer_id = demo.customer_id
    if customer_id is None:
        return
    for status, exit_at, note in TAKEN:
        idea = await ideas.newest_idea(db, status)
        assert idea is not None, "the sample ideas have every status"
        assert level_number(idea.entry1) is not None, "sample ideas have numeric levels"
        taken, _ = await take_idea(db, customer_id, JournalCreate(idea_id=idea.id, fill_price=idea.entry1, note=note))
        if exit_at is not None:
            exit_price = (idea.close_price or idea.exit1) if exit_at == "close" else idea.invalidation_level
            await update_entry(db, customer_id, taken.id, JournalUpdate(exit_price=exit_price))
        # Taken shortly after the idea was published, and closed when the educator closed it.
        entry = await db.get(JournalEntry, taken.id)
        assert entry is not None
        entry.created_at = idea.created_at + timedelta(minutes=12)
        if entry.closed_at is not None and idea.closed_at is not None:
            entry.closed_at = idea.closed_at
    await db.flush()


# The demo customer's trades of history ideas: from each of the first educators, their newest completed ideas.
MANAGED_EDUCATORS = 3
MANAGED_PER_EDUCATOR = 3
# Where the customer got out, in R from their fill at the idea's entry, in turn: winners taken early, at the
# educator's target (None) or a little late; losers stopped with slippage or cut before the stop.
WINNER_EXITS: tuple[float | None, ...] = (0.8, None, 1.2)
LOSER_EXITS: tuple[float, ...] = (-1.1, -0.6)
MANAGED_NOTES = {
    "early": "Took profit early: the move stalled on my screen.",
    "target": "Out where the educator closed.",
    "trailed": "Trailed my stop and got taken out before the target.",
    "stopped": "Stopped out with some slippage.",
    "cut": "Cut it before the stop: did not like the price action.",
}


async def seed_customer_history_journal(db: AsyncSession, settings: Settings, demo: DemoAccounts) -> None:
    """The demo customer's closed trades of completed history ideas, each managed differently from the idea, so the
    journal shows a management cost per entry and on average once the ideas' price checks settle (decision 0178).
    Deterministic: the same ideas (each educator's newest completed ones) and exits in a fixed rotation."""
    if not settings.demo_history or demo.customer_id is None:
        return
    wins = losses = 0
    # The sample journal may have taken the newest history idea already: one entry per idea here.
    taken_before = set(
        (await db.execute(select(JournalEntry.idea_id).where(JournalEntry.user_id == demo.customer_id))).scalars()
    )
    for educator_id in demo.educator_ids[:MANAGED_EDUCATORS]:
        history = [i for i in await ideas.completed_ideas_of(db, educator_id) if i not in taken_before]
        for idea_id in history[-MANAGED_PER_EDUCATOR:]:
            idea = await ideas.public_idea(db, idea_id)
            entry, stop = level_number(idea.entry1), level_number(idea.invalidation_level)
            if entry is None or stop is None or idea.closed_at is None:
                continue
            risk, sign = abs(entry - stop), 1 if idea.order_type == "BUY" else -1
            if idea.status == "successful":
                planned = WINNER_EXITS[wins % len(WINNER_EXITS)]
                wins += 1
                target = level_number({"exit2": idea.exit2, "exit3": idea.exit3}.get(idea.outcome or "", idea.exit1))
                out = (target or entry) if planned is None else entry + sign * risk * planned
                how = "target" if planned is None else ("early" if planned < 1 else "trailed")
            else:
                planned_loss = LOSER_EXITS[losses % len(LOSER_EXITS)]
                losses += 1
                out = entry + sign * risk * planned_loss
                how = "stopped" if planned_loss <= -1 else "cut"
            note = MANAGED_NOTES[how]
            taken, _ = await take_idea(
                db, demo.customer_id, JournalCreate(idea_id=idea.id, fill_price=idea.entry1, note=note)
            )
            await update_entry(db, demo.customer_id, taken.id, JournalUpdate(exit_price=_typed(out, idea.entry1)))
            row = await db.get(JournalEntry, taken.id)
            assert row is not None
            row.created_at = idea.created_at + timedelta(minutes=7)
            row.closed_at = idea.closed_at + timedelta(minutes=5)
    await db.flush()


async def seed_followers(db: AsyncSession, _settings: Settings, demo: DemoAccounts) -> None:
    """Followers' journal entries on some of each educator's completed history ideas, taken and closed through the
    journal's own service (so the "taken" sums are kept as for any member). Deterministic: a generator seeded with
    the educator's id picks the ideas, each member's fill (a little slippage around the entry) and exit."""
    followers = demo.follower_ids
    if len(followers) < TAKEN_THRESHOLD:
        return
    for educator_id in demo.educator_ids:
        rng = random.Random(educator_id * 104_729)
        history = await ideas.completed_ideas_of(db, educator_id)
        if not history:
            continue
        picked = sorted(rng.sample(history, min(FOLLOWED_IDEAS, len(history))))
        for n, idea_id in enumerate(picked):
            idea = await ideas.public_idea(db, idea_id)
            count = len(followers) if n == 0 else rng.randint(2, len(followers))
            for user_id in rng.sample(followers, count):
                await _follow(db, rng, user_id, idea)


def _typed(price: float, like: str) -> str:
    """A price written the way a member would type it: as many decimals as the idea's entry (1.0850 -> 1.0862)."""
    decimals = len(like.partition(".")[2])
    return f"{price:.{decimals}f}"


async def _follow(db: AsyncSession, rng: random.Random, user_id: int, idea: IdeaOut) -> None:
    entry, stop = level_number(idea.entry1), level_number(idea.invalidation_level)
    if entry is None or stop is None or idea.closed_at is None:
        return
    risk, sign = abs(entry - stop), 1 if idea.order_type == "BUY" else -1
    # Most fills a little worse than the entry (late, spread), some better.
    fill = entry + sign * risk * rng.gauss(0.08, 0.12)
    taken, _ = await take_idea(db, user_id, JournalCreate(idea_id=idea.id, fill_price=_typed(fill, idea.entry1)))
    if idea.status == "successful":
        target = level_number({"exit2": idea.exit2, "exit3": idea.exit3}.get(idea.outcome or "", idea.exit1))
        # Some members take profit early, most where the educator closed.
        out = (target or entry) - sign * risk * (rng.uniform(0.2, 0.8) if rng.random() < 0.3 else 0.0)
    elif idea.status == "unsuccessful":
        out = stop - sign * risk * rng.uniform(0.0, 0.05)  # stopped out, a little slippage
    else:  # not triggered: a member who filled anyway got out around the entry
        out = fill + sign * risk * rng.uniform(-0.3, 0.3)
    await update_entry(db, user_id, taken.id, JournalUpdate(exit_price=_typed(out, idea.entry1)))
    row = await db.get(JournalEntry, taken.id)
    assert row is not None
    row.created_at = idea.created_at + timedelta(minutes=rng.randint(3, 90))
    row.closed_at = idea.closed_at + timedelta(minutes=rng.randint(0, 30))
    await db.flush()
