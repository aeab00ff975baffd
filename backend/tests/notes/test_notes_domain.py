"""The README's recipe for a new domain, followed once: the notes domain (this folder) is served, its events are
known to the bus and documented, and its own subscription runs, by adding it to the list the app is built from."""

from asgi_lifespan import LifespanManager

from tests.conftest import make_client
from tests.notes import service
from tests.notes.domain import DOMAIN as NOTES
from tests.notes.events import NoteTaken
from tradeideas.app import create_app
from tradeideas.domains import DOMAINS
from tradeideas.realtime.service import publish
from tradeideas.settings import Settings


async def test_a_domain_added_to_the_list_is_served_and_hears_its_own_events(settings: Settings) -> None:
    app = create_app(settings, domains=(*DOMAINS, NOTES))
    async with LifespanManager(app):
        async with app.state.db.sessionmaker() as session, session.begin():
            await publish(session, NoteTaken(text="the recipe works"))
        async with make_client(app) as client:
            answer = await client.get("/api/notes")
    assert answer.status_code == 200
    assert answer.json()[-1] == "the recipe works" == service.HEARD[-1]
    assert app.state.runtime.bus.classes["notes.taken"] is NoteTaken
    assert "/api/notes" in app.openapi()["paths"]


def test_the_app_without_it_has_no_trace_of_it(settings: Settings) -> None:
    app = create_app(settings)
    assert "/api/notes" not in app.openapi()["paths"]
    assert "notes.taken" not in app.state.runtime.bus.classes
