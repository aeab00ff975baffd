"""The code's shape, checked in `make test`: the domains the app is built from are one list (`domains.DOMAINS`), the
same list the import contracts name, and no module of the prices domain grows past 350 lines (issue 39)."""

import importlib
import tomllib
from pathlib import Path

from fastapi import APIRouter
from fastapi.routing import APIRoute, iter_route_contexts

from tradeideas.app import create_app
from tradeideas.core.domain import events_of
from tradeideas.domains import DOMAINS
from tradeideas.runtime import EVENTS
from tradeideas.settings import Settings

PACKAGE = Path(__file__).resolve().parents[1] / "tradeideas"
MOST_LINES = 350


def test_no_module_of_the_prices_domain_is_over_350_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE)): len(path.read_text().splitlines()) for path in PACKAGE.glob("prices/**/*.py")
    }
    assert len(sizes) > 10  # the domain, split by job
    assert {path: lines for path, lines in sizes.items() if lines > MOST_LINES} == {}


def test_every_domain_folder_is_in_the_one_list_once() -> None:
    folders = {path.parent.name for path in PACKAGE.glob("*/router.py")}
    names = [domain.name for domain in DOMAINS]
    assert sorted(names) == sorted(folders)
    for domain in DOMAINS:
        assert importlib.import_module(f"tradeideas.{domain.name}.domain").DOMAIN is domain


def test_each_domain_declares_every_router_and_event_of_its_folder() -> None:
    for domain in DOMAINS:
        module = importlib.import_module(f"tradeideas.{domain.name}.router")
        declared = [value for value in vars(module).values() if isinstance(value, APIRouter)]
        assert {id(r) for r in domain.routers()} == {id(r) for r in declared}, domain.name
        if (PACKAGE / domain.name / "events.py").exists():
            events = importlib.import_module(f"tradeideas.{domain.name}.events")
            assert tuple(domain.events) == tuple(events.EVENTS), domain.name
    assert events_of(DOMAINS) == EVENTS


def test_the_app_serves_the_routes_of_the_listed_domains_in_their_order(settings: Settings) -> None:
    app = create_app(settings)
    served = [context.original_route for context in iter_route_contexts(app.router.routes)]
    listed = [route for domain in DOMAINS for router in domain.routers() for route in router.routes]
    spa = "/{path:outside_api}"  # the single-page app's fallback, added after every domain's routes
    api = [route for route in served if isinstance(route, APIRoute) and route.path != spa]
    assert [id(route) for route in api] == [id(route) for route in listed]


def test_the_import_contracts_name_the_listed_domains() -> None:
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    independent = next(c for c in contracts if c["type"] == "independence" and "domains" in c["name"])
    assert sorted(independent["modules"]) == sorted(f"tradeideas.{domain.name}" for domain in DOMAINS)
