/** A Prometheus dataset's tabs, against the real Prometheus server stack.py starts (routes
 * /a at 10/s and /b at 4/s ok plus 1/s errors, exponential latencies): the Overview's
 * figures and the Traffic charts from the source's intervals, following the page's range;
 * the tabs that need a log say so; the capacity form has no window field. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
const prometheusUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;

test("a Prometheus dataset's Overview and Traffic read its intervals; log-only tabs say so", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Sources" }).click();
  const form = page.getByRole("form", { name: "Add a Prometheus source" });
  await form.getByLabel("Name").fill("tabs");
  await form.getByLabel("Base URL").fill(prometheusUrl);
  await form.getByLabel("Split classes by label").fill("route");
  await form.getByLabel("Rolling window (hours)").fill("8");
  await form.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByTestId("sources-table").getByText("tabs", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Import tabs now" }).click();
  await expect(page.getByRole("progressbar", { name: "Importing tabs" }).or(page.getByTestId("source-figures"))).toBeVisible();
  await expect(page.getByTestId("source-figures")).toContainText("p95", { timeout: 90_000 });
  await page.getByRole("link", { name: "its dataset" }).click();

  // the header: the source and its intervals, not a size
  await expect(page.getByTestId("dataset-header-intervals")).toContainText("intervals of minute");
  await expect(page.getByTestId("dataset-title")).toHaveText("tabs");
  await expect(page.getByText("0 B", { exact: true })).toHaveCount(0);

  // Overview: the figures of every imported interval
  await expect(page.getByTestId("prometheus-overview")).toBeVisible();
  await expect(page.getByTestId("stat-peak-rate")).toContainText("15"); // 10 + 4 + 1 per second
  await expect(page.getByTestId("stat-latency-p95")).toContainText("interpolated within buckets");
  await expect(page.getByTestId("stat-latency-p95")).toContainText("250 ms – 300 ms");
  await expect(page.getByTestId("stat-bytes")).toContainText("not recorded");
  await expect(page.getByTestId("stat-latency-max")).toContainText("not recorded");
  await expect(page.getByTestId("prometheus-classes")).toContainText("/b");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(artifacts, "sources-tabs-overview.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(artifacts, "sources-tabs-overview-mobile.png"), fullPage: true });

  // Traffic: rates and error share per class
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("tab-traffic").click();
  await expect(page.getByTestId("chart-prometheus-rate")).toBeVisible();
  await expect(page.getByTestId("chart-prometheus-errors")).toBeVisible();
  await expect(page.getByTestId("chart-prometheus-rate")).toContainText("Request rate per minute, per class");
  await page.screenshot({ path: path.join(artifacts, "sources-tabs-traffic.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // the charts take their new width after a resize: wait for it
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(artifacts, "sources-tabs-traffic-mobile.png"), fullPage: true });

  // the page's range: an hour of the data, the Overview's span and figures follow
  await page.setViewportSize({ width: 1440, height: 900 });
  const url = new URL(page.url());
  const requests = await page.request.get(`/api/v1/sources/prometheus/datasets/${url.pathname.split("/").pop()}/traffic`);
  const whole = (await requests.json()) as { classes: { points: { t: string; rate_per_s: number | null }[] }[] };
  const first = whole.classes[0]?.points.find((p) => p.rate_per_s !== null);
  expect(first).toBeDefined();
  const from = Date.parse(first?.t ?? "") + 3600_000; // the window's data starts there

  url.searchParams.delete("tab");
  url.searchParams.set("from", new Date(from).toISOString());
  url.searchParams.set("to", new Date(from + 3600_000).toISOString());
  await page.goto(url.pathname + url.search);
  await expect(page.getByTestId("stat-span")).toContainText("1 h");
  await expect(page.getByTestId("stat-requests")).toContainText("60 intervals of minute");
  await expect(page.getByTestId("stat-requests")).toContainText("54,000"); // 15/s for an hour

  // the tabs that need a log
  for (const tab of ["workload", "rules", "parse", "concurrency"]) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId("needs-a-log")).toContainText("needs a request log");
  }
  await page.screenshot({ path: path.join(artifacts, "sources-tabs-needs-a-log.png") });

  // Capacity: no window field, and why
  await page.getByTestId("tab-capacity").click();
  await expect(page.getByTestId("capacity-window-fixed")).toContainText("the source's step intervals");
  await expect(page.getByLabel("Window (s)")).toHaveCount(0);

  // the other specs share this stack: leave no source behind
  await page.goto("/sources");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete tabs" }).click();
  await expect(page.getByRole("button", { name: "Delete tabs" })).toHaveCount(0);
});
