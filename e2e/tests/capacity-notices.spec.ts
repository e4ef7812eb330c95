import { expect, test, type Page } from "@playwright/test";
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

test("a log without response times: the form says so before anything runs", async ({ page }) => {
  await signIn(page);
  await upload(page, path.resolve(here, "../../data/logs/lnav_logfile_access_log.0"));
  await page.getByTestId("tab-capacity").click();
  await expect(page.getByTestId("capacity-blocker")).toContainText("records no response times", { timeout: 60_000 });
  await expect(page.getByTestId("capacity-run")).toBeDisabled();
  await page.screenshot({ path: path.join(artifacts, "capacity-no-latency.png"), fullPage: true });
});

test("the pool trace (closed loops): Capacity names the Concurrency analysis instead of a capacity", async ({ page }) => {
  await signIn(page);
  await upload(page, demoFile("synthetic-pool-trace.csv", "synthetic_trace"));
  await page.getByTestId("tab-capacity").click();
  await page.getByTestId("capacity-run").click();
  const warnings = page.getByTestId("capacity-warnings");
  await expect(warnings).toContainText("Concurrency analysis", { timeout: 120_000 });
  await expect(page.getByTestId("sla-max-rate")).toHaveCount(0);
  await page.screenshot({ path: path.join(artifacts, "capacity-pool-trace.png"), fullPage: true });
});
