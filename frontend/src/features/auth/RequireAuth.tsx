import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import type { User } from "../../api/models";
import { useMe } from "./useAuth";
import styles from "./LoginPage.module.css";

/** Renders children with the signed-in user, or sends the visitor to /login. */
export function RequireAuth({ children }: { children: (user: User) => ReactNode }) {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Loading your workspace…" />;
  if (me.isError) {
    return (
      <div className={styles.page}>
        <ErrorBanner error={me.error} title="Could not load your account" hint="Reload the page to try again." />
      </div>
    );
  }
  if (me.data === null) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <>{children(me.data)}</>;
}
