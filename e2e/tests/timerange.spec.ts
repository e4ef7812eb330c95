/**
 * One time range for the whole dataset page, in the URL: a drag across a chart sets it, the
 * stat cards follow it, a reload keeps it, the back button restores the one before; a click
 * on a bucket lists its requests. Screenshots at 1440x900 and 390x844 into
 * e2e/artifacts/timerange-*.png; at 390 px no main page scrolls sideways.
 */
import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const iisLog = path.resolve(here, "../../data/logs/lnav_iis_w3c_time-taken.log");

// the first ingest of a run may compile the parser (numba): minutes on a busy machine
test.setTimeout(480_000);
test.describe.configure({ mode: "serial" });

let datasetUrl = "";

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300); // let the charts finish their first layout
  await page.screenshot({ path: path.join(artifacts, `timerange-${name}.png`), fullPage: true });
}

/** Drags across the requests chart from `a` to `b` (fractions of the plot's width). */
async function drag(page: Page, a: number, b: number) {
  const plot = page.getByTestId("chart-requests").locator(".recharts-surface").first();
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  if (box === null) throw new Error("the requests chart has no box");
  const y = box.y + box.height * 0.5;
  await page.mouse.move(box.x + box.width * a, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((a + b) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * b, y, { steps: 4 });
  await page.mouse.up();
}

async function noSidewaysScroll(page: Page) {
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll).toBeLessThanOrEqual(client);
}

test("a drag sets the range; a reload keeps it with its stat cards; back restores the whole log", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(iisLog);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("stat-requests")).toContainText("210");
  await expect(page.getByTestId("slice-range")).toHaveText("Whole log");
  datasetUrl = page.url();

  await drag(page, 0.3, 0.6);
  await expect(page).toHaveURL(/from=.*to=/);
  await expect(page.getByTestId("slice-range")).toContainText("→");
  await expect(page.getByTestId("stat-requests")).not.toContainText("210");
  await expect(page.getByTestId("stat-requests")).toContainText("in the range and filters");
  const zoomed = await page.getByTestId("stat-requests").textContent();
  const range = await page.getByTestId("slice-range").textContent();
  const zoomedUrl = page.url();
  await shot(page, "dataset-zoomed-1440");

  await page.reload();
  await expect(page).toHaveURL(zoomedUrl);
  await expect(page.getByTestId("slice-range")).toHaveText(range ?? "");
  await expect(page.getByTestId("stat-requests")).toHaveText(zoomed ?? "");

  // the Traffic tab follows the same range: its cards are the range's
  await page.getByTestId("tab-traffic").click();
  await expect(page).toHaveURL(/tab=traffic.*from=|from=.*tab=traffic/);
  await expect(page.getByTestId("slice-traffic-cards")).toBeVisible({ timeout: 150_000 });
  const count = /\d[\d,]*/.exec(zoomed ?? "")?.[0] ?? "none";
  await expect(page.getByTestId("traffic-total")).toContainText(count);
  await shot(page, "traffic-zoomed-1440");
  await page.getByTestId("tab-overview").click();

  await page.goBack();
  await expect(page.getByTestId("slice-range")).toHaveText("Whole log");
  await expect(page.getByTestId("stat-requests")).toContainText("210");
  await page.goForward();
  await expect(page.getByTestId("slice-range")).toHaveText(range ?? "");
});

test("a click on a bucket lists the requests behind it, a page at a time", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(datasetUrl);
  await expect(page.getByTestId("stat-requests")).toContainText("210");
  const plot = page.getByTestId("chart-requests").locator(".recharts-surface").first();
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  if (box === null) throw new Error("the requests chart has no box");
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
  const drawer = page.getByTestId("requests-drawer");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("requests-count")).toContainText(/requests, in the log's order|No request/);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  // the whole log's requests, filtered by status class from the URL
  await page.getByTestId("slice-list").click();
  await expect(drawer.getByTestId("requests-count")).toContainText("1–50 of 210 requests");
  await expect(drawer.getByTestId("requests-table").locator("tbody tr")).toHaveCount(50);
  await drawer.getByTestId("requests-next").click();
  await expect(drawer.getByTestId("requests-count")).toContainText("51–100 of 210");
  await shot(page, "drawer-1440");
  await page.keyboard.press("Escape");
  await page.getByTestId("slice-status").selectOption("2xx");
  await expect(page).toHaveURL(/status=2xx/);
  await expect(page.getByTestId("stat-requests")).toContainText("in the range and filters");
  await page.getByTestId("slice-list").click();
  const statusCells = drawer.getByTestId("requests-table").locator("tbody tr td:nth-child(4)");
  await expect(async () => {
    const statuses = await statusCells.allTextContents(); // the drawer's page loads after it opens
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s.startsWith("2"))).toBe(true);
  }).toPass();
});

test("screenshots at 1440 and 390 px; at 390 px no sideways scroll and a menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto("/datasets");
  await expect(page.getByText("lnav_iis_w3c_time-taken.log").first()).toBeVisible();
  await shot(page, "datasets-1440");
  await page.goto(datasetUrl);
  await expect(page.getByTestId("stat-requests")).toContainText("210");
  await shot(page, "dataset-1440");

  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, url, ready] of [
    ["datasets", "/datasets", "lnav_iis_w3c_time-taken.log"],
    ["dataset", datasetUrl, "Whole log"],
    ["simulations", "/simulations", null],
    ["reports", "/reports", null],
    ["upload", "/upload", null],
  ] as const) {
    await page.goto(url);
    if (ready !== null) await expect(page.getByText(ready).first()).toBeVisible();
    else await page.waitForLoadState("networkidle");
    await noSidewaysScroll(page);
    await shot(page, `${name}-390`);
  }
  for (const tab of ["traffic", "latency"]) {
    await page.goto(`${datasetUrl}?tab=${tab}`);
    await expect(page.getByTestId(`${tab}-tab`)).toBeVisible({ timeout: 150_000 });
    await noSidewaysScroll(page);
    await shot(page, `${tab}-390`);
  }
  await page.goto(datasetUrl);
  await expect(page.getByRole("link", { name: "Simulations" })).toBeHidden();
  await page.getByTestId("menu-button").click();
  await expect(page.getByRole("link", { name: "Simulations" })).toBeVisible();
  await shot(page, "menu-390");
  await page.getByRole("link", { name: "Simulations" }).click();
  await expect(page).toHaveURL(/\/simulations/);
  await expect(page.getByTestId("menu-button")).toHaveAttribute("aria-expanded", "false");
});
