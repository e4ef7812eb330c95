import { expect, test, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const python = path.resolve(here, "../../.venv/bin/python");
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";

/** The demo's synthetic files (headroom.demo.samples): an M/M/4 access log and a two-server latency trace. */
function demoFile(name: string, fn: "synthetic_log" | "synthetic_trace"): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-cap-")), name);
  const data = execFileSync(python, ["-c", `import sys; from headroom.demo.samples import ${fn}; sys.stdout.buffer.write(${fn}())`], {
    maxBuffer: 64 << 20,
  });
  writeFileSync(file, data);
  return file;
}

test.setTimeout(420_000);

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

async function upload(page: Page, file: string) {
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(file);
  // the first ingest of a run compiles the parser (numba): minutes on a busy machine
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 240_000 });
}

async function numberIn(locator: Locator): Promise<number> {
  return Number((await locator.innerText()).replace(/[^0-9.]/g, ""));
}

test("drag the SLA line of the demo's M/M/4 analysis, then partition the cluster", async ({ page }) => {
  await signIn(page);
  await upload(page, demoFile("synthetic-mm4-latency.log", "synthetic_log"));
  await page.getByTestId("tab-capacity").click();
  await page.getByTestId("capacity-run").click();
  const rate = page.getByTestId("sla-max-rate");
  await expect(rate).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("knee-chart")).toContainText("Knee");

  // drag the threshold line up with the mouse: a looser SLA admits more load
  const before = await numberIn(rate);
  const handle = page.getByTestId("sla-threshold-handle");
  await page.getByTestId("knee-chart").scrollIntoViewIfNeeded();
  const box = await handle.boundingBox();
  expect(box).not.toBeNull();
  if (box === null) return;
  const grip = { x: box.x + 60, y: box.y + box.height / 2 };
  await page.mouse.move(grip.x, grip.y);
  await page.mouse.down();
  await page.mouse.move(grip.x, grip.y - 40, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => numberIn(rate)).toBeGreaterThan(before);
  await expect(page.getByTestId("sla-threshold")).not.toHaveText("");
  await expect(page.getByTestId("power-chart")).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "capacity-knee.png"), fullPage: false });

  // the evidence link of a recommendation brings its chart into view
  await page.getByRole("link", { name: /Evidence: the power-ratio chart/ }).click();
  await expect(page.getByTestId("power-chart")).toBeInViewport();
  await page.getByTestId("capacity-recommendations").screenshot({ path: path.join(artifacts, "capacity-recommendations.png") });
  await page.getByTestId("power-capacity").screenshot({ path: path.join(artifacts, "capacity-power.png") });
  await page.getByRole("region", { name: "SLA for all" }).screenshot({ path: path.join(artifacts, "capacity-sla.png") });

  // partition: the worked example of docs/methods/admission.md needs K = 5 of 10 servers at a safety factor of 18/26
  const partition = page.getByTestId("partition-view");
  await partition.scrollIntoViewIfNeeded();
  await page.getByTestId("partition-safety").fill("0.69");
  await page.getByTestId("partition-servers").fill("10");
  await page.getByTestId("partition-top").fill("0.2");
  await expect(page.getByTestId("partition-k")).toHaveText("5");
  await page.getByTestId("partition-top").fill("0.95");
  await expect(page.getByTestId("partition-warning")).toBeVisible();
  await page.getByTestId("partition-top").fill("0.3");
  await page.waitForTimeout(300); // let the slider's chart settle for the screenshot
  await partition.screenshot({ path: path.join(artifacts, "capacity-partition.png") });
});

test("the concurrency view of the demo's latency trace finds each server's pool size", async ({ page }) => {
  await signIn(page);
  await upload(page, demoFile("synthetic-pool-trace.csv", "synthetic_trace"));
  await page.getByTestId("tab-concurrency").click();
  await page.getByTestId("sct-run").click();
  const qLower = page.getByTestId("sct-q-lower");
  await expect(qLower).toBeVisible({ timeout: 90_000 });
  // app-1 was simulated with its best pool size at 10, app-2 at 20 (the fit lands within 2)
  expect(Math.abs((await numberIn(qLower)) - 10)).toBeLessThanOrEqual(2);
  await expect(page.getByTestId("sct-recommendation")).toContainText("Set the thread or connection pool of app-1 to");
  await expect(page.getByTestId("sct-throughput-chart")).toContainText("rational range");
  await page.getByRole("button", { name: "app-2" }).click();
  expect(Math.abs((await numberIn(qLower)) - 20)).toBeLessThanOrEqual(2);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(artifacts, "capacity-concurrency.png"), fullPage: true });
});
