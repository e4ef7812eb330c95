/** The Sources page against a real Prometheus server (started by stack.py on the next port,
 * its data the last hours): add a source, test the connection, import now, see the live
 * dataset; and a source with a wrong selector showing its error. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./helpers";

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
const prometheusUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;

async function addSource(page: Page, name: string, selector: string): Promise<void> {
  const form = page.getByRole("form", { name: "Add a Prometheus source" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Base URL").fill(prometheusUrl);
  await form.getByLabel("Request counter selector").fill(selector);
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
  await addSource(page, "checkout", "http_requests_total");

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
});
