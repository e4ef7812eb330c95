from fastapi import APIRouter

from headroom.api.deps import CurrentPrincipal, SessionDep
from headroom.core.ids import Id
from headroom.jobs import service
from headroom.jobs.schemas import JobOut

router = APIRouter(prefix="/jobs", tags=["jobs"])


@router.get("/{job_id}", response_model=JobOut)
def get_job(job_id: Id, principal: CurrentPrincipal, session: SessionDep) -> JobOut:
    return JobOut.model_validate(service.get_visible(session, principal, job_id))
