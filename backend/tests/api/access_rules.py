"""Who may call what: one rule per operation of the OpenAPI schema, keyed by (method, path).

`role` is the lowest role that may call it: "public" (no sign-in; `status` is then the
exact answer, `member_status` a signed-in caller's when it differs), "signed_in" (any
user, member of a workspace or not), or a workspace role "viewer" < "editor" < "owner".
`scoped`: the path names an object of the workspace under test, so another workspace's
owner gets 404 (existence is not revealed); unscoped operations act on the caller's own
workspace(s) and are allowed for them. test_access_matrix derives every role's expected
status from these rules; an operation without a rule fails it: add one here."""

from dataclasses import dataclass, field
from typing import Literal

Level = Literal["public", "signed_in", "viewer", "editor", "owner"]
Scope = Literal["read", "write", "admin", "session"]


@dataclass(frozen=True)
class Rule:
    role: Level
    scoped: bool = True
    params: dict[str, str] = field(default_factory=dict)  # path param -> world key
    query: dict[str, str] = field(default_factory=dict)  # query param -> world key or value
    fresh: bool = False  # objects made anew for each caller (deletes, per-user objects)
    denied: int = 403  # what a member below `role` gets
    missing_ok: bool = False  # 404 not_found is right: the world has no such result yet
    scope: Scope | None = None
    # public operations: the exact status for every caller, and for signed-in callers when
    # it differs (a share link that is revoked, expired or unknown is 404 for everyone)
    status: int | None = None
    member_status: int | None = None


def r(role: Level, scoped: bool = True, **params: str) -> Rule:
    return Rule(role, scoped, params)


