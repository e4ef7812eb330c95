"""`headroom demo` leaves both demo logs characterized (the dataset page's tabs have data),
once: seeding again starts no new characterization."""

from sqlalchemy import select

from headroom.characterizations import service
from headroom.characterizations.models import Characterization
from headroom.core.db import session_scope
from headroom.core.settings import Settings
from headroom.datasets.models import Dataset
from headroom.demo.samples import SYNTHETIC_NAME
from headroom.demo.seed import DEFAULT_SAMPLE, seed_demo
from headroom.jobs.models import Job


def test_demo_logs_are_characterized_once(settings: Settings) -> None:
    seed_demo(settings, "demo@example.com", "demo-password", None)
    seed_demo(settings, "demo@example.com", "demo-password", None)
    with session_scope(settings.resolved_database_url()) as session:
        names = {d.id: d.name for d in session.scalars(select(Dataset))}
        items = list(session.scalars(select(Characterization)))
        assert sorted(names[c.dataset_id] for c in items) == sorted(
            [DEFAULT_SAMPLE.name, SYNTHETIC_NAME]
        )
        for item in items:
            job = session.get(Job, item.job_id)
            assert job is not None and job.status == "succeeded"
            result = service.result_of(session, item)
            assert result is not None
            arrivals = result["display"]["arrivals"]
            assert arrivals["60"]["stats"]["total"] == result["requests"]
            if names[item.dataset_id] == DEFAULT_SAMPLE.name:
                assert result["requests"] == 10_000  # the sample's lines (MANIFEST)
