import { Navigate, type RouteObject } from "react-router";
import { RequireAuth } from "../features/auth/RequireAuth";
import { AppShell } from "../features/shell/AppShell";
import DatasetRoute from "../pages/DatasetRoute";
import DatasetsRoute from "../pages/DatasetsRoute";
import LoginRoute from "../pages/LoginRoute";
import NotFoundRoute from "../pages/NotFoundRoute";
import UploadRoute from "../pages/UploadRoute";

/** Every page of the app; the shell's children need a signed-in user. */
export const routes: RouteObject[] = [
  { path: "/login", element: <LoginRoute /> },
  {
    element: <RequireAuth>{(user) => <AppShell user={user} />}</RequireAuth>,
    children: [
      { index: true, element: <Navigate to="/datasets" replace /> },
      { path: "datasets", element: <DatasetsRoute /> },
      { path: "datasets/:datasetId", element: <DatasetRoute /> },
      { path: "upload", element: <UploadRoute /> },
      { path: "policies/background", lazy: async () => ({ Component: (await import("../pages/BackgroundPolicyRoute")).default }) },
      { path: "policies/connections", lazy: async () => ({ Component: (await import("../pages/ConnectionsRoute")).default }) },
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
];
