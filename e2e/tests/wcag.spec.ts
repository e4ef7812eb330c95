/**
 * axe-core on the pages a11y.spec.ts does not reach, in the light and the dark theme: every
 * dataset tab, the datasets comparison, Sources, a simulation and its run, the simulations
 * comparison, a sweep and one of its runs, a report, the reports comparison, a shared report and the sign-in page. The
 * spec makes what it visits (two datasets, a simulation, a sweep, two reports and a share link), so it
 * runs alone as well as last on the shared stack.
 */
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations, signIn } from "./helpers";

// the worker may compile the parser and the simulator first: minutes on a busy machine
test.setTimeout(900_000);

const TABS = ["overview", "traffic", "latency", "workload", "rules", "parse", "capacity", "concurrency", "forecast", "alerts"];

function log(tag: string): string {
  const start = Date.UTC(2026, 9, 5, 6, 0, 0);
  const lines = Array.from({ length: 400 }, (_, i) => {
    const t = new Date(start + i * 30_000);
    const stamp = `${String(t.getUTCDate()).padStart(2, "0")}/Oct/2026:${t.toISOString().slice(11, 19)} +0000`;
    const status = i % 29 === 0 ? 503 : 200;
    return `10.1.${i % 5}.${i % 40} - - [${stamp}] "GET /${tag}/${i % 6} HTTP/1.1" ${status} ${700 + i} "-" "wcag-check" ${15_000 + (i % 17) * 2_500}`;
  });
  return lines.join("\n") + "\n";
}

async function ready<T>(page: Page, url: string, done: (body: T) => boolean): Promise<void> {
  await expect.poll(async () => done((await (await page.request.get(url)).json()) as T), { timeout: 600_000, intervals: [2_000] }).toBe(true);
}

async function dataset(page: Page, name: string): Promise<number> {
  const created = await page.request.post(`/api/v1/datasets?name=${name}`, { data: log(name), headers: { "Content-Type": "application/octet-stream" } });
  expect(created.ok(), await created.text()).toBeTruthy();
  const id = ((await created.json()) as { id: number }).id;
  await ready<{ status: string }>(page, `/api/v1/datasets/${id}`, (d) => d.status === "ready");
  return id;
}

async function simulation(page: Page, sweep?: object): Promise<number> {
  const scenario = {
    name: "wcag",
    duration_s: 900,
    seed: 3,
    workload: { arrivals: { rate_per_s: 2 }, service_s: { dist: "exponential", mean: 0.4 } },
    cluster: { vms: { min: 1, max: 3, start: 1 } },
    autoscaling: { policy: "threshold", lower: 0.3, upper: 0.7 },
  };
  const created = await page.request.post("/api/v1/simulations", { data: { name: sweep ? "WCAG sweep" : "WCAG run", scenario, ...(sweep ? { sweep } : {}) } });
  expect(created.status(), await created.text()).toBe(202);
  const id = ((await created.json()) as { id: number }).id;
  await ready<{ job: { status: string } }>(page, `/api/v1/simulations/${id}`, (s) => s.job.status === "succeeded");
  return id;
}

async function report(page: Page, title: string, simulationId: number): Promise<number> {
  const created = await page.request.post("/api/v1/reports", { data: { title, items: [{ kind: "simulation", source_id: simulationId }] } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

/** Opens the page, waits until nothing is loading, and returns axe's findings in the theme. */
async function check(page: Page, url: string, open?: (page: Page) => Promise<void>): Promise<string[]> {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
  if (open) await open(page);
  await expect(page.getByTestId("loading")).toHaveCount(0, { timeout: 60_000 });
  return seriousViolations(page);
}

test("every other page passes axe in the light and the dark theme", async ({ page, browser }) => {
  await signIn(page);
  const [first, second] = [await dataset(page, "wcag-a.log"), await dataset(page, "wcag-b.log")];
  const run = await simulation(page);
  const sweep = await simulation(page, { path: "autoscaling.upper", values: [0.6, 0.8] });
  const [reportA, reportB] = [await report(page, "WCAG report A", run), await report(page, "WCAG report B", run)];
  const link = await page.request.post(`/api/v1/reports/${reportA}/links`, { data: {} });
  expect(link.status(), await link.text()).toBe(201);
  const shared = ((await link.json()) as { path: string }).path;

  const pages: [string, string, ((page: Page) => Promise<void>)?][] = [
    ...TABS.map((tab): [string, string, (page: Page) => Promise<void>] => [
      `dataset ${tab}`,
      `/datasets/${first}`,
      async (p) => {
        await p.getByTestId(`tab-${tab}`).click();
        await p.waitForLoadState("networkidle");
      },
    ]),
    ["datasets compare", `/datasets/compare?ids=${first},${second}`],
    ["sources", "/sources"],
    ["simulation", `/simulations/${run}`],
    ["sweep", `/simulations/${sweep}`],
    ["sweep run", `/simulations/${sweep}/runs/0`],
    ["simulations compare", `/simulations/compare?ids=${run}`],
    ["report", `/reports/${reportA}`],
    ["reports compare", `/reports/compare?a=${reportA}&b=${reportB}`],
  ];
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [name, url, open] of pages) {
      for (const v of await check(page, url, open)) found.push(`${scheme} ${name}: ${v}`);
    }
    const visitor = await browser.newContext({ colorScheme: scheme }); // signed out
    for (const [name, url] of [["shared report", shared], ["sign-in", "/login"]] as const) {
      for (const v of await check(await visitor.newPage(), url)) found.push(`${scheme} ${name}: ${v}`);
    }
    await visitor.close();
  }
  expect(found).toEqual([]);
});
