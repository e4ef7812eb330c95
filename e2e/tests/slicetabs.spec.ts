/**
 * The tabs follow the page's range and filters: the Workload tab shows the characterization
 * of the slice (its own job), the Traffic and Latency tabs the characterization of the
 * filters (the same one here: no range), a capacity analysis run from the Capacity tab is
 * keyed on the slice, and each tab says which range and filters it shows; a filter keeping
 * no request says so; at 390 px every sliced tab fits the screen (no sideways scroll,
 * tables scroll inside their card). Screenshots into e2e/artifacts/slicetabs-*.png.
 */
import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const iisLog = path.resolve(here, "../../data/logs/lnav_iis_w3c_time-taken.log");

test.setTimeout(480_000);

async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(artifacts, `slicetabs-${name}.png`), fullPage: true });
}

test("the Workload and Capacity tabs follow a range and a filter", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(iisLog);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("stat-requests")).toContainText("210");
  const datasetUrl = page.url().split("?")[0];

  // a filter typed in the bar goes to the URL
  await page.getByTestId("slice-status").selectOption("2xx");
  await page.getByTestId("slice-pattern").fill("/**");
  await page.getByTestId("slice-pattern").press("Enter");
  await expect(page).toHaveURL(/pattern=/);
  await expect(page.getByTestId("stat-requests")).toContainText("in the range and filters");

  // Workload: the slice's own characterization, started by this visit
  const started = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/characterizations"));
  await page.getByTestId("tab-workload").click();
  const body = (await started).postDataJSON() as { slice: Record<string, unknown> };
  expect(body.slice).toMatchObject({ status_class: "2xx", path_pattern: "/**" });
  await expect(page.getByTestId("slice-shown")).toContainText("status 2xx");
  await expect(page.getByTestId("slice-shown")).toContainText("path matching /**");
  await expect(page.getByTestId("workload-tab")).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("slice-not-followed")).toBeHidden();
  await shot(page, "workload-1440");

  // Capacity: the run posts the slice, and only the slice's runs are listed
  await page.getByTestId("tab-capacity").click();
  await expect(page.getByTestId("slice-shown")).toContainText("status 2xx");
  const run = page.waitForRequest((r) => r.method() === "POST" && /\/analyses$/.test(r.url()));
  await page.getByTestId("capacity-run").click();
  const params = (await run).postDataJSON() as { slice: Record<string, unknown> };
  expect(params.slice).toMatchObject({ status_class: "2xx", path_pattern: "/**" });
  await shot(page, "capacity-1440");

  // the whole log's Capacity tab does not list the sliced run
  await page.goto(`${datasetUrl}?tab=capacity`);
  await expect(page.getByTestId("slice-shown")).toContainText("the whole log");
  await expect(page.getByText("No analysis yet")).toBeVisible();
  await shot(page, "capacity-whole-1440");

  // 390 px, with the filters set: each sliced tab fits the screen
  await page.setViewportSize({ width: 390, height: 844 });
  const filters = "status=2xx&pattern=%2F**";
  const charted = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/characterizations"));
  for (const [tab, ready] of TABS_390) {
    await page.goto(`${datasetUrl}?tab=${tab}&${filters}`);
    await expect(page.getByTestId("slice-shown").or(page.getByTestId("stat-requests")).first()).toBeVisible();
    await expect(ready === "tabpanel" ? page.getByRole("tabpanel") : page.getByTestId(ready)).toBeVisible({ timeout: 300_000 });
    await expect(page.getByTestId("loading")).toHaveCount(0, { timeout: 60_000 }); // spinners, not the banners' notes
    await shot(page, `${tab}-390`);
    expect(await sidewaysOverflow(page), `${tab} at 390 px`).toEqual([]);
  }
  // Traffic and Latency drew the filters' characterization: the Workload tab's, reused
  expect(((await charted).postDataJSON() as { slice: Record<string, unknown> }).slice).toEqual({ status_class: "2xx", path_pattern: "/**" });
  await page.goto(`${datasetUrl}?tab=latency&${filters}`);
  await expect(page.getByTestId("paths-table")).toContainText("Of the requests the filters keep.");

  // a filter that keeps nothing: said so, no chart of zeros
  await page.goto(`${datasetUrl}?tab=traffic&client=nobody`);
  await expect(page.getByTestId("slice-empty")).toContainText("The filters keep no request of this log", { timeout: 120_000 });
  await shot(page, "traffic-empty-390");
  expect(await sidewaysOverflow(page), "an empty slice at 390 px").toEqual([]);
});

const TABS_390: readonly [string, string][] = [
  ["overview", "stat-requests"],
  ["traffic", "traffic-tab"],
  ["latency", "latency-tab"],
  ["workload", "workload-tab"],
  ["capacity", "capacity-run"],
  ["concurrency", "tabpanel"], // this log is no latency trace: the tab says what it needs
  ["forecast", "forecast-tab"],
];

/** Elements that reach past the viewport's right edge, and the page's own sideways scroll
 * (a table wider than its card must scroll inside it: its box stays within the screen). */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`page scrolls to ${document.documentElement.scrollWidth} px`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>("main *"))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      if (insideScroller(el, width)) continue;
      found.push(`${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ""} to ${Math.round(box.right)} px`);
    }
    return found.slice(0, 10);

    /** Whether an ancestor within the screen clips or scrolls the element sideways (a clipping
     * ancestor that itself reaches past the screen, such as a bar's track inside a scrolling
     * table, defers to the ones above it). */
    function insideScroller(el: HTMLElement, right: number): boolean {
      for (let up = el.parentElement; up !== null; up = up.parentElement) {
        const overflow = getComputedStyle(up).overflowX;
        if (overflow !== "visible" && up.getBoundingClientRect().right <= right + 1) return true;
      }
      return false;
    }
  });
}
