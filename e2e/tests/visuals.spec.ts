/**
 * Charts and tables that read well: a time chart zooms from the keyboard (arrows, +/-) with a
 * visible focus ring and the new range announced; a run's charts (window percentiles, PLT CDF,
 * utilisation by allocated VMs, the cost with its unit) and the compare page (every run in the
 * picker, the side-by-side table scrolling inside its card) at 1440x900 and 390x844, where no
 * page scrolls sideways and no table sticks out of its card. Screenshots: e2e/artifacts/charts-*.png.
 * Specs run in file order on one stack: this file comes after policies.spec.ts, whose first
 * visit to the class-policy and virtual-queue pages expects their empty states.
 */
import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const iisLog = path.resolve(here, "../../data/logs/lnav_iis_w3c_time-taken.log");
// the worker compiles the numba engine on its first run: minutes on a busy machine
const RUN_TIMEOUT_MS = 300_000;

test.setTimeout(600_000);
test.describe.configure({ mode: "serial" });

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const runIds: string[] = [];

async function shot(page: Page, name: string) {
  await page.waitForTimeout(400); // let the charts finish their first layout
  await page.screenshot({ path: path.join(artifacts, `charts-${name}.png`), fullPage: true });
}

/** The page does not scroll sideways, and every table's scroll box ends inside the viewport. */
async function fitsTheScreen(page: Page) {
  const report = await page.evaluate(() => {
    const doc = document.documentElement;
    const tables = [...document.querySelectorAll("table")].map((t) => {
      const box = (t.parentElement ?? t).getBoundingClientRect();
      return { right: Math.round(box.right), width: Math.round(box.width) };
    });
    return { scroll: doc.scrollWidth, client: doc.clientWidth, tables };
  });
  expect(report.scroll, "the page scrolls sideways").toBeLessThanOrEqual(report.client);
  for (const t of report.tables) expect(t.right, "a table's box sticks out of the page").toBeLessThanOrEqual(report.client);
}

async function runScenario(page: Page, name: string, durationS: number) {
  await page.goto("/simulations/new");
  await expect(page.getByTestId("scenario-yaml")).toContainText("university site");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByTestId("field-duration_s").fill(String(durationS));
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("run-scenario").click();
  await expect(page.getByTestId("simulation-title")).toBeVisible();
  await expect(page.getByText("succeeded").first()).toBeVisible({ timeout: RUN_TIMEOUT_MS });
  runIds.push(page.url().split("/").pop() ?? "");
}

test("a time chart zooms from the keyboard, its range announced", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(iisLog);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("slice-range")).toHaveText("Whole log");

  const plot = page.getByTestId("chart-requests-plot");
  await plot.focus();
  await expect(plot).toBeFocused();
  await page.keyboard.press("+");
  await expect(page).toHaveURL(/from=.*to=/);
  await expect(page.getByTestId("slice-range")).toContainText("→");
  await expect(page.getByTestId("chart-requests-announce")).toContainText(/^Showing .+ to .+ UTC$/);
  const zoomed = await page.getByTestId("slice-range").textContent();
  await page.getByTestId("chart-requests-plot").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("slice-range")).not.toHaveText(zoomed ?? "");
  // the focus ring is drawn for the keyboard user
  const outline = await page.getByTestId("chart-requests-plot").evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe("solid");
  await page.getByTestId("chart-requests").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "charts-keyboard-zoom-1440.png") });

  // a drag zooms; the tooltip does not stay open over the new range until the pointer moves on
  const surface = page.getByTestId("chart-requests").locator(".recharts-surface").first();
  const box = await surface.boundingBox();
  if (box === null) throw new Error("the requests chart has no box");
  const y = box.y + box.height * 0.5;
  const before = await page.getByTestId("slice-range").textContent();
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.45, y, { steps: 4 });
  await page.mouse.move(box.x + box.width * 0.6, y, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId("slice-range")).not.toHaveText(before ?? "");
  await page.waitForTimeout(500);
  await expect(page.getByTestId("chart-requests").locator(".recharts-tooltip-wrapper").getByText(/UTC/)).toHaveCount(0);
});

test("a run's charts and its cost with a unit, at 1440 and 390 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await runScenario(page, "charts: reference day, a run with a rather long name to wrap", 3600);
  await expect(page.getByTestId("stat-cost")).toContainText("price units");
  await expect(page.getByTestId("stat-cost")).toContainText(/VM·h × [\d.]+ per VM·h/);
  await expect(page.getByTestId("chart-utilization-by-vms").locator(".recharts-line")).toHaveCount(3);
  await expect(page.getByTestId("chart-window-latency").locator("svg").first()).toBeVisible();
  await fitsTheScreen(page);
  await shot(page, "run-1440");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("stat-cost")).toBeVisible();
  await fitsTheScreen(page);
  await shot(page, "run-390");
});

