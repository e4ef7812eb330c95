/**
 * Pixel baselines of screens whose content is fixed: a simulation run's result (1440x900 and
 * 390x844), a sweep, the compare page, the policies pages, the team page and the reports list.
 * They are compared with e2e/screenshots/ (`make e2e-baselines` writes them again). A user of
 * its own, alone in a workspace of its own, makes the data, so what earlier specs leave on the
 * shared stack never shows. Dates, wall times and ids are masked; the runs have fixed seeds.
 */
import { expect, test, type Browser, type Locator, type Page } from "@playwright/test";
import { signIn } from "./helpers";

const RUN_TIMEOUT_MS = 900_000; // the worker compiles the numba engine on its first run
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const email = "baselines@example.com";
const password = "a long baselines password";

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

/** An M/M/c-like site on a threshold autoscaler, a fixed seed: the same result every run. */
function scenario(name: string, ratePerS: number) {
  return {
    name,
    duration_s: 1800,
    seed: 11,
    workload: { arrivals: { rate_per_s: ratePerS }, service_s: { dist: "exponential", mean: 0.5 } },
    cluster: { vms: { min: 1, max: 6, start: 1 }, boot_s: 30 },
    autoscaling: { policy: "threshold", lower: 0.3, upper: 0.7, time_steps: 2, cooldown_s: 60 },
    sla: { threshold_s: 2 },
  };
}

const ids = { runA: 0, runB: 0, sweep: 0 };

/** Joins the e2e workspace by invitation, opens a workspace of its own and leaves the first. */
async function ownUser(browser: Browser): Promise<void> {
  const owner = await browser.newPage();
  await signIn(owner);
  const me = (await (await owner.request.get("/api/v1/auth/me")).json()) as { workspaces: { id: number }[] };
  const shared = me.workspaces[0]?.id ?? 0;
  const invited = await owner.request.post(`/api/v1/workspaces/${shared}/invitations`, { data: { email, role: "viewer" } });
  expect(invited.ok()).toBeTruthy();
  const token = /[^/]+$/.exec(((await invited.json()) as { url: string }).url)?.[0] ?? "";
  await owner.close();

  const context = await browser.newContext();
  const api = context.request;
  const accepted = await api.post(`/api/v1/invitations/${token}/accept`, { data: { password, name: "Bea Seline" } });
  expect(accepted.ok()).toBeTruthy();
  const user = ((await accepted.json()) as { id: number }).id;
  expect((await api.post("/api/v1/workspaces", { data: { name: "Baselines" } })).status()).toBe(201);
  expect((await api.delete(`/api/v1/workspaces/${shared}/members/${user}`)).status()).toBe(204);

  const simulate = async (body: object): Promise<number> => {
    const created = await api.post("/api/v1/simulations", { data: body });
    expect(created.status(), await created.text()).toBe(202);
    return ((await created.json()) as { id: number }).id;
  };
  ids.runA = await simulate({ name: "Threshold site at 6 req/s", scenario: scenario("six", 6) });
  ids.runB = await simulate({ name: "Threshold site at 4 req/s", scenario: scenario("four", 4) });
  ids.sweep = await simulate({
    name: "Upper threshold sweep",
    scenario: scenario("sweep", 6),
    sweep: { path: "autoscaling.upper", values: [0.6, 0.8] },
  });
  for (const id of Object.values(ids)) {
    await expect
      .poll(async () => ((await (await api.get(`/api/v1/simulations/${id}`)).json()) as { job: { status: string } }).job.status, {
        timeout: RUN_TIMEOUT_MS,
        intervals: [2_000],
      })
      .toBe("succeeded");
  }
  const report = await api.post("/api/v1/reports", {
    data: {
      title: "Capacity review",
      notes_md: "Two loads and a sweep of the upper threshold.",
      items: [
        { kind: "simulation", source_id: ids.runA },
        { kind: "sweep", source_id: ids.sweep },
      ],
    },
  });
  expect(report.status(), await report.text()).toBe(201);
  expect((await api.post("/api/v1/reports", { data: { title: "Empty draft", visibility: "private" } })).status()).toBe(201);
  await context.close();
}

/** What changes from one run to the next: dates, the simulator's wall time, and the ids (other
 * specs on the same stack create simulations first). */
function changing(page: Page): Locator[] {
  return [page.getByText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/), page.getByText(/ in [\d.]+ s$/), page.getByText(/#\d+\b/)];
}

async function matches(page: Page, name: string): Promise<void> {
  await expect(page).toHaveScreenshot(`${name}.png`, { fullPage: true, mask: changing(page) });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(RUN_TIMEOUT_MS + 120_000); // a hook's own timeout: the runs may be compiled first
  await ownUser(browser);
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, email, password);
});

test("a run's result at 1440 and 390 px", async ({ page }) => {
  await page.goto(`/simulations/${ids.runA}`);
  await expect(page.getByTestId("chart-step-function").locator(".recharts-line")).toHaveCount(3);
  await expect(page.getByTestId("run-summary")).toContainText("Scaling actions");
  await matches(page, "run-1440");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("chart-step-function").locator(".recharts-line")).toHaveCount(3);
  await matches(page, "run-390");
});

test("a sweep's frontier and runs", async ({ page }) => {
  await page.goto(`/simulations/${ids.sweep}`);
  await expect(page.getByTestId("sweep-runs").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("chart-frontier").locator("circle.sim-point").first()).toBeVisible();
  await matches(page, "sweep-1440");
});

test("two runs compared", async ({ page }) => {
  await page.goto(`/simulations/compare?ids=${ids.runA},${ids.runB}`);
  await expect(page.getByTestId("compare-summary")).toContainText("4 req/s");
  await expect(page.getByTestId("chart-compare-latency-cdf").locator(".recharts-line")).toHaveCount(2);
  await matches(page, "compare-1440");
});

test("the policies pages", async ({ page }) => {
  await page.goto("/policies/classes");
  await expect(page.getByTestId("classes-empty")).toBeVisible();
  await matches(page, "policies-classes-1440");
  await page.goto("/policies/virtual-queue");
  await expect(page.getByTestId("queue-empty")).toBeVisible();
  await matches(page, "policies-virtual-queue-1440");
  await page.goto("/policies/connections");
  await expect(page.getByTestId("stat-connections")).toContainText("6,000 vs 1,000");
  await matches(page, "policies-connections-1440");
  await page.goto("/policies/background");
  await expect(page.getByTestId("background-empty")).toBeVisible();
  await page.getByRole("button", { name: "Compare policies" }).click();
  await expect(page.getByTestId("background-recommendation")).toContainText("72.4% of the machine", { timeout: 60_000 });
  await matches(page, "policies-background-1440");
});

test("the team page", async ({ page }) => {
  await page.goto("/settings/team");
  await expect(page.getByTestId("members-table")).toContainText(email);
  await matches(page, "team-1440");
});

test("the reports list", async ({ page }) => {
  await page.goto("/reports");
  await expect(page.getByText("Capacity review")).toBeVisible();
  await expect(page.getByText("Empty draft")).toBeVisible();
  await matches(page, "reports-1440");
});
