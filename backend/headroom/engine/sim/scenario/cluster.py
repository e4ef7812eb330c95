"""The cluster (one pool of VMs, or tiers of pools) and the dispatcher."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from headroom.engine.sim.scenario.base import NonNegFloat, PosFloat, StrictModel
from headroom.engine.sim.scenario.workload import DistSpec


class VmCount(StrictModel):
    min: Annotated[int, Field(ge=1)] = 1
    max: Annotated[int, Field(ge=1, le=4096)] = 1
    start: Annotated[int, Field(ge=1)] = 1

    @model_validator(mode="after")
    def _ordered(self) -> VmCount:
        if not self.min <= self.start <= self.max:
            raise ValueError("need min <= start <= max")
        return self


class Overhead(StrictModel):
    """Above ``q_upper`` concurrent requests, each further one multiplies speed by ``factor``."""

    q_upper: Annotated[int, Field(ge=1)]
    factor: Annotated[float, Field(gt=0, le=1)]


class Tier(StrictModel):
    """One tier of a multi-tier cluster (web -> app -> db): a pool of identical VMs.

    ``service_s`` is the demand a request puts on this tier (one core, speed 1); when
    omitted, the request's class ``service_s`` is used. ``pool_limit`` caps the requests
    a VM holds at once (threads or connections), including those waiting downstream."""

    name: Annotated[str, Field(min_length=1)]
    vms: VmCount = VmCount()
    cores: Annotated[int, Field(ge=1)] = 1
    speed: PosFloat = 1.0
    discipline: Literal["ps", "fcfs"] = "ps"
    boot_s: NonNegFloat = 30.0
    pool_limit: Annotated[int, Field(ge=1)] | None = None
    accept_queue: Annotated[int, Field(ge=0)] | None = None
    overhead: Overhead | None = None
    price_per_vm_hour: NonNegFloat = 1.0
    service_s: DistSpec | None = None


class Cluster(StrictModel):
    vms: VmCount = VmCount()
    cores: Annotated[int, Field(ge=1)] = 1
    speed: PosFloat = 1.0
    discipline: Literal["ps", "fcfs"] = "ps"
    boot_s: NonNegFloat = 30.0
    pool_limit: Annotated[int, Field(ge=1)] | None = None
    accept_queue: Annotated[int, Field(ge=0)] | None = None
    overhead: Overhead | None = None
    price_per_vm_hour: NonNegFloat = 1.0
    # Multi-tier clusters: a request visits every tier in order, holding a pool
    # slot upstream while it is served downstream (sim/tiers). With tiers, every VM
    # setting is given per tier and the top-level fields above must stay unset.
    tiers: Annotated[list[Tier], Field(min_length=1, max_length=8)] | None = None

    @model_validator(mode="after")
    def _tiers_alone(self) -> Cluster:
        if self.tiers is None:
            return self
        clash = sorted(self.model_fields_set - {"tiers"})
        if clash:
            raise ValueError(
                f"with tiers, set {clash[0]} per tier (cluster.tiers[*].{clash[0]}), "
                "not at the top level"
            )
        names = [t.name for t in self.tiers]
        if len(set(names)) != len(names):
            raise ValueError("tier names must be unique (cluster.tiers[*].name)")
        return self


DispatchName = Literal["round_robin", "weighted_round_robin", "least_connections", "lru", "random"]


class Dispatch(StrictModel):
    policy: DispatchName = "least_connections"
    per: Literal["page", "request"] = "page"
    weights: Annotated[list[PosFloat], Field(min_length=1)] = [1.0]
