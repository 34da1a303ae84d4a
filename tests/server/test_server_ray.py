"""Bots on Ray: a second worker node that joins the cluster adds its CPUs to the bot queue's capacity, and
decisions made on the cluster are the ones the table would make. A local two-node cluster (two raylets
on this machine) stands in for two machines."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import ray
import ray.cluster_utils as cluster_utils

from cardtable.server.bots import BotRunner
from cardtable.table import Table

pytestmark = pytest.mark.slow

STORE = 80 * 1024 * 1024
"""Each node's object store (small: a decision is a few kilobytes)."""


@pytest.fixture
def cluster() -> Iterator[Any]:
    made = cluster_utils.Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "object_store_memory": STORE, "include_dashboard": False})
    try:
        yield made
    finally:
        if ray.is_initialized():
            ray.shutdown()
        made.shutdown()


def positions() -> list[Table]:
    tables = []
    for seed in range(4):
        table = Table.create("zeta", ["human", "ismcts:iterations=150"], seed=seed)
        if table.current_seat == 0:
            table.play(0, table.legal(0)[0], table.version)
        tables.append(table)
    return tables


async def decide_all(runner: BotRunner, tables: list[Table]) -> list[Any]:
    return list(await asyncio.gather(*(runner.decide(f"room{i}", "zeta", {}, "ismcts:iterations=150",
                                                     t.state.clone()) for i, t in enumerate(tables))))


def test_a_second_ray_node_doubles_the_bot_capacity(cluster: Any) -> None:
    import time

    tables = positions()
    expected = [t.think(t.state.clone()) for t in tables]
    runner = BotRunner(kind="ray", ray_address=cluster.address, workers=1)
    try:
        runner.start()
        assert runner.capacity == 1
        assert asyncio.run(decide_all(runner, tables)) == expected
        assert runner.peak_running == 1  # one CPU: one decision at a time, the others queued
        cluster.add_node(num_cpus=1, object_store_memory=STORE)
        cluster.wait_for_nodes()
        time.sleep(1.1)  # the runner reads the cluster's CPUs at most once a second
        assert runner.capacity == 2
        runner.peak_running = 0
        assert asyncio.run(decide_all(runner, tables)) == expected
        assert runner.peak_running == 2  # the new node's CPU took decisions too
        assert runner.failures == 0
    finally:
        runner.close()
