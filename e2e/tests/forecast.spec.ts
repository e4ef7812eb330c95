/**
 * The Forecast tab of the elastic sample log (3.5 days: a daily cycle, no weekly one), with a
 * limit typed in: the runway in words, the chart with its limit line, and "Simulate the
 * forecast peak week" opening the editor on a linear-profile scenario. Screenshot:
 * e2e/artifacts/dataset-forecast.png.
 */
import { expect, test } from "@playwright/test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const elasticLog = path.resolve(here, "../../data/logs/apache_combined_elastic.log");

/** The sample with its first line moved to the end: the same requests, other bytes (a new dataset). */
function elasticRotated(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-forecast-")), "elastic-forecast.log");
  const [first = "", ...rest] = readFileSync(elasticLog, "utf8").trimEnd().split("\n");
  writeFileSync(file, [...rest, first].join("\n") + "\n");
  return file;
}

// the first ingest of a run may compile the parser (numba): minutes on a busy machine
test.setTimeout(480_000);

test("forecast tab: runway to a typed limit and the peak week to simulate", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(elasticRotated());
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
  await page.getByTestId("tab-forecast").click();
  const runway = page.getByTestId("forecast-runway");
  await expect(runway).toContainText(/No limit is known/, { timeout: 120_000 });
  await page.getByTestId("forecast-limit").fill("0.039");
  await expect(runway).toContainText(/the peak passes 0\.039 req\/s on \d+ [A-Z][a-z]+ \d{4}\./, { timeout: 120_000 });
  await expect(page.getByTestId("forecast-chart").getByText("Limit (0.039 req/s)")).toBeVisible();
  await expect(page.getByTestId("forecast-chart").locator("svg").first()).toBeVisible();
  await expect(page.getByText(/no weekly cycle fitted/)).toBeVisible();
  await page.waitForTimeout(500); // let the chart finish its first layout
  await page.screenshot({ path: path.join(artifacts, "dataset-forecast.png"), fullPage: true });
  await page.getByTestId("simulate-peak-week").click();
  await expect(page).toHaveURL(/\/simulations\/new$/);
  await expect(page.getByTestId("scenario-yaml")).toHaveValue(/interpolation: linear/, { timeout: 60_000 });
  await expect(page.getByTestId("scenario-yaml")).toHaveValue(/forecast peak week of elastic-forecast.log/);
});
