from dataclasses import dataclass

from headroom.auth.models import User
from headroom.core.errors import Forbidden, NotFound
from headroom.workspaces.models import Role


@dataclass(frozen=True)
class Principal:
    """Who is calling and which workspaces they may see, with their role in each.

    A browser session sees all the user's workspaces; an API token sees one.
    """

    user: User
    roles: dict[int, Role]
    token_scopes: frozenset[str] | None = None

    @property
    def workspace_ids(self) -> list[int]:
        return sorted(self.roles)

    def require(self, workspace_id: int, role: Role) -> None:
        """404 when the workspace is invisible to the caller, 403 when the role is too low."""
        held = self.roles.get(workspace_id)
        if held is None:
            raise NotFound("workspace not found")
        if held.rank < role.rank or not self._scope_allows(role):
            raise Forbidden(f"this needs the {role.value} role in the workspace")

    def _scope_allows(self, role: Role) -> bool:
        if self.token_scopes is None:
            return True
        needed = {Role.viewer: "read", Role.editor: "write", Role.owner: "admin"}[role]
        order = ["read", "write", "admin"]
        return any(order.index(s) >= order.index(needed) for s in self.token_scopes if s in order)
