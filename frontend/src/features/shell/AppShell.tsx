import { useState } from "react";
import { NavLink, Outlet, useNavigate, Link, useLocation } from "react-router";
import type { User } from "../../api/models";
import { Button } from "../../components/Button";
import { Logo } from "../../components/Logo";
import { useLogout } from "../auth/useAuth";
import { WorkspaceProvider } from "../workspaces/WorkspaceProvider";
import { useCanWrite } from "../workspaces/useRole";
import { WorkspaceSwitcher } from "../workspaces/WorkspaceSwitcher";
import styles from "./AppShell.module.css";

const navClass = ({ isActive }: { isActive: boolean }) => [styles.navLink, isActive ? styles.active : ""].join(" ");

/** Hidden for viewers of the current workspace: they cannot upload. */
function UploadNavLink() {
  const canWrite = useCanWrite();
  if (!canWrite) return null;
  return (
    <NavLink to="/upload" className={navClass}>
      Upload
    </NavLink>
  );
}

export function AppShell({ user }: { user: User }) {
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const signOut = () => logout.mutate(undefined, { onSettled: () => void navigate("/login", { replace: true }) });
  // narrow screens: the navigation folds behind a menu button, and folds again on each page
  const [menu, setMenu] = useState<string | null>(null);
  const menuOpen = menu === pathname;

  return (
    <WorkspaceProvider workspaces={user.workspaces}>
      <div className={styles.shell}>
        <header className={styles.header}>
          <div className={styles.bar}>
            <Link to="/datasets" className={styles.brand}>
              <Logo size={26} />
              Headroom
            </Link>
            <button
              type="button"
              className={styles.menuButton}
              aria-expanded={menuOpen}
              aria-controls="main-nav"
              onClick={() => setMenu(menuOpen ? null : pathname)}
              data-testid="menu-button"
            >
              <span aria-hidden="true">☰</span> Menu
            </button>
            <nav id="main-nav" className={[styles.nav, menuOpen ? styles.navOpen : ""].join(" ")} aria-label="Main" onClick={() => setMenu(null)}>
              <NavLink to="/datasets" className={navClass} end={false}>
                Datasets
              </NavLink>
              <UploadNavLink />
              <NavLink to="/sources" className={navClass}>
                Sources
              </NavLink>
              <NavLink to="/simulations" className={navClass}>
                Simulations
              </NavLink>
              <NavLink to="/reports" className={navClass}>
                Reports
              </NavLink>
              <NavLink to="/policies/classes" className={() => navClass({ isActive: pathname.startsWith("/policies/") })}>
                Policies
              </NavLink>
              <NavLink to="/settings/team" className={navClass}>
                Team
              </NavLink>
            </nav>
            <span className={styles.spacer} />
            <WorkspaceSwitcher />
            <div className={styles.user}>
              <span className={styles.email} title={user.name}>
                {user.email}
              </span>
              <Button variant="ghost" size="small" onClick={signOut} disabled={logout.isPending}>
                Sign out
              </Button>
            </div>
          </div>
        </header>
        <main className={styles.main}>
          <Outlet />
        </main>
      </div>
    </WorkspaceProvider>
  );
}
