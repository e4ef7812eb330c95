from dataclasses import dataclass, replace
from datetime import datetime

from headroom.auth.models import User
from headroom.core.errors import Forbidden, NotFound
from headroom.workspaces.models import Role

SCOPE_FOR_ROLE = {Role.viewer: "read", Role.editor: "write", Role.owner: "admin"}
ROLE_FOR_SCOPE = {scope: role for role, scope in SCOPE_FOR_ROLE.items()}


@dataclass(frozen=True)
class Caller:
    """The signed-in user as requests see it: a plain value (no database session behind
    it, no password hash), which a principal may be cached with."""

    id: int
    email: str
    name: str

    @classmethod
    def of(cls, user: User) -> "Caller":
        return cls(id=user.id, email=user.email, name=user.name)


@dataclass(frozen=True)
class Principal:
    """Who is calling and which workspaces they may see, with their role in each.

    A browser session sees all the user's workspaces; an API token sees one, and acts with
    the lower of the member's role and the token's highest scope. `minimum_role` is set by
    the route (api.deps.require_role): every workspace check then asks for at least it.
    `expires_at`: when the credential stops working (None: when revoked).
    """

    user: Caller
    roles: dict[int, Role]
    token_scopes: frozenset[str] | None = None
    token_id: int | None = None
    expires_at: datetime | None = None
    minimum_role: Role = Role.viewer

    @property
    def workspace_ids(self) -> list[int]:
        return sorted(self.roles)

    def effective_role(self, workspace_id: int) -> Role | None:
        """The member's role capped by the token's scopes; None when not a member."""
        held = self.roles.get(workspace_id)
        if held is None or self.token_scopes is None:
            return held
        granted = [ROLE_FOR_SCOPE[s] for s in self.token_scopes if s in ROLE_FOR_SCOPE]
        if not granted:
            return None
        cap = max(granted, key=lambda r: r.rank)
        return min(held, cap, key=lambda r: r.rank)

    def allows(self, workspace_id: int, role: Role) -> bool:
        effective = self.effective_role(workspace_id)
        return effective is not None and effective.rank >= max(role.rank, self.minimum_role.rank)

    def require(self, workspace_id: int, role: Role) -> None:
        """404 when the workspace is invisible to the caller, 403 when the role is too low."""
        if workspace_id not in self.roles:
            raise NotFound("workspace not found")
        if not self.allows(workspace_id, role):
            needed = max(role, self.minimum_role, key=lambda r: r.rank)
            raise Forbidden(f"this needs the {needed.value} role in the workspace")

    def acting_as(self, role: Role) -> "Principal":
        return replace(self, minimum_role=role)
