import type { ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";
import { Loading } from "../components/Spinner";
import { RequireAuth } from "../features/auth/RequireAuth";
import { AppShell } from "../features/shell/AppShell";
import { LoginPage } from "../features/auth/LoginPage";

const pageLoading = <Loading label="Loading the page…" />;

/** A page loaded on first visit (its code is a chunk of its own): the module's export `name`. */
function page<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  name: K,
): Pick<RouteObject, "lazy" | "hydrateFallbackElement"> {
  return { lazy: async () => ({ Component: (await load())[name] }), hydrateFallbackElement: pageLoading };
}

/** Every page of the app; the shell's children need a signed-in user. */
export const routes: RouteObject[] = [
  { path: "/login", element: <LoginPage /> },
  { path: "/invite/:token", ...page(() => import("../features/settings/AcceptInvitePage"), "AcceptInvitePage") },
  { path: "/r/:token", ...page(() => import("../pages/ReportPublicRoute"), "default") },
  {
    element: <RequireAuth>{(user) => <AppShell user={user} />}</RequireAuth>,
    hydrateFallbackElement: pageLoading,
    children: [
      { index: true, element: <Navigate to="/datasets" replace /> },
      { path: "datasets", ...page(() => import("../features/datasets/DatasetsPage"), "DatasetsPage") },
      { path: "datasets/compare", ...page(() => import("../features/datasets/compare/CompareDatasetsPage"), "CompareDatasetsPage") },
      { path: "datasets/:datasetId", ...page(() => import("../pages/DatasetRoute"), "default") },
      { path: "upload", ...page(() => import("../features/upload/UploadPage"), "UploadPage") },
      { path: "simulations", ...page(() => import("../features/simulations/SimulationsPage"), "SimulationsPage") },
      { path: "simulations/new", ...page(() => import("../pages/ScenarioRoute"), "default") },
      { path: "simulations/compare", ...page(() => import("../features/simulations/compare/ComparePage"), "ComparePage") },
      { path: "simulations/:simulationId", ...page(() => import("../pages/SimulationRoute"), "default") },
      { path: "simulations/:simulationId/runs/:index", ...page(() => import("../pages/SimulationSweepRunRoute"), "default") },
      { path: "reports", ...page(() => import("../features/reports/ReportsPage"), "ReportsPage") },
      { path: "reports/compare", ...page(() => import("../features/reports/ComparePage"), "ComparePage") },
      { path: "reports/:reportId", ...page(() => import("../pages/ReportRoute"), "default") },
      { path: "policies", element: <Navigate to="/policies/classes" replace /> },
      { path: "policies/background", ...page(() => import("../features/policies/BackgroundPage"), "BackgroundPage") },
      { path: "policies/connections", ...page(() => import("../features/policies/ConnectionsPage"), "ConnectionsPage") },
      { path: "policies/classes", ...page(() => import("../features/policies/ClassPoliciesPage"), "ClassPoliciesPage") },
      { path: "policies/virtual-queue", ...page(() => import("../features/policies/VirtualQueuePage"), "VirtualQueuePage") },
      { path: "sources", ...page(() => import("../features/sources/SourcesPage"), "SourcesPage") },
      { path: "settings/team", ...page(() => import("../features/settings/TeamPage"), "TeamPage") },
      { path: "*", ...page(() => import("../pages/NotFoundRoute"), "default") },
    ],
  },
];
