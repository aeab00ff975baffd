"""The demo customer's journal: trades taken from sample ideas, two closed (a win and a loss) and one open,
so a first run shows results in R and in the account currency beside each educator's outcome."""

from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from tradeideas.auth.schemas import DemoAccounts
from tradeideas.desk.models import JournalEntry
from tradeideas.desk.schemas import JournalCreate, JournalUpdate
from tradeideas.desk.service import level_number, take_idea, update_entry
from tradeideas.ideas import service as ideas
from tradeideas.settings import Settings

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
