"""Several nodes on one PostgreSQL server: whether all of them together fit in its connections (decision 0161).

Each node runs `WORKERS` serving processes and `BACKGROUND_WORKERS` background workers. Every one of them keeps a
pool of up to `DATABASE_POOL_SIZE` connections and a few dedicated ones of its own (the event listener; the
leader's lock). PostgreSQL keeps `superuser_reserved_connections` (and, from version 16, `reserved_connections`)
for its operators. A node started into a cluster that could ask for more than the rest would work for a while and
then fail under load with "too many clients": it refuses at start instead, saying why.
"""

from dataclasses import dataclass

from sqlalchemy import text

from tradeideas.db import Database
from tradeideas.settings import Settings

# Connections a process holds outside its pool: the event listener (LISTEN) and the leader's lock.
DEDICATED_PER_PROCESS = 2


@dataclass(frozen=True)
class ConnectionBudget:
    needed: int  # by every node of the cluster together, at most
    max_connections: int
    reserved: int  # kept for superusers and roles with pg_use_reserved_connections

    @property
    def fits(self) -> bool:
        return self.needed <= self.max_connections - self.reserved


def connections_needed(settings: Settings) -> int:
    """The most connections `CLUSTER_NODES` nodes configured like this one may hold together."""
    processes = settings.workers + settings.background_workers
    return settings.cluster_nodes * processes * (settings.database_pool_size + DEDICATED_PER_PROCESS)


async def connection_budget(settings: Settings) -> ConnectionBudget:
    """What the cluster needs against what the PostgreSQL server of `DATABASE_URL` accepts."""
    database = Database(settings)
    try:
        async with database.engine.connect() as conn:
            row = (
                await conn.execute(
                    text(
                        "SELECT current_setting('max_connections')::int, "
                        "current_setting('superuser_reserved_connections')::int, "
                        "coalesce(current_setting('reserved_connections', true), '0')::int"
                    )
                )
            ).one()
    finally:
        await database.dispose()
    return ConnectionBudget(connections_needed(settings), row[0], row[1] + row[2])


def refusal(settings: Settings, budget: ConnectionBudget) -> str:
    """Why a node does not start, with the figures and what to change."""
    return (
        f"This cluster could open {budget.needed} PostgreSQL connections: CLUSTER_NODES={settings.cluster_nodes} "
        f"x (WORKERS={settings.workers} + BACKGROUND_WORKERS={settings.background_workers}) processes x "
        f"(DATABASE_POOL_SIZE={settings.database_pool_size} + {DEDICATED_PER_PROCESS}), but PostgreSQL accepts "
        f"{budget.max_connections - budget.reserved} (max_connections {budget.max_connections} minus "
        f"{budget.reserved} reserved). Lower DATABASE_POOL_SIZE or WORKERS, or raise max_connections."
    )
