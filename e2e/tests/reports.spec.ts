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

/** The demo's synthetic M/M/4 access log with response times (headroom.demo.samples.synthetic_log). */
function demoLog(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-rep-")), "synthetic-mm4-latency.log");
  const script = "import sys; from headroom.demo.samples import synthetic_log; sys.stdout.buffer.write(synthetic_log())";
  writeFileSync(file, execFileSync(python, ["-c", script], { maxBuffer: 64 << 20 }));
  return file;
}

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

async function analyse(page: Page, datasetId: number, params: Record<string, number>): Promise<void> {
  const created = await page.request.post(`/api/v1/datasets/${datasetId}/analyses`, { data: params });
  expect(created.ok()).toBeTruthy();
  const analysisId = ((await created.json()) as { id: number }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/analyses/${analysisId}`)).json()) as { job: { status: string } }).job.status, {
      timeout: 90_000,
    })
    .toBe("succeeded");
}

/** Uploads the demo log in the UI, then runs a capacity analysis through the API and waits for it. */
async function demoData(page: Page): Promise<number> {
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(demoLog());
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 90_000 });
  const datasetId = Number(/datasets\/(\d+)/.exec(page.url())?.[1]);
  await analyse(page, datasetId, {});
  return datasetId;
}

async function addItem(page: Page, kind: string, result: boolean) {
  await page.getByTestId("item-kind").selectOption(kind);
  await page.getByTestId("item-dataset").selectOption({ label: "synthetic-mm4-latency.log" });
  if (result) {
    const source = page.getByTestId("item-source");
    await expect(source.locator("option")).toHaveCount(2);
    await source.selectOption({ index: 1 });
  }
  const items = await page.getByTestId("report-item").count();
  await page.getByTestId("add-item").click();
  await expect(page.getByTestId("report-item")).toHaveCount(items + 1);
}

test("an owner builds a report, shares a public link, and revokes it", async ({ page, browser }) => {
  await signIn(page);
  const datasetId = await demoData(page);

  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page.getByTestId("reports-empty")).toBeVisible();
  await page.getByLabel("Title").fill("Capacity review <script>alert(1)</script>");
  await page.getByRole("button", { name: "Create report" }).click();
  await expect(page.getByTestId("report-editor")).toBeVisible();
  await addItem(page, "traffic", false);
  await addItem(page, "capacity", true);
  await page.getByTestId("notes-input").fill("The knee sits near **77 req/s**. See [the runbook](https://example.com/runbook).\n\n<img src=x onerror=alert(1)>");
  await expect(page.getByTestId("notes-preview").locator("strong")).toHaveText("77 req/s");
  await page.getByRole("button", { name: "Save title and notes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "report-editor.png"), fullPage: true });

  await page.getByTestId("edit-toggle").click();
  await expect(page.getByTestId("report-title")).toHaveText("Capacity review <script>alert(1)</script>");
  await expect(page.getByTestId("report-notes")).toContainText("<img src=x onerror=alert(1)>");
  await expect(page.getByTestId("figure-knee_load")).toContainText("req/s");
  await page.waitForTimeout(500); // let the charts settle for the screenshot
  await page.screenshot({ path: path.join(artifacts, "report-view.png"), fullPage: true });

  // a teammate invited into the workspace reads the shared report in a second browser, without edit rights
  const me = (await (await page.request.get("/api/v1/auth/me")).json()) as { workspaces: { id: number }[] };
  const invited = await page.request.post(`/api/v1/workspaces/${me.workspaces[0]?.id ?? 0}/invitations`, {
    data: { email: "teammate@headroom.local", role: "viewer" },
  });
  expect(invited.ok()).toBeTruthy();
  const inviteToken = /[^/]+$/.exec(((await invited.json()) as { url: string }).url)?.[0] ?? "";
  const teammate = await browser.newContext();
  const mate = await teammate.newPage();
  const accepted = await mate.request.post(`/api/v1/invitations/${inviteToken}/accept`, { data: { password: "teammate-password", name: "Teammate" } });
  expect(accepted.ok()).toBeTruthy();
  await mate.goto("/reports");
  await mate.getByRole("link", { name: /Capacity review/ }).click();
  await expect(mate.getByTestId("report-item")).toHaveCount(2);
  await expect(mate.getByTestId("figure-knee_load")).toContainText("req/s");
  await expect(mate.getByTestId("edit-toggle")).toHaveCount(0);
  await mate.waitForTimeout(500);
  await mate.screenshot({ path: path.join(artifacts, "report-teammate.png") });
  await teammate.close();

  await page.getByTestId("share-toggle").click();
  await page.getByTestId("create-link").click();
  const link = (await page.getByTestId("public-link").innerText()).trim();
  expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{43}$/);

  const stranger = await browser.newContext();
  const publicPage = await stranger.newPage();
  await publicPage.goto(link);
  await expect(publicPage.getByTestId("report-title")).toHaveText("Capacity review <script>alert(1)</script>");
  await expect(publicPage.getByTestId("report-item")).toHaveCount(2);
  await expect(publicPage.getByRole("navigation")).toHaveCount(0);
  await expect(publicPage.getByRole("link", { name: /datasets/i })).toHaveCount(0);
  await publicPage.waitForTimeout(500);
  await publicPage.screenshot({ path: path.join(artifacts, "report-public.png"), fullPage: true });

  await page.reload();
  await page.getByTestId("share-toggle").click();
  await expect(page.getByTestId("links-table")).toContainText("active");
  await expect(page.getByTestId("links-table")).toContainText("1");
  await page.screenshot({ path: path.join(artifacts, "report-share.png"), fullPage: true });
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByTestId("revoke-link").click();
  await expect(page.getByTestId("links-table")).toContainText("revoked");

  await publicPage.reload();
  await expect(publicPage.getByTestId("public-not-found")).toBeVisible();
  await publicPage.screenshot({ path: path.join(artifacts, "report-revoked.png"), fullPage: true });
  await stranger.close();

  await page.goto("/reports");
  await expect(page.getByTestId("reports-table")).toContainText("Capacity review");
  await page.screenshot({ path: path.join(artifacts, "report-list.png") });

  // two analyses of the same log side by side: a stricter percentile moves the knee
  await analyse(page, datasetId, { percentile: 99 });
  await page.goto("/reports/compare");
  await page.getByTestId("compare-mode").selectOption("capacity");
  await page.getByTestId("compare-dataset").selectOption({ label: "synthetic-mm4-latency.log" });
  await expect(page.getByTestId("compare-a").locator("option")).toHaveCount(3);
  await page.getByTestId("compare-a").selectOption({ index: 2 });
  await page.getByTestId("compare-b").selectOption({ index: 1 });
  await page.getByTestId("compare-go").click();
  await expect(page.getByTestId("comparison-item")).toHaveCount(1);
  await expect(page.getByTestId("comparison-item").locator("[data-verdict]").first()).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "report-compare.png"), fullPage: true });
});

/** The demo's synthetic two-server latency trace (headroom.demo.samples.synthetic_trace): app-2's best pool size is 20. */
function demoTrace(): Buffer {
  const script = "import sys; from headroom.demo.samples import synthetic_trace; sys.stdout.buffer.write(synthetic_trace())";
  return execFileSync(python, ["-c", script], { maxBuffer: 64 << 20 });
}

async function finished(page: Page, url: string, timeout: number): Promise<void> {
  await expect
    .poll(async () => ((await (await page.request.get(url)).json()) as { job: { status: string } | null }).job?.status, { timeout, intervals: [1000] })
    .toBe("succeeded");
}

const SWEPT_SCENARIO = {
  name: "scaling",
  duration_s: 600,
  seed: 5,
  workload: { arrivals: { rate_per_s: 6 }, service_s: { dist: "exponential", mean: 0.5 } },
  cluster: { vms: { min: 1, max: 8, start: 1 }, boot_s: 10 },
  autoscaling: { policy: "threshold", lower: 0.3, upper: 0.8, step_s: 30 },
  sla: { percentile: 95, threshold_s: 2, window_s: 60 },
};

test("an SCT analysis and a sweep go into a report from their pages, and into the HTML export", async ({ page }) => {
  test.setTimeout(900_000); // a cold worker compiles the parser, the SCT scan and the simulator
  await signIn(page);
  const uploaded = await page.request.post("/api/v1/datasets?name=pool-trace.csv", {
    data: demoTrace(),
    headers: { "Content-Type": "application/octet-stream" },
  });
  // 200 when an earlier spec uploaded the same trace: uploads dedupe by content
  expect([200, 202]).toContain(uploaded.status());
  const dataset = (await uploaded.json()) as { id: number; job: { id: number } };
  await expect.poll(async () => ((await (await page.request.get(`/api/v1/datasets/${dataset.id}`)).json()) as { status: string }).status, { timeout: 300_000 }).toBe("ready");
  const sct = await page.request.post(`/api/v1/datasets/${dataset.id}/analyses/sct`, { data: {} });
  expect(sct.ok()).toBeTruthy();
  await finished(page, `/api/v1/analyses/${((await sct.json()) as { id: number }).id}`, 300_000);

  await page.goto(`/datasets/${dataset.id}?tab=concurrency`);
  await page.getByTestId("add-to-report-open").click();
  await page.getByTestId("add-to-report-select").selectOption("new");
  await page.getByTestId("add-to-report-title").fill("Pool sizes and costs");
  await page.getByTestId("add-to-report-view").selectOption("app-2");
  await page.screenshot({ path: path.join(artifacts, "add-to-report-form.png") });
  await page.getByTestId("add-to-report-submit").click();
  await expect(page.getByTestId("add-to-report-done")).toContainText("Open “Pool sizes and costs” (1 item)");
  await page.getByTestId("add-to-report-link").click();
  await expect(page.getByTestId("report-item")).toHaveCount(1);
  await expect(page.getByTestId("figure-q_lower")).toContainText("20");
  const reportId = Number(/reports\/(\d+)/.exec(page.url())?.[1]);

  const sweep = await page.request.post("/api/v1/simulations", {
    data: {
      name: "Start VMs × upper threshold",
      scenario: SWEPT_SCENARIO,
      sweep: { path: "cluster.vms.start", values: [1, 3, 5], second: { path: "autoscaling.upper", values: [0.5, 0.9] } },
    },
  });
  expect(sweep.status()).toBe(202);
  const sweepId = ((await sweep.json()) as { id: number }).id;
  await finished(page, `/api/v1/simulations/${sweepId}`, 480_000);
  await page.goto(`/simulations/${sweepId}`);
  await page.getByTestId("add-to-report-open").click();
  await page.getByTestId("add-to-report-select").selectOption(String(reportId));
  await page.getByTestId("add-to-report-submit").click();
  await expect(page.getByTestId("add-to-report-done")).toContainText("(2 items)");
  await page.screenshot({ path: path.join(artifacts, "add-to-report-sweep.png") });
  await page.getByTestId("add-to-report-link").click();
  await expect(page.getByTestId("report-item")).toHaveCount(2);
  await expect(page.getByTestId("figure-runs")).toContainText("6");
  await page.waitForTimeout(800); // let the charts settle for the screenshot
  await page.screenshot({ path: path.join(artifacts, "report-sct-sweep.png"), fullPage: true });

  const exported = await page.request.get(`/api/v1/reports/${reportId}/export?format=html`);
  const html = await exported.text();
  expect(html).toContain("rational range");
  expect(html.match(/<svg/g)).toHaveLength(3);
  writeFileSync(path.join(artifacts, "report-sct-sweep-export.html"), html);
  await page.setContent(html);
  await page.screenshot({ path: path.join(artifacts, "report-sct-sweep-export.png"), fullPage: true });
});

test("the Latency and Overview tabs go into a report", async ({ page }) => {
  test.setTimeout(600_000); // a cold worker compiles the parser and the characterization
  await signIn(page);
  const uploaded = await page.request.post("/api/v1/datasets?name=synthetic-mm4-latency.log", {
    data: execFileSync(python, ["-c", "import sys; from headroom.demo.samples import synthetic_log; sys.stdout.buffer.write(synthetic_log())"], { maxBuffer: 64 << 20 }),
    headers: { "Content-Type": "application/octet-stream" },
  });
  expect([200, 202]).toContain(uploaded.status()); // 200: an earlier test uploaded the same log
  const dataset = (await uploaded.json()) as { id: number };
  await expect.poll(async () => ((await (await page.request.get(`/api/v1/datasets/${dataset.id}`)).json()) as { status: string }).status, { timeout: 300_000 }).toBe("ready");

  await page.goto(`/datasets/${dataset.id}?tab=latency`);
  await expect(page.getByTestId("latency-p95").first()).toBeVisible({ timeout: 300_000 });
  await page.getByTestId("add-to-report-open").click();
  await page.getByTestId("add-to-report-select").selectOption("new");
  await expect(page.getByTestId("add-to-report-title")).toHaveValue("Latency of synthetic-mm4-latency.log");
  await page.getByTestId("add-to-report-submit").click();
  await expect(page.getByTestId("add-to-report-done")).toContainText("(1 item)");
  const reportUrl = (await page.getByTestId("add-to-report-link").getAttribute("href")) ?? "";

  await page.goto(`/datasets/${dataset.id}`);
  await page.getByTestId("add-to-report-open").click();
  await page.getByTestId("add-to-report-select").selectOption(reportUrl.split("/").pop() ?? "");
  await page.getByTestId("add-to-report-submit").click();
  await expect(page.getByTestId("add-to-report-done")).toContainText("(2 items)");

  await page.goto(reportUrl);
  const items = page.getByTestId("report-item");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Latency percentiles per");
  await expect(items.nth(1)).toContainText("Request rate");
  await page.screenshot({ path: path.join(artifacts, "report-from-dataset-tabs.png"), fullPage: true });
});
