/** A Prometheus dataset's Capacity tab and its source's SLA check, against the real
 * Prometheus server stack.py starts (constant rates, exponential latencies). */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../artifacts");
const prometheusUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8765) + 1}`;

test("a Prometheus dataset's capacity states its histogram, and the source its SLA check", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Sources" }).click();
  const form = page.getByRole("form", { name: "Add a Prometheus source" });
  await form.getByLabel("Name").fill("histogram");
  await form.getByLabel("Base URL").fill(prometheusUrl);
  await form.getByLabel("Rolling window (hours)").fill("8");
  await form.getByRole("button", { name: "Add source" }).click();
  await page.getByRole("button", { name: "Import histogram now" }).click();
  await expect(page.getByTestId("source-figures")).toContainText("p95", { timeout: 90_000 });
  await expect(page.getByTestId("source-sla")).toContainText("SLA not checked: no target yet");

  await page.getByRole("link", { name: "its dataset" }).click();
  await page.getByTestId("tab-capacity").click();
  await expect(page.getByTestId("capacity-intervals-note")).toBeVisible();
  await page.getByTestId("capacity-run").click();
  const note = page.getByTestId("histogram-note");
  await expect(note).toBeVisible({ timeout: 120_000 });
  await expect(note).toContainText("interpolated linearly inside the histogram bucket");
  await expect(note).toContainText("+Inf");
  await expect(note).toContainText("Concurrency");
  await expect(page.getByTestId("capacity-runs")).toContainText("step intervals");
  await expect(page.getByTestId("capacity-runs")).not.toContainText("s windows");
  await page.setViewportSize({ width: 1440, height: 900 });
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "sources-capacity.png"), fullPage: true });
  await page.goto("/sources");
  await expect(page.getByTestId("source-sla")).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "sources-sla.png"), fullPage: true });

  // the other specs share this stack: leave no source behind
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete histogram" }).click();
  await expect(page.getByTestId("source-sla")).toHaveCount(0);
});
