"""The demo data shows every feature: charts on ideas, history everywhere, messages with an image and reactions."""

import av
import httpx
from fastapi import FastAPI
from sqlalchemy import delete, func, select

from tradeideas.auth.models import Role, User
from tradeideas.auth.schemas import DemoAccounts
from tradeideas.chat.models import ChatMessage, ChatReaction, ChatRoom
from tradeideas.chat.seed import seed_sample_messages
from tradeideas.desk.models import JournalEntry
from tradeideas.desk.seed import seed_sample_journal
from tradeideas.desk.service import list_journal
from tradeideas.ideas.models import IdeaImage, TradeIdea
from tradeideas.ideas.seed import DEMO_VIDEO_URL, MEDIA_PAIR, SAMPLES
from tradeideas.profiles.schemas import ProfileUpdate
from tradeideas.seed import DEMO_CUSTOMER_EMAIL, load_educators
from tradeideas.settings import Settings


async def test_every_seeded_idea_has_a_chart_and_every_history_page_has_ideas(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as s:
        # The sample ideas are the first rows (other tests add ideas of their own, without charts).
        seeded = list((await s.execute(select(TradeIdea).order_by(TradeIdea.id).limit(len(SAMPLES)))).scalars())
        assert seeded
        for idea in seeded:
            assert (await s.execute(select(IdeaImage).where(IdeaImage.idea_id == idea.id))).first() is not None
        pages = set(
            (await s.execute(select(TradeIdea.market, TradeIdea.idea_type).where(TradeIdea.completed.is_(True)))).all()
        )
        assert {(m, t) for m in ("forex", "crypto") for t in ("Leverage", "Exchange")} <= {(m, t) for m, t in pages}


async def test_sample_messages_fill_both_rooms_with_an_image_and_reactions(app: FastAPI, settings: Settings) -> None:
    async with app.state.db.sessionmaker() as s, s.begin() as transaction:
        educators = list(
            (await s.execute(select(User.id).where(User.role == Role.EDUCATOR).order_by(User.id))).scalars()
        )
        customer_id = (await s.execute(select(User.id).where(User.email == DEMO_CUSTOMER_EMAIL))).scalar_one()
        await seed_sample_messages(s, settings, DemoAccounts(educator_ids=educators, customer_id=customer_id))
        for room in (await s.execute(select(ChatRoom))).scalars():
            count = await s.scalar(select(func.count()).select_from(ChatMessage).where(ChatMessage.room_id == room.id))
            assert count and count >= 3
        assert await s.scalar(select(func.count()).where(ChatMessage.image_id.is_not(None)))
        assert await s.scalar(select(func.count()).select_from(ChatReaction))
        await transaction.rollback()


async def test_one_seeded_idea_has_three_charts_a_playable_voice_note_and_a_video_link(
    app: FastAPI, settings: Settings
) -> None:
    async with app.state.db.sessionmaker() as s:
        seeded = list((await s.execute(select(TradeIdea).order_by(TradeIdea.id).limit(len(SAMPLES)))).scalars())
        [idea] = [i for i in seeded if i.pair == MEDIA_PAIR]
        images = (await s.execute(select(func.count()).where(IdeaImage.idea_id == idea.id))).scalar_one()
    assert images == 3
    assert idea.video_url == DEMO_VIDEO_URL
    assert idea.audio_url is not None and idea.audio_url.endswith(".m4a")
    voice = settings.media_dir / idea.audio_url.removeprefix("/media/")
    with av.open(str(voice), mode="r") as played:
        assert played.streams.audio[0].codec_context.name == "aac"
        assert played.duration is not None and played.duration / 1e6 > 3


async def test_every_demo_educator_has_a_profile_a_customer_can_read(customer: httpx.AsyncClient) -> None:
    educators = (await customer.get("/api/users/educators")).json()
    assert len(educators) == 7
    for educator in educators:
        assert educator["bio"], educator["displayName"]
    # The seeded values keep the rules of the profile form (options, lengths, 0-50 years).
    for config in load_educators():
        ProfileUpdate.model_validate(
            {key: config[key] for key in ("bio", "specialty", "yearsExperience", "tradingStyle", "timezone")}
        )


async def test_the_demo_customers_journal_has_a_win_a_loss_and_an_open_trade(app: FastAPI, settings: Settings) -> None:
    async with app.state.db.sessionmaker() as s, s.begin() as transaction:
        customer_id = (await s.execute(select(User.id).where(User.email == DEMO_CUSTOMER_EMAIL))).scalar_one()
        await s.execute(delete(JournalEntry).where(JournalEntry.user_id == customer_id))
        await seed_sample_journal(s, settings, DemoAccounts(educator_ids=[], customer_id=customer_id))
        journal = await list_journal(s, customer_id)
        await transaction.rollback()
    results = sorted((e.status, e.r_multiple is not None and e.r_multiple > 0) for e in journal.entries)
    assert results == [("closed", False), ("closed", True), ("open", False)]
    assert all(e.note and e.idea_status for e in journal.entries)
    assert journal.totals.closed == 2 and journal.totals.wins == 1
