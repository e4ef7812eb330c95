/**
 * Every dataset tab of three datasets, screenshotted into e2e/artifacts/dataset-<name>-<tab>.png:
 * the IIS log (22 h 43 min: status, sizes and latency), the elastic log (no latency)
 * and the demo's pool trace (latency only: no status, sizes, clients or paths). A figure the
 * log does not record reads "not recorded", never 0.
 */
import { expect, test, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const python = path.resolve(here, "../../.venv/bin/python");
const artifacts = path.resolve(here, "../artifacts");
const iisLog = path.resolve(here, "../../data/logs/lnav_iis_w3c_time-taken.log");
const elasticLog = path.resolve(here, "../../data/logs/apache_combined_elastic.log");

/**
 * The elastic log with its lines in reverse order: the same requests (every figure is computed
 * over time-sorted rows), other bytes, so the upload spec's own upload of the file is new.
 */
function elasticReversed(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-tabs-")), "apache_combined_elastic.log");
  const lines = readFileSync(elasticLog, "utf8").trimEnd().split("\n").reverse();
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** The demo's latency trace of two application servers (headroom.demo.samples.synthetic_trace). */
function poolTrace(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-tabs-")), "synthetic-pool-trace.csv");
  const code = "import sys; from headroom.demo.samples import synthetic_trace; sys.stdout.buffer.write(synthetic_trace())";
  writeFileSync(file, execFileSync(python, ["-c", code], { maxBuffer: 64 << 20 }));
  return file;
}

// the first ingest of a run may compile the parser (numba): minutes on a busy machine
test.setTimeout(480_000);

async function upload(page: Page, file: string, requests: string) {
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(file);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
  await expect(page.getByTestId("stat-requests")).toContainText(requests);
}

/** Opens a tab, waits for what it shows, and screenshots the whole page. */
async function tab(page: Page, name: string, id: string, ready: Locator) {
  if (id !== "overview") await page.getByTestId(`tab-${id}`).click();
  await expect(ready.first()).toBeVisible({ timeout: 150_000 });
  await page.waitForTimeout(300); // let the charts finish their first layout
  await page.screenshot({ path: path.join(artifacts, `dataset-${name}-${id}.png`), fullPage: true });
}

async function everyTab(page: Page, name: string) {
  await tab(page, name, "overview", page.getByTestId("stat-requests"));
  await tab(page, name, "traffic", page.getByTestId("traffic-total"));
  await tab(page, name, "latency", page.getByTestId("latency-tab"));
  await tab(page, name, "workload", page.getByTestId("workload-tab"));
  await tab(page, name, "rules", page.getByTestId("ruleset-request"));
  await tab(page, name, "parse", page.getByTestId("parse-parsed"));
  await tab(page, name, "capacity", page.getByTestId("capacity-run").or(page.getByTestId("capacity-runs")));
  await tab(page, name, "concurrency", page.getByTestId("sct-run").or(page.getByTestId("sct-not-a-trace")));
}

function notRecorded(locator: Locator) {
  return expect(locator).toHaveAttribute("data-not-recorded", "true");
}

test.describe.configure({ mode: "serial" });

test("the pool trace: status, sizes, sessions, pages and the daily profile are not recorded", async ({ page }) => {
  await signIn(page);
  await upload(page, poolTrace(), "141,725");
  await notRecorded(page.getByTestId("stat-error-rate"));
  await notRecorded(page.getByTestId("stat-bytes"));
  await expect(page.getByTestId("stat-error-rate")).toContainText("this log has no status codes");
  await expect(page.getByTestId("chart-status-not-recorded")).toBeVisible();
  await expect(page.getByTestId("stat-latency-p95")).toBeVisible();
  await everyTab(page, "pool-trace");
  await page.getByTestId("tab-workload").click();
  await notRecorded(page.getByTestId("workload-sessions"));
  await notRecorded(page.getByTestId("workload-pages"));
  await expect(page.getByTestId("chart-pages-per-session-not-recorded")).toBeVisible();
  await page.getByTestId("tab-traffic").click();
  await expect(page.getByTestId("chart-daily-profile-not-recorded")).toContainText("2 min");
  await page.getByTestId("tab-latency").click();
  await expect(page.getByTestId("paths-not-recorded")).toBeVisible();
});

test("the IIS log: every field recorded, but less than a day: no daily profile", async ({ page }) => {
  await signIn(page);
  await upload(page, iisLog, "210");
  await expect(page.getByTestId("stat-error-rate")).not.toHaveAttribute("data-not-recorded", "true");
  await expect(page.getByTestId("stat-bytes")).not.toHaveAttribute("data-not-recorded", "true");
  await everyTab(page, "iis");
  await page.getByTestId("tab-traffic").click();
  await expect(page.getByTestId("chart-daily-profile-not-recorded")).toBeVisible();
  await page.getByTestId("tab-workload").click();
  await expect(page.getByTestId("workload-sessions")).not.toHaveAttribute("data-not-recorded", "true");
});

test("the elastic log: no latency; its three days give a daily profile", async ({ page }) => {
  await signIn(page);
  await upload(page, elasticReversed(), "10,000");
  await expect(page.getByTestId("no-latency")).toBeVisible();
  await everyTab(page, "elastic");
  await page.getByTestId("tab-traffic").click();
  await expect(page.getByTestId("chart-daily-profile").locator("svg").first()).toBeVisible();
});
