import { Navigate, type RouteObject } from "react-router";
import { RequireAuth } from "../features/auth/RequireAuth";
import { AppShell } from "../features/shell/AppShell";
import DatasetRoute from "../pages/DatasetRoute";
import DatasetsRoute from "../pages/DatasetsRoute";
import LoginRoute from "../pages/LoginRoute";
import TeamRoute from "../pages/TeamRoute";
import AcceptInviteRoute from "../pages/AcceptInviteRoute";
import NotFoundRoute from "../pages/NotFoundRoute";
import UploadRoute from "../pages/UploadRoute";
import SimulationsRoute from "../pages/SimulationsRoute";
import ScenarioRoute from "../pages/ScenarioRoute";
import SimulationRoute from "../pages/SimulationRoute";
import CompareRoute from "../pages/CompareRoute";
import ReportsRoute from "../pages/ReportsRoute";
import ReportRoute from "../pages/ReportRoute";
import ReportCompareRoute from "../pages/ReportCompareRoute";
import ReportPublicRoute from "../pages/ReportPublicRoute";

/** Every page of the app; the shell's children need a signed-in user. */
export const routes: RouteObject[] = [
  { path: "/login", element: <LoginRoute /> },
  { path: "/invite/:token", element: <AcceptInviteRoute /> },
  { path: "/r/:token", element: <ReportPublicRoute /> },
  {
    element: <RequireAuth>{(user) => <AppShell user={user} />}</RequireAuth>,
    children: [
      { index: true, element: <Navigate to="/datasets" replace /> },
      { path: "datasets", element: <DatasetsRoute /> },
      { path: "datasets/:datasetId", element: <DatasetRoute /> },
      { path: "upload", element: <UploadRoute /> },
      { path: "simulations", element: <SimulationsRoute /> },
      { path: "simulations/new", element: <ScenarioRoute /> },
      { path: "simulations/compare", element: <CompareRoute /> },
      { path: "simulations/:simulationId", element: <SimulationRoute /> },
      { path: "simulations/:simulationId/runs/:index", lazy: async () => ({ Component: (await import("../pages/SimulationSweepRunRoute")).default }) },
      { path: "reports", element: <ReportsRoute /> },
      { path: "reports/compare", element: <ReportCompareRoute /> },
      { path: "reports/:reportId", element: <ReportRoute /> },
      { path: "policies/background", lazy: async () => ({ Component: (await import("../pages/BackgroundPolicyRoute")).default }) },
      { path: "policies/connections", lazy: async () => ({ Component: (await import("../pages/ConnectionsRoute")).default }) },
      { path: "policies/classes", lazy: async () => ({ Component: (await import("../pages/ClassPoliciesRoute")).default }) },
      { path: "policies/virtual-queue", lazy: async () => ({ Component: (await import("../pages/VirtualQueueRoute")).default }) },
      { path: "settings/team", element: <TeamRoute /> },
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
];
