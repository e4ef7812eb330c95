import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryRouter, RouterProvider } from "react-router";
import { makeDataset, makeJob, user } from "../test/fixtures";
import { jsonResponse, testQueryClient } from "../test/render";
import { routes } from "./routes";

type Handler = (request: Request, url: URL) => Response | undefined;

/** A tiny fake of the API: handlers are tried in order; anything else is a 404 envelope. */
function serve(...handlers: Handler[]) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      calls.push(`${request.method} ${url.pathname}${url.search}`);
      for (const h of handlers) {
        const r = h(request, url);
        if (r) return r;
      }
      return jsonResponse(404, { error: { code: "not_found", message: `no route ${url.pathname}` } });
    }),
  );
  return calls;
}

const route =
  (method: string, path: string, answer: (request: Request, url: URL) => Response): Handler =>
  (request, url) =>
    request.method === method && url.pathname === path ? answer(request, url) : undefined;

function renderApp(path: string) {
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

const signedOut = route("GET", "/api/v1/auth/me", () =>
  jsonResponse(401, { error: { code: "not_authenticated", message: "Sign in first." } }),
);
const signedIn = route("GET", "/api/v1/auth/me", () => jsonResponse(200, user));
const emptyList = route("GET", "/api/v1/datasets", () => jsonResponse(200, { items: [], total: 0 }));

describe("App", () => {
  it("sends a visitor to the login page, signs in and returns to the page asked for", async () => {
    let loggedIn = false;
    serve(
      route("GET", "/api/v1/auth/me", () =>
        loggedIn ? jsonResponse(200, user) : jsonResponse(401, { error: { code: "not_authenticated", message: "x" } }),
      ),
      route("POST", "/api/v1/auth/login", () => {
        loggedIn = true;
        return jsonResponse(200, user);
      }),
      emptyList,
    );
    renderApp("/upload");
    await userEvent.type(await screen.findByLabelText("Email"), "ana@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "secret");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("heading", { name: "Upload a log" })).toBeInTheDocument();
    expect(screen.getByTestId("file-input")).toBeInTheDocument();
    expect(screen.getByText("Headroom")).toBeInTheDocument();
  });

  it("shows the API's message when the password is wrong", async () => {
    serve(
      signedOut,
      route("POST", "/api/v1/auth/login", () =>
        jsonResponse(401, { error: { code: "invalid_credentials", message: "Wrong email or password." } }),
      ),
    );
    renderApp("/login");
    await userEvent.type(await screen.findByLabelText("Email"), "ana@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "nope");
    await userEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Wrong email or password.");
  });

  it("shows an empty state pointing to Upload when the workspace has no datasets", async () => {
    serve(signedIn, emptyList);
    renderApp("/datasets");
    expect(await screen.findByTestId("datasets-empty")).toHaveTextContent("No datasets yet");
    expect(screen.getAllByRole("link", { name: "Upload a log" })[0]).toHaveAttribute("href", "/upload");
  });

  it("lists datasets with a live progress bar, polling until processing ends", async () => {
    let polls = 0;
    const running = makeDataset({ id: 5, name: "big.log.gz", job: makeJob({ status: "running", progress: 0.3, stage: "parsing" }) });
    const done = makeDataset({ id: 5, name: "big.log.gz", status: "ready", format: "combined", job: makeJob({ status: "succeeded", progress: 1 }) });
    serve(
      signedIn,
      route("GET", "/api/v1/datasets", () => {
        polls += 1;
        return jsonResponse(200, { items: [polls < 2 ? running : done], total: 1 });
      }),
    );
    renderApp("/datasets");
    expect(await screen.findByRole("progressbar", { name: "Processing big.log.gz" })).toHaveAttribute("aria-valuenow", "30");
    expect(screen.getByText("Parsing log lines · 30%")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("Ready")).toBeInTheDocument(), { timeout: 3000 });
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "big.log.gz" })).toHaveAttribute("href", "/datasets/5");
    expect(screen.getByText("1.2 MB")).toBeInTheDocument();
  });

  it("switches workspace, remembers the choice and lists that workspace's datasets", async () => {
    const calls = serve(signedIn, emptyList);
    renderApp("/datasets");
    const switcher = await screen.findByTestId("workspace-switcher");
    await waitFor(() => expect(calls).toContain("GET /api/v1/datasets?workspace_id=1&limit=50&offset=0"));
    await userEvent.selectOptions(switcher, "Team B");
    await waitFor(() => expect(calls).toContain("GET /api/v1/datasets?workspace_id=2&limit=50&offset=0"));
    expect(window.localStorage.getItem("headroom.workspaceId")).toBe("2");
  });

  it("signs out", async () => {
    let loggedIn = true;
    serve(
      route("GET", "/api/v1/auth/me", () =>
        loggedIn ? jsonResponse(200, user) : jsonResponse(401, { error: { code: "not_authenticated", message: "x" } }),
      ),
      route("POST", "/api/v1/auth/logout", () => {
        loggedIn = false;
        return new Response(null, { status: 204 });
      }),
      emptyList,
    );
    renderApp("/datasets");
    await userEvent.click(await screen.findByRole("button", { name: "Sign out" }));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });
});
