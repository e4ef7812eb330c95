import type { ComponentType } from "react";
import { Navigate, type RouteObject } from "react-router";
import { Loading } from "../components/Spinner";
import { RequireAuth } from "../features/auth/RequireAuth";
import { AppShell } from "../features/shell/AppShell";
import LoginRoute from "../pages/LoginRoute";

const pageLoading = <Loading label="Loading the page…" />;

/** A page loaded on first visit (its code is a chunk of its own). */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, "lazy" | "hydrateFallbackElement"> {
  return { lazy: async () => ({ Component: (await load()).default }), hydrateFallbackElement: pageLoading };
}

/** Every page of the app; the shell's children need a signed-in user. */
export const routes: RouteObject[] = [
  { path: "/login", element: <LoginRoute /> },
  { path: "/invite/:token", ...page(() => import("../pages/AcceptInviteRoute")) },
  { path: "/r/:token", ...page(() => import("../pages/ReportPublicRoute")) },
  {
    element: <RequireAuth>{(user) => <AppShell user={user} />}</RequireAuth>,
    hydrateFallbackElement: pageLoading,
    children: [
      { index: true, element: <Navigate to="/datasets" replace /> },
      { path: "datasets", ...page(() => import("../pages/DatasetsRoute")) },
      { path: "datasets/compare", ...page(() => import("../pages/DatasetsCompareRoute")) },
      { path: "datasets/:datasetId", ...page(() => import("../pages/DatasetRoute")) },
      { path: "upload", ...page(() => import("../pages/UploadRoute")) },
      { path: "simulations", ...page(() => import("../pages/SimulationsRoute")) },
      { path: "simulations/new", ...page(() => import("../pages/ScenarioRoute")) },
      { path: "simulations/compare", ...page(() => import("../pages/CompareRoute")) },
      { path: "simulations/:simulationId", ...page(() => import("../pages/SimulationRoute")) },
      { path: "simulations/:simulationId/runs/:index", ...page(() => import("../pages/SimulationSweepRunRoute")) },
      { path: "reports", ...page(() => import("../pages/ReportsRoute")) },
      { path: "reports/compare", ...page(() => import("../pages/ReportCompareRoute")) },
      { path: "reports/:reportId", ...page(() => import("../pages/ReportRoute")) },
      { path: "policies", element: <Navigate to="/policies/classes" replace /> },
      { path: "policies/background", ...page(() => import("../pages/BackgroundPolicyRoute")) },
      { path: "policies/connections", ...page(() => import("../pages/ConnectionsRoute")) },
      { path: "policies/classes", ...page(() => import("../pages/ClassPoliciesRoute")) },
      { path: "policies/virtual-queue", ...page(() => import("../pages/VirtualQueueRoute")) },
      { path: "sources", ...page(() => import("../pages/SourcesRoute")) },
      { path: "settings/team", ...page(() => import("../pages/TeamRoute")) },
      { path: "*", ...page(() => import("../pages/NotFoundRoute")) },
    ],
  },
];