test("the compare page lists every run and keeps its table inside its card", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await runScenario(page, "charts: the second run, also with a long descriptive name", 1200);
  await runScenario(page, "charts: a third run", 600);
  await page.goto(`/simulations/compare?ids=${runIds.join(",")}`);
  const table = page.getByTestId("compare-summary");
  await expect(table).toContainText("a third run");
  for (const id of runIds) {
    const pick = page.getByTestId(`compare-pick-${id}`);
    await pick.scrollIntoViewIfNeeded();
    await expect(pick).toBeVisible();
    await expect(pick).toBeChecked();
  }
  await expect(page.getByTestId("chart-compare-plt-cdf").locator(".recharts-line")).toHaveCount(runIds.length);
  await fitsTheScreen(page);
  // the table fits its card at desktop width: nothing to scroll
  const [tableWidth, boxWidth] = await table.evaluate((t) => [t.scrollWidth, (t.parentElement ?? t).clientWidth]);
  expect(tableWidth).toBeLessThanOrEqual(boxWidth);
  await shot(page, "compare-1440");

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(table).toContainText("a third run");
  await fitsTheScreen(page);
  // on a phone the table scrolls inside its card, its first column staying in view
  const scrolled = await table.evaluate((t) => {
    const box = t.parentElement as HTMLElement;
    box.scrollLeft = box.scrollWidth;
    const first = t.querySelector("tbody th") as HTMLElement;
    return { left: Math.round(first.getBoundingClientRect().left - box.getBoundingClientRect().left), scrollLeft: box.scrollLeft };
  });
  expect(scrolled.scrollLeft).toBeGreaterThan(0);
  expect(scrolled.left).toBeLessThanOrEqual(1);
  await shot(page, "compare-390");
});

test("the connections chart at 1440 and 390 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/policies/connections");
  await expect(page.getByTestId("connections-chart").locator("svg").first()).toBeVisible();
  await fitsTheScreen(page);
  await page.getByTestId("connections-chart").screenshot({ path: path.join(artifacts, "charts-connections-1440.png") });
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("connections-chart").locator("svg").first()).toBeVisible();
  await fitsTheScreen(page);
  await shot(page, "connections-390");
});

test("the class policies' runs table scrolls inside its card, at 1440 and 390 px", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/policies/classes");
  await expect(page.getByRole("heading", { name: "Class policies" })).toBeVisible();
  await page.getByLabel("Offered load from (req/s)").fill("150");
  await page.getByLabel("to (req/s)").fill("300");
  await page.getByLabel("Load steps (2–12)").fill("2");
  await page.getByTestId("start-classes").click();
  await expect(page.getByTestId("classes-verdicts")).toBeVisible({ timeout: RUN_TIMEOUT_MS * 2 });
  const runs = page.getByTestId("classes-runs");
  await expect(runs.getByRole("row")).toHaveCount(9);
  await expect(runs).toContainText("DynamicPart at 300/s");
  await fitsTheScreen(page);
  const [tableWidth, boxWidth] = await runs.evaluate((t) => [t.scrollWidth, (t.parentElement ?? t).clientWidth]);
  expect(tableWidth).toBeLessThanOrEqual(boxWidth);
  await shot(page, "classes-1440");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(runs.getByRole("row")).toHaveCount(9);
  await fitsTheScreen(page);
  await shot(page, "classes-390");
});

test("the virtual queue's waits stay inside their axis", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto("/policies/virtual-queue");
  await expect(page.getByRole("heading", { name: "Virtual queue" })).toBeVisible();
  await page.getByLabel("Maximum wait (s)").fill("3600");
  await page.getByTestId("start-queue").click();
  const waits = page.getByTestId("chart-waits");
  await expect(waits.locator("svg").first()).toBeVisible({ timeout: RUN_TIMEOUT_MS * 2 });
  // every point of the longest-wait line lies inside the plot (not above its top)
  const [lineTop, gridTop] = await waits.evaluate((el) => {
    const line = el.querySelector(".recharts-line path") as SVGGraphicsElement | null;
    const grid = el.querySelector(".recharts-cartesian-grid") as SVGGraphicsElement | null;
    return [line?.getBoundingClientRect().top ?? 0, grid?.getBoundingClientRect().top ?? 0];
  });
  expect(lineTop).toBeGreaterThanOrEqual(gridTop - 1);
  await fitsTheScreen(page);
  await waits.screenshot({ path: path.join(artifacts, "charts-virtual-queue-waits-1440.png") });
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(waits.locator("svg").first()).toBeVisible();
  await fitsTheScreen(page);
  await shot(page, "virtual-queue-390");
});
