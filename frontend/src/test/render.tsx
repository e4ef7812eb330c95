import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { WorkspaceProvider } from "../features/workspaces/WorkspaceProvider";
import { user } from "./fixtures";

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders `ui` at `path` inside the app's providers; other routes show their path. */
export function renderWithApp(ui: ReactElement, { path = "/", route = "/" } = {}) {
  const client = testQueryClient();
  const router = createMemoryRouter(
    [
      { path: route, element: ui },
      { path: "*", element: <LocationProbe /> },
    ],
    { initialEntries: [path] },
  );
  const utils = render(
    <QueryClientProvider client={client}>
      <WorkspaceProvider workspaces={user.workspaces}>
        <RouterProvider router={router} />
      </WorkspaceProvider>
    </QueryClientProvider>,
  );
  return { ...utils, client, router };
}

function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}
