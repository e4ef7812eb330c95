import { useState, type SyntheticEvent } from "react";
import { Navigate, useSearchParams } from "react-router";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Logo } from "../../components/Logo";
import { TextField } from "../../components/TextField";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { safeNext } from "./safeNext";
import { useLogin, useMe } from "./useAuth";
import styles from "./LoginPage.module.css";

export function LoginPage() {
  const [params] = useSearchParams();
  const me = useMe();
  const loginMutation = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const next = safeNext(params.get("next"));
  useDocumentTitle("Sign in");

  if (me.data) return <Navigate to={next} replace />;

  const onSubmit = (e: SyntheticEvent) => {
    e.preventDefault();
    loginMutation.mutate({ email: email.trim(), password });
  };

  return (
    <main className={styles.page}>
      <div className={styles.brand}>
        <Logo size={36} />
        Headroom
      </div>
      <p className={styles.tagline}>Capacity planning and SLAs from your own traffic</p>
      <Card title="Sign in" className={styles.card}>
        <form className={styles.form} onSubmit={onSubmit} aria-label="Sign in">
          {loginMutation.isError && (
            <ErrorBanner error={loginMutation.error} title="Could not sign in" />
          )}
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Button type="submit" className={styles.submit} disabled={loginMutation.isPending}>
            {loginMutation.isPending ? "Signing in…" : "Sign in"}
          </Button>
        </form>
      </Card>
    </main>
  );
}
