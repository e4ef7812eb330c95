import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { RequireAuth } from "../features/auth/RequireAuth";
import { AppShell } from "../features/shell/AppShell";
import DatasetRoute from "../pages/DatasetRoute";
import DatasetsRoute from "../pages/DatasetsRoute";
import LoginRoute from "../pages/LoginRoute";
import NotFoundRoute from "../pages/NotFoundRoute";
import UploadRoute from "../pages/UploadRoute";

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route element={<RequireAuth>{(user) => <AppShell user={user} />}</RequireAuth>}>
        <Route index element={<Navigate to="/datasets" replace />} />
        <Route path="datasets" element={<DatasetsRoute />} />
        <Route path="datasets/:datasetId" element={<DatasetRoute />} />
        <Route path="upload" element={<UploadRoute />} />
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
