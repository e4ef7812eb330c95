/** What the simulation-backed policy pages show alike: the section nav and a run's progress. */
import { NavLink } from "react-router";
import { isJobActive } from "../../api/models";
import { ErrorBanner } from "../../components/ErrorBanner";
import { ProgressBar } from "../../components/ProgressBar";
import type { Simulation } from "../simulations/api";
import { progressCaption } from "../simulations/progress";
import styles from "./Policies.module.css";

const SECTIONS = [
  { to: "/policies/classes", label: "Class policies" },
  { to: "/policies/virtual-queue", label: "Virtual queue" },
  { to: "/policies/background", label: "Background work" },
  { to: "/policies/connections", label: "Connections vs streams" },
];

/** The policy pages' own navigation. */
export function PoliciesNav() {
  return (
    <nav className={styles.tabs} aria-label="Policies">
      {SECTIONS.map((s) => (
        <NavLink key={s.to} to={s.to} className={({ isActive }) => [styles.tab, isActive ? styles.tabActive : ""].join(" ")}>
          {s.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function RunProgress({ simulation, label }: { simulation: Simulation; label: string }) {
  const job = simulation.job;
  if (job === null) return null;
  if (job.status === "failed") {
    return <ErrorBanner error={new Error(job.error_message ?? "The simulation failed.")} title={`${label} failed (${job.error_code ?? "error"})`} hint="Check the scenario in the editor, then start again." />;
  }
  if (!isJobActive(job)) return null;
  return <ProgressBar value={job.status === "queued" ? null : job.progress} label={label} caption={progressCaption(simulation, job)} testId="policy-progress" />;
}
