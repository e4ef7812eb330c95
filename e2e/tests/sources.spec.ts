/** The Sources page against a real Prometheus server (started by stack.py on the next port,
 * its data the last hours): add a source, test the connection, import now, see the live
 * dataset; and a source with a wrong selector showing its error. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./helpers";

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
const prometheusUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;

async function addSource(page: Page, name: string, selector: string, latency = ""): Promise<void> {
  const form = page.getByRole("form", { name: "Add a Prometheus source" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Base URL").fill(prometheusUrl);
  await form.getByLabel("Request counter selector").fill(selector);
  if (latency !== "") await form.getByLabel("Latency histogram (_bucket) selector").fill(latency);
  await form.getByLabel("Split classes by label").fill("route");
  await form.getByLabel("Rolling window (hours)").fill("8");
  await form.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByTestId("sources-table").getByText(name, { exact: true })).toBeVisible();
}

test("a Prometheus source is tested, imported and kept as a live dataset", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Sources" }).click();
  await expect(page).toHaveURL(/\/sources$/);
  await expect(page.getByRole("heading", { name: "Sources" })).toBeVisible();
  await addSource(page, "checkout", "http_requests_total", "http_request_duration_seconds_bucket");

  await page.getByRole("button", { name: "Test connection of checkout" }).click();
  await expect(page.getByTestId("test-result")).toContainText("checkout: connected");
  await expect(page.getByTestId("test-result")).toContainText("matches 3 series");

  await page.getByRole("button", { name: "Import checkout now" }).click();
  const figures = page.getByTestId("source-figures");
  await expect(figures).toContainText("/s peak", { timeout: 90_000 });
  await expect(figures).toContainText("15/s peak"); // 10 + 4 + 1 requests per second
  await expect(figures).toContainText("p95");

  await addSource(page, "wrong", "no_such_metric_total");
  await page.getByRole("button", { name: "Import wrong now" }).click();
  await expect(page.getByText("'no_such_metric_total' matched no series")).toBeVisible({ timeout: 90_000 });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(artifacts, "sources-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(artifacts, "sources-mobile.png"), fullPage: true });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/datasets");
  const row = page.getByRole("row").filter({ hasText: "checkout" });
  await expect(row.getByText("live", { exact: true })).toBeVisible();
  await expect(row.getByTestId("dataset-source")).toContainText("refreshed");
  await page.screenshot({ path: path.join(artifacts, "sources-datasets.png") });

  // a log stream's dataset is live too, with the time its last lines arrived
  const stream = await page.request.post("/api/v1/telemetry/streams", { data: { name: "edge-stream", format: "combined_latency_s" } });
  expect(stream.ok()).toBeTruthy();
  const linesUrl = ((await stream.json()) as { lines_url: string }).lines_url;
  const line = '10.0.0.1 - - [26/Nov/2026:12:00:00 +0000] "GET /items/1 HTTP/1.1" 200 120 "-" "curl/8.5" 0.120';
  const posted = await page.request.post(linesUrl, { data: `${line}\n`, headers: { "Content-Type": "text/plain" } });
  expect(posted.status(), await posted.text()).toBe(200);
  await page.reload();
  const streamRow = page.getByRole("row").filter({ hasText: "edge-stream" });
  await expect(streamRow.getByText("live", { exact: true })).toBeVisible();
  await expect(streamRow.getByTestId("dataset-source")).toContainText("last received");
  await expect(streamRow.getByTestId("dataset-source")).toContainText("from a log stream");
  await page.screenshot({ path: path.join(artifacts, "live-datasets.png") });

  // the Prometheus dataset: live in its header, its latency with the p95's histogram bucket
  await row.getByRole("link", { name: "checkout", exact: true }).click();
  await expect(page.getByTestId("dataset-header-source")).toContainText("refreshed");
  await expect(page.getByTestId("dataset-header-source").getByText("live", { exact: true })).toBeVisible();
  await page.getByTestId("tab-latency").click();
  await expect(page.getByTestId("bucket-note")).toContainText("percentiles are interpolated within histogram buckets");
  await expect(page.getByTestId("bucket-bounds")).toContainText("250");
  await expect(page.getByTestId("chart-prometheus-latency")).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "prometheus-latency.png"), fullPage: true });
});
