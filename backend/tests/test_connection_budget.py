"""CLUSTER_NODES (decision 0161): a node refuses to start when every node of the cluster together could open more
PostgreSQL connections than the server accepts."""

import os
import subprocess
import sys

import pytest

from tradeideas import cluster
from tradeideas.settings import Settings

POSTGRES = os.environ.get("TEST_DB") == "postgres"


def test_every_process_of_every_node_counts_its_pool_and_its_own_connections(settings: Settings) -> None:
    three = settings.model_copy(
        update={"cluster_nodes": 3, "workers": 2, "background_workers": 1, "database_pool_size": 10}
    )
    assert cluster.connections_needed(three) == 3 * (2 + 1) * (10 + 2)


@pytest.mark.skipif(not POSTGRES, reason="SQLite has no connection limit (one node only)")
async def test_the_budget_reads_the_servers_limit_and_its_reserve(settings: Settings) -> None:
    budget = await cluster.connection_budget(settings.model_copy(update={"cluster_nodes": 3}))
    assert budget.max_connections > budget.reserved >= 1
    assert budget.fits == (budget.needed <= budget.max_connections - budget.reserved)
    assert budget.needed == cluster.connections_needed(settings.model_copy(update={"cluster_nodes": 3}))


@pytest.mark.skipif(not POSTGRES, reason="SQLite has no connection limit (one node only)")
def test_serve_refuses_a_cluster_larger_than_the_server_accepts(settings: Settings) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": settings.resolved_database_url,
        "DATA_DIR": str(settings.data_dir),
        "CLUSTER_NODES": "100",
        "PORT": "1",  # never reached: the check comes first
    }
    run = subprocess.run(
        [sys.executable, "-m", "tradeideas.cli", "serve"], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1
    assert "This cluster could open 2400 PostgreSQL connections: CLUSTER_NODES=100 x (WORKERS=1" in run.stderr
    assert "Lower DATABASE_POOL_SIZE or WORKERS, or raise max_connections." in run.stderr
    assert "Starting on" not in run.stdout
