import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifacts, `policies-${name}.png`), fullPage: true });
}

test("background harvesting: the real EPA day, four policies, then a bad CSV", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Policies" }).click();
  // the Policies link opens the first tab
  await expect(page.getByRole("heading", { name: "Class policies" })).toBeVisible();
  await page.getByRole("navigation", { name: "Policies" }).getByRole("link", { name: "Background work" }).click();
  await expect(page.getByRole("heading", { name: "Headroom for background work" })).toBeVisible();
  await expect(page.getByTestId("background-empty")).toBeVisible();
  await expect(page.getByLabel("Demo series", { exact: true })).toHaveValue("epa_day");
  await page.getByRole("button", { name: "Compare policies" }).click();
  const advice = page.getByTestId("background-recommendation");
  await expect(advice).toContainText("Adaptive reservation gives background work", { timeout: 60_000 });
  // the engine's figures for this series (backend/tests/engine/background): 72% vs the 10% static cap
  await expect(advice).toContainText("72.4% of the machine (7.2× the static cap's 10%)");
  const table = page.getByTestId("policy-table");
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(page.getByTestId("tradeoff-chart")).toBeVisible();
  await expect(page.getByTestId("quota-chart")).toBeVisible();
  await shot(page, "background");

  // a simulation run's utilization as the foreground: an M/M/1 at utilisation 0.6
  const mm1 = {
    name: "Background source · M/M/1 at 60%",
    scenario: {
      name: "mm1",
      duration_s: 3600,
      seed: 2,
      workload: { arrivals: { rate_per_s: 0.6 }, service_s: { dist: "exponential", mean: 1 } },
      cluster: { vms: { min: 1, max: 1, start: 1 } },
    },
  };
  const created = await page.request.post("/api/v1/simulations", { data: mm1 });
  expect(created.status()).toBe(202);
  const runId = ((await created.json()) as { id: number }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/simulations/${runId}`)).json()) as { job: { status: string } }).job.status, { timeout: 300_000 })
    .toBe("succeeded");
  await page.reload();
  await page.getByLabel("A simulation run").check();
  await page.getByLabel("Simulation run", { exact: true }).selectOption(String(runId));
  await page.getByRole("button", { name: "Compare policies" }).click();
  await expect(advice).toContainText("Adaptive reservation gives background work", { timeout: 60_000 });
  await expect(page.getByTestId("quota-chart")).toBeVisible();
  await shot(page, "background-simulation");

  await page.getByLabel("Your CSV").check();
  await page.getByLabel("or paste it").fill("t_s,busy_fraction\n0,0.5\n1,1.7\n");
  await page.getByRole("button", { name: "Compare policies" }).click();
  await expect(page.getByTestId("error-banner")).toContainText("line 3: busy_fraction 1.7 is outside [0, 1]");
  await shot(page, "background-error");
});

test("connections vs streams: the chart and the connection count follow the inputs", async ({ page }) => {
  await signIn(page);
  await page.goto("/policies/connections");
  await expect(page.getByRole("heading", { name: "Connections vs streams" })).toBeVisible();
  await expect(page.getByTestId("connections-chart")).toBeVisible();
  // 10 kB payloads, RTT 100 ms: HTTP/1.1 with 6 connections moves 6 x 10 kB / 0.1 s = 600 kB/s
  await expect(page.getByTestId("stat-h1")).toContainText("600 kB/s");
  await expect(page.getByTestId("stat-connections")).toContainText("6,000 vs 1,000");
  await shot(page, "connections");
  await page.getByLabel("HTTP/1.1 connections k").fill("0");
  await expect(page.getByText("at least 1 connection")).toBeVisible();
  await page.getByLabel("HTTP/1.1 connections k").fill("2");
  await expect(page.getByTestId("stat-connections")).toContainText("2,000 vs 1,000");
});

test("class policies: one sweep of the four policies over the load, then K(t)", async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page);
  await page.getByRole("link", { name: "Policies" }).click();
  await page.getByRole("navigation", { name: "Policies" }).getByRole("link", { name: "Class policies" }).click();
  await expect(page.getByRole("heading", { name: "Class policies" })).toBeVisible();
  await expect(page.getByTestId("classes-empty")).toBeVisible();
  await expect(page.getByLabel("Base scenario")).toHaveValue("preset:class-policies");
  // a short comparison: two loads (below and above the 218 req/s the six VMs serve)
  await page.getByLabel("Offered load from (req/s)").fill("150");
  await page.getByLabel("to (req/s)").fill("300");
  await page.getByLabel("Load steps (2–12)").fill("2");
  await expect(page.getByText("8 runs: loads 150, 300 req/s.")).toBeVisible();
  await page.getByTestId("start-classes").click();
  await expect(page).toHaveURL(/sweep=\d+/);
  const verdicts = page.getByTestId("classes-verdicts");
  await expect(verdicts).toBeVisible({ timeout: 480_000 });
  // the QoS-blind front end overloads everyone at 300 req/s (the engine's run: top p95 ~2 min)
  await expect(verdicts).toContainText("QoS-blind (none) at 300/s");
  await expect(verdicts).toContainText("violates the top classes' SLA");
  await expect(page.getByTestId("chart-class-p95-dynamic_top")).toBeVisible();
  await expect(page.getByTestId("chart-rejected-normal")).toBeVisible();
  await expect(page.getByTestId("classes-runs").getByRole("row")).toHaveCount(9);
  // K(t) comes from the sweep's stored DynamicPart and StaticPart runs: no new simulation
  await expect(page.getByTestId("chart-k-steps")).toBeVisible();
  await expect(page.getByTestId("chart-k-steps")).toContainText("StaticPart K");
  // the form beside the results shows the compared scenario and its loads
  await expect(page.getByLabel("Base scenario")).toHaveValue("preset:class-policies");
  await expect(page.getByText("8 runs: loads 150, 300 req/s.")).toBeVisible();
  await shot(page, "classes");
});

test("virtual queue: discovery, waits, load and response time, and the recommendation", async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page);
  await page.goto("/policies/virtual-queue");
  await expect(page.getByRole("heading", { name: "Virtual queue" })).toBeVisible();
  await expect(page.getByTestId("queue-empty")).toBeVisible();
  await expect(page.getByLabel("Base scenario")).toHaveValue("preset:virtual-queue");
  await page.getByLabel("Maximum wait (s)").fill("0");
  await expect(page.getByText("whole number of seconds from 1")).toBeVisible();
  await page.getByLabel("Maximum wait (s)").fill("3600");
  await page.getByTestId("start-queue").click();
  await expect(page).toHaveURL(/queued=\d+&bare=\d+/);
  const advice = page.getByTestId("queue-recommendation");
  await expect(advice).toContainText(/A virtual queue with capacity [\d.]+ req\/s keeps response time under [\d.]+ ms; the longest wait at your peak would be/, { timeout: 480_000 });
  for (const id of ["chart-discovery", "chart-waits", "chart-offered-admitted", "chart-response-compare"]) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  await expect(page.getByTestId("chart-discovery")).toContainText("Converged (monitoring)");
  await expect(page.getByLabel("Base scenario")).toHaveValue("preset:virtual-queue");
  await shot(page, "virtual-queue");
});

test("the scenario editor sets the admission stage: partition fields, then the virtual queue", async ({ page }) => {
  await signIn(page);
  await page.goto("/simulations/new");
  await expect(page.getByTestId("scenario-yaml")).toContainText("university site");
  const policy = page.getByTestId("admission-policy");
  await policy.selectOption("switch_adm");
  await expect(page.getByText("MaxConn_D(T_D)")).toBeVisible();
  await expect(page.getByTestId("scenario-yaml")).toHaveValue(/policy: switch_adm\n\s+maxconn_sla: 18\n\s+maxconn: 26/);
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("field-admission.maxconn_sla").fill("30");
  await expect(page.getByTestId("scenario-verdict")).toContainText("maxconn_sla must be <= maxconn");
  // the reference cluster autoscales: the server says why DynamicPart cannot run on it
  await policy.selectOption("dynamic_part");
  await expect(page.getByTestId("scenario-verdict")).toContainText("dynamic_part partitions a fixed cluster");
  await policy.selectOption("virtual_queue");
  await expect(page.getByRole("group", { name: "Capacity discovery" })).toBeVisible();
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByRole("group", { name: "Capacity discovery" }).scrollIntoViewIfNeeded();
  await shot(page, "editor-admission");
});
