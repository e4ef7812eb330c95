"""Characterizations: create (idempotent per dataset and rules), list, read, the model;
the rules stored per dataset (absent: the defaults) and the characterization under them."""

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from pydantic import JsonValue
from pydantic.json_schema import JsonSchemaValue
from sqlalchemy.orm import Session

from headroom.auth.models import User
from headroom.auth.principal import Principal
from headroom.auth.schemas import UserRef
from headroom.characterizations import repository
from headroom.characterizations.documents import CharacterizationDoc
from headroom.characterizations.models import Characterization, DatasetRules
from headroom.characterizations.schemas import (
    CharacterizationOut,
    CharacterizationPage,
    DatasetRulesOut,
)
from headroom.core.errors import InvalidInput, NotFound, NotReady
from headroom.core.settings import Settings
from headroom.datasets import service as dataset_service
from headroom.datasets import slices
from headroom.datasets.slices_params import SliceIn
from headroom.engine.workload import Rules, default_rules, rules_schema, workload_model_schema
from headroom.engine.workload.model import ModelError, WorkloadModel, from_workload_model
from headroom.jobs import derived
from headroom.jobs.models import Job
from headroom.jobs.schemas import JobOut
from headroom.simulations.scenario_json import ScenarioJson
from headroom.workspaces.models import Role

CHARACTERIZE_TASK = "workload.characterize"


def default_rules_of() -> Rules:
    return default_rules()


def rules_document(rules: Rules | None) -> dict[str, JsonValue]:  # the stored JSON column
    """The rules as stored and served: the default rules when none are given."""
    return (rules or default_rules()).model_dump(mode="json")


def rules_json_schema() -> JsonSchemaValue:
    return rules_schema()


def model_json_schema() -> JsonSchemaValue:
    return workload_model_schema()