V1 = "/api/v1"
RULES: dict[tuple[str, str], Rule] = {
    ("GET", "/api/health"): Rule("public", False, status=200),
    ("POST", f"{V1}/auth/login"): Rule("public", False, status=422),  # {}: no credentials
    ("POST", f"{V1}/auth/logout"): Rule("public", False, status=204),
    ("GET", f"{V1}/auth/me"): r("signed_in", False),
    # workspaces, members, invitations, tokens
    ("GET", f"{V1}/workspaces"): r("signed_in", False),
    ("POST", f"{V1}/workspaces"): r("signed_in", False),
    ("GET", f"{V1}/workspaces/{{workspace_id}}/members"): r("viewer"),
    ("PATCH", f"{V1}/workspaces/{{workspace_id}}/members/{{user_id}}"): r("owner"),
    ("DELETE", f"{V1}/workspaces/{{workspace_id}}/members/{{user_id}}"): r("owner"),
    ("GET", f"{V1}/workspaces/{{workspace_id}}/invitations"): r("owner"),
    ("POST", f"{V1}/workspaces/{{workspace_id}}/invitations"): r("owner"),
    ("DELETE", f"{V1}/workspaces/{{workspace_id}}/invitations/{{invitation_id}}"): r("owner"),
    # tokens are managed signed in, or with an admin token; minted only signed in
    ("GET", f"{V1}/workspaces/{{workspace_id}}/tokens"): Rule("viewer", scope="admin"),
    ("POST", f"{V1}/workspaces/{{workspace_id}}/tokens"): Rule("viewer", scope="session"),
    ("DELETE", f"{V1}/workspaces/{{workspace_id}}/tokens/{{token_id}}"): Rule(
        "viewer", scope="admin"
    ),
    ("GET", f"{V1}/invitations/{{token}}"): Rule(
        "public", params={"token": "invitation_token"}, status=200
    ),
    # accepting needs a sign-in (401), as the invited address (403 for everyone else here)
    ("POST", f"{V1}/invitations/{{token}}/accept"): Rule(
        "public", params={"token": "invitation_token"}, status=401, member_status=403
    ),
    # Prometheus sources
    ("GET", f"{V1}/sources/prometheus"): r("viewer", False),
    ("POST", f"{V1}/sources/prometheus"): r("editor", False),
    ("GET", f"{V1}/sources/prometheus/{{source_id}}"): r("viewer"),
    ("PATCH", f"{V1}/sources/prometheus/{{source_id}}"): r("editor"),
    ("DELETE", f"{V1}/sources/prometheus/{{source_id}}"): r("editor"),
    ("POST", f"{V1}/sources/prometheus/{{source_id}}/test"): r("editor"),
    ("POST", f"{V1}/sources/prometheus/{{source_id}}/import"): r("editor"),
    ("GET", f"{V1}/sources/prometheus/datasets/{{dataset_id}}/latency"): r("viewer"),
    ("GET", f"{V1}/sources/prometheus/datasets/{{dataset_id}}/traffic"): r("viewer"),
    ("GET", f"{V1}/sources/prometheus/{{source_id}}/breaches"): r("viewer"),
    # datasets and uploads
    ("GET", f"{V1}/datasets"): r("viewer", False),
    ("POST", f"{V1}/datasets"): r("editor", False),
    ("GET", f"{V1}/datasets/{{dataset_id}}"): r("viewer"),
    ("DELETE", f"{V1}/datasets/{{dataset_id}}"): r("editor"),
    ("PATCH", f"{V1}/datasets/{{dataset_id}}"): r("editor"),
    ("GET", f"{V1}/datasets/{{dataset_id}}/summary"): r("viewer"),
    ("GET", f"{V1}/datasets/{{dataset_id}}/latency"): r("viewer"),
    ("GET", f"{V1}/jobs/{{job_id}}"): r("viewer"),
    ("POST", f"{V1}/uploads"): r("editor", False),
    # uploads are private to the user who started them: others get 404
    # (the user's own upload: a token of theirs of any scope sees it)
    ("GET", f"{V1}/uploads/{{upload_id}}"): Rule("editor", fresh=True, denied=404, scope="read"),
    ("DELETE", f"{V1}/uploads/{{upload_id}}"): Rule("editor", fresh=True),
    ("PUT", f"{V1}/uploads/{{upload_id}}/chunks"): Rule("editor", fresh=True),
    ("POST", f"{V1}/uploads/{{upload_id}}/complete"): Rule("editor", fresh=True),
    # analyses and workloads
    ("POST", f"{V1}/datasets/{{dataset_id}}/analyses"): r("editor"),
    ("GET", f"{V1}/datasets/{{dataset_id}}/analyses"): r("viewer"),
    ("POST", f"{V1}/datasets/{{dataset_id}}/analyses/sct"): r("editor"),
    ("GET", f"{V1}/analyses/{{analysis_id}}"): r("viewer"),
    ("POST", f"{V1}/analyses/{{analysis_id}}/recommendations"): r("viewer"),
    # the world's analysis has not run: analysis_not_done past the role check
    ("GET", f"{V1}/analyses/{{analysis_id}}/export/{{kind}}"): Rule(
        "viewer", params={"kind": "export_kind"}
    ),
    # viewers ask for the characterization under the stored rules (their own rules: 403)
    ("POST", f"{V1}/datasets/{{dataset_id}}/characterizations"): r("viewer"),
    ("GET", f"{V1}/datasets/{{dataset_id}}/characterizations"): r("viewer"),
    ("GET", f"{V1}/datasets/{{dataset_id}}/characterization"): Rule("viewer", missing_ok=True),
    ("GET", f"{V1}/datasets/{{dataset_id}}/rules"): r("viewer"),
    ("PUT", f"{V1}/datasets/{{dataset_id}}/rules"): r("editor"),
    ("GET", f"{V1}/characterizations/{{item_id}}"): r("viewer", item_id="characterization_id"),
    ("GET", f"{V1}/characterizations/{{item_id}}/model"): r(
        "viewer", item_id="characterization_id"
    ),
    ("GET", f"{V1}/characterizations/rules/schema"): r("signed_in", False),
    ("GET", f"{V1}/characterizations/model/schema"): r("signed_in", False),
    ("POST", f"{V1}/characterizations/model/scenario"): r("signed_in", False),
    ("GET", f"{V1}/characterizations/rules/default"): r("signed_in", False),
    # simulations
    ("POST", f"{V1}/simulations"): r("editor", False),
    ("GET", f"{V1}/simulations"): r("viewer", False),
    ("GET", f"{V1}/simulations/schema"): r("signed_in", False),
    ("POST", f"{V1}/simulations/schema/check"): r("signed_in", False),
    ("GET", f"{V1}/simulations/presets"): r("signed_in", False),
    ("GET", f"{V1}/simulations/presets/datasets/{{dataset_id}}"): Rule("viewer", missing_ok=True),
    ("GET", f"{V1}/simulations/scenarios"): r("viewer", False),
    ("POST", f"{V1}/simulations/scenarios"): r("editor", False),
    ("GET", f"{V1}/simulations/scenarios/{{scenario_id}}"): r("viewer"),
    ("PATCH", f"{V1}/simulations/scenarios/{{scenario_id}}"): r("editor"),
    ("DELETE", f"{V1}/simulations/scenarios/{{scenario_id}}"): r("editor"),
    ("GET", f"{V1}/simulations/{{simulation_id}}"): r("viewer"),
    ("POST", f"{V1}/simulations/{{simulation_id}}/cancel"): r("editor"),
    ("GET", f"{V1}/simulations/{{simulation_id}}/export/{{kind}}"): Rule(
        "viewer", params={"kind": "export_kind"}
    ),
    # the world's simulation is a single run, not a sweep: not_found past the role check
    ("GET", f"{V1}/simulations/{{simulation_id}}/runs/{{index}}"): Rule(
        "viewer", params={"index": "simulation_id"}, missing_ok=True
    ),
    # reports, share links, comparisons
    ("GET", f"{V1}/reports"): r("viewer", False),
    ("POST", f"{V1}/reports"): r("editor", False),
    ("POST", f"{V1}/reports/notes-preview"): r("editor", False),
    ("GET", f"{V1}/reports/{{report_id}}"): r("viewer"),
    ("PATCH", f"{V1}/reports/{{report_id}}"): r("editor"),
    ("DELETE", f"{V1}/reports/{{report_id}}"): r("editor"),
    ("POST", f"{V1}/reports/{{report_id}}/items"): r("editor"),
    ("DELETE", f"{V1}/reports/{{report_id}}/items/{{item_id}}"): r(
        "editor", item_id="report_item_id"
    ),
    ("GET", f"{V1}/reports/{{report_id}}/export"): r("viewer"),
    ("GET", f"{V1}/reports/{{report_id}}/links"): r("viewer"),
    ("POST", f"{V1}/reports/{{report_id}}/links"): r("editor"),
    ("DELETE", f"{V1}/reports/{{report_id}}/links/{{link_id}}"): r("editor"),
    ("GET", f"{V1}/public/reports/{{token}}"): Rule(
        "public", params={"token": "share_token"}, status=200
    ),
    ("GET", f"{V1}/public/reports/{{token}}/export"): Rule(
        "public", params={"token": "share_token"}, status=200
    ),
    ("GET", f"{V1}/comparisons/reports"): Rule(
        "viewer", query={"a": "report_id", "b": "report_id"}
    ),
    ("GET", f"{V1}/comparisons/runs"): Rule(
        "viewer", query={"kind": "=capacity", "a": "analysis_id", "b": "analysis_id"}
    ),
    ("GET", f"{V1}/policies/background/demos"): r("signed_in", False),
    ("POST", f"{V1}/policies/background/compare"): r("signed_in", False),
}
RULES[("GET", f"{V1}/datasets/{{dataset_id}}/arrivals")] = r("viewer")
# alerts: rules of a dataset, channels of a workspace
RULES[("GET", f"{V1}/datasets/{{dataset_id}}/alert-rules")] = r("viewer")
RULES[("POST", f"{V1}/datasets/{{dataset_id}}/alert-rules")] = r("editor")
RULES[("POST", f"{V1}/datasets/{{dataset_id}}/alert-rules/evaluate")] = r("editor")
RULES[("PATCH", f"{V1}/alert-rules/{{rule_id}}")] = r("editor", rule_id="alert_rule_id")
RULES[("DELETE", f"{V1}/alert-rules/{{rule_id}}")] = r("editor", rule_id="alert_rule_id")
RULES[("GET", f"{V1}/alert-rules/{{rule_id}}/evaluations")] = r("viewer", rule_id="alert_rule_id")
_CHANNELS = f"{V1}/workspaces/{{workspace_id}}/alert-channels"
RULES[("GET", _CHANNELS)] = r("viewer")
RULES[("POST", _CHANNELS)] = r("editor")
RULES[("PATCH", _CHANNELS + "/{channel_id}")] = r("editor", channel_id="alert_channel_id")
RULES[("DELETE", _CHANNELS + "/{channel_id}")] = r("editor", channel_id="alert_channel_id")
RULES[("POST", _CHANNELS + "/{channel_id}/test")] = r("editor", channel_id="alert_channel_id")
RULES[("GET", f"{V1}/datasets/{{dataset_id}}/requests")] = r("viewer")
RULES[("GET", f"{V1}/datasets/{{dataset_id}}/forecast")] = r("viewer")
RULES[("GET", f"{V1}/datasets/formats")] = r("signed_in", False)
# receivers: they write to the caller's own workspace (or a named one)
RULES[("POST", f"{V1}/otlp/v1/traces")] = r("editor", False)
RULES[("POST", f"{V1}/telemetry/streams")] = r("editor", False)
RULES[("POST", f"{V1}/telemetry/streams/{{dataset_id}}/lines")] = r("editor")
RULES[("GET", f"{V1}/telemetry/datasets/{{dataset_id}}/services")] = r("viewer")
RULES[("GET", f"{V1}/telemetry/datasets/{{dataset_id}}/scenario")] = r("viewer")