def rules_key(document: Mapping[str, object], part: SliceIn | None = None) -> str:
    """The hash of the canonical rules (defaults filled in, keys sorted), and of the slice
    when one is given (the whole dataset's key is the rules' alone)."""
    keyed: Mapping[str, object] = (
        document if part is None else {"rules": document, "slice": part.stored()}
    )
    canonical = json.dumps(keyed, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def create(
    session: Session,
    principal: Principal,
    dataset_id: int,
    rules: Rules | None,
    part: SliceIn | None = None,
) -> tuple[Characterization, Job | None]:
    """A new characterization with a queued job, or the existing one with these rules
    (None: the dataset's stored rules) and this slice (None: the whole dataset). Under the
    stored rules a viewer may ask (the result is derived from what they may read and
    changes nothing of theirs); rules of one's own need an editor."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.viewer if rules is None else Role.editor)
    derived.require_ready(dataset, "characterization needs")
    part = slices.normalized(part)
    slices.where_of(part, "slice.")  # a bad slice: 422 naming its field
    document = rules_document(rules or stored_rules(session, dataset.id))
    key = rules_key(document, part)
    return derived.create_or_reuse(
        session,
        lambda: repository.by_rules(session, dataset.id, key),
        dataset,
        CHARACTERIZE_TASK,
        lambda job_id: Characterization(
            workspace_id=dataset.workspace_id,
            dataset_id=dataset.id,
            rules=document,
            rules_key=key,
            slice=None if part is None else part.stored(),
            job_id=job_id,
            created_by_id=principal.user.id,
        ),
        "characterization",
    )


def start(
    session: Session,
    principal: Principal,
    settings: Settings,
    dataset_id: int,
    rules: Rules | None,
    part: SliceIn | None = None,
) -> tuple[Characterization, bool]:
    """`create`, its job (if any) started after the commit; True when a job was started."""
    return derived.start(session, settings, *create(session, principal, dataset_id, rules, part))


def get_visible(session: Session, principal: Principal, item_id: int) -> Characterization:
    return derived.get_visible(session, principal, Characterization, item_id, "characterization")


def list_page(
    session: Session, principal: Principal, dataset_id: int, limit: int, offset: int
) -> CharacterizationPage:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    items, total = derived.page(
        session, Characterization, dataset.id, limit, offset, lambda c: to_out(session, c, False)
    )
    return CharacterizationPage(items=items, total=total)


def document_of(session: Session, item: Characterization) -> CharacterizationDoc | None:
    """The finished result; None while the job has not succeeded."""
    stored = result_of(session, item)
    return None if stored is None else CharacterizationDoc.model_validate(stored)


def result_of(session: Session, item: Characterization) -> dict[str, JsonValue] | None:
    """The stored JSON as is (the simulations domain reads it so)."""
    return derived.result_of(session, item)


def model_of(session: Session, item: Characterization) -> WorkloadModel:
    result = document_of(session, item)
    if result is None:
        raise NotReady(f"characterization {item.id} has no result yet")
    return result.model


def to_out(
    session: Session, item: Characterization, with_result: bool = True
) -> CharacterizationOut:
    job = derived.job_of(session, item)
    creator = session.get(User, item.created_by_id) if item.created_by_id else None
    return CharacterizationOut(
        id=item.id,
        workspace_id=item.workspace_id,
        dataset_id=item.dataset_id,
        rules=Rules.model_validate(item.rules),
        slice=None if item.slice is None else SliceIn.model_validate(item.slice),
        created_at=item.created_at,
        created_by=UserRef.model_validate(creator) if creator else None,
        job=JobOut.model_validate(job) if job else None,
        result=document_of(session, item) if with_result else None,
    )


def stored_rules(session: Session, dataset_id: int) -> Rules | None:
    row = repository.rules_of(session, dataset_id)
    return Rules.model_validate(row.rules) if row is not None else None


def rules_out(session: Session, principal: Principal, dataset_id: int) -> DatasetRulesOut:
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    row = repository.rules_of(session, dataset.id)
    if row is None:
        return DatasetRulesOut(
            dataset_id=dataset.id,
            rules=default_rules(),
            is_default=True,
            updated_at=None,
            updated_by=None,
        )
    editor = session.get(User, row.updated_by_id) if row.updated_by_id else None
    return DatasetRulesOut(
        dataset_id=dataset.id,
        rules=Rules.model_validate(row.rules),
        is_default=False,
        updated_at=row.updated_at,
        updated_by=UserRef.model_validate(editor) if editor else None,
    )


def save_rules(
    session: Session, principal: Principal, dataset_id: int, rules: Rules
) -> tuple[Characterization, Job | None]:
    """Store the dataset's rules and return the characterization under them (with a new
    job unless one exists). A dataset not ingested yet keeps its old rules (409)."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    principal.require(dataset.workspace_id, Role.editor)
    row = repository.rules_of(session, dataset.id) or DatasetRules(dataset_id=dataset.id)
    row.rules, row.updated_by_id = rules_document(rules), principal.user.id
    session.add(row)
    session.flush()
    return create(session, principal, dataset.id, rules)


def save_rules_and_start(
    session: Session, principal: Principal, settings: Settings, dataset_id: int, rules: Rules
) -> Characterization:
    """`save_rules`, the characterization's job (if any) started after the commit."""
    item, _ = derived.start(session, settings, *save_rules(session, principal, dataset_id, rules))
    return item


def current(session: Session, principal: Principal, dataset_id: int) -> Characterization:
    """The characterization under the dataset's stored (or default) rules."""
    dataset = dataset_service.get_visible(session, principal, dataset_id)
    key = rules_key(rules_document(stored_rules(session, dataset.id)))
    item = repository.by_rules(session, dataset.id, key)
    if item is None:
        raise NotFound(f"dataset {dataset_id} has no characterization under its rules yet")
    return item


def scenario_from_model(  # documents of the simulations domain, validated by the engine
    model: dict[str, Any], duration_s: float | None
) -> ScenarioJson:
    """The scenario document a workload model becomes (engine.workload.model): 422 naming the
    model's field when the document is not a valid workload model."""
    try:
        return from_workload_model(model, duration_s=duration_s)
    except ModelError as error:
        path, _, message = str(error).partition(": ")
        field = "model" if path == "(document)" else f"model.{path}"
        raise InvalidInput("validation_error", f"{field}: {message}", field=field) from None
