import { expect, test, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";
// The worker compiles the numba engine on its first run (40-50 s cold), then runs take seconds.
const RUN_TIMEOUT_MS = 240_000;

test.describe.configure({ mode: "serial" });
test.setTimeout(420_000);

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: "Simulations" })).toBeVisible();
}

/** Opens the editor on the reference preset, shortened to `durationS`, named `name`. */
async function referenceScenario(page: Page, name: string, durationS: number) {
  await page.getByRole("link", { name: "Simulations", exact: true }).click();
  await page.getByRole("link", { name: "New simulation" }).first().click();
  await expect(page.getByTestId("scenario-yaml")).toContainText("university site");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByTestId("field-duration_s").fill(String(durationS));
  await expect(page.getByTestId("scenario-yaml")).toHaveValue(new RegExp(`duration_s: ${durationS}\\b`));
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
}

async function waitForSuccess(page: Page) {
  await expect(page.getByTestId("simulation-title")).toBeVisible();
  await expect(page.getByText("succeeded").first()).toBeVisible({ timeout: RUN_TIMEOUT_MS });
}

test("the reference preset runs from the editor and shows its step function", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "reference, 1 h", 3600);
  // the YAML view drives the form too: a bad value there names its field
  const yaml = page.getByTestId("scenario-yaml");
  const text = await yaml.inputValue();
  await yaml.fill(text.replace("start: 20", "start: 200"));
  await expect(page.getByTestId("scenario-verdict")).toContainText("cluster.vms");
  await yaml.fill(text);
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.screenshot({ path: path.join(artifacts, "simulation-editor.png"), fullPage: true });

  await page.getByTestId("run-scenario").click();
  await expect(page.getByTestId("simulation-progress")).toBeVisible();
  await waitForSuccess(page);
  const steps = page.getByTestId("chart-step-function");
  await expect(steps.locator("svg").first()).toBeVisible();
  await expect(steps.locator(".recharts-line")).toHaveCount(3); // arrivals, allocated, active
  // the scaling actions are marked: 20 VMs at the night's load scale in, one dot per action
  await expect(steps.getByText(/Scale in \([1-9]\d*\)/)).toBeVisible();
  expect(await steps.locator("circle.sim-point").count()).toBeGreaterThan(0);
  const utilization = page.getByTestId("chart-utilization");
  await expect(utilization.getByText("Utilisation over time")).toBeVisible();
  await expect(utilization.locator(".recharts-line")).toHaveCount(2); // mean and maximum
  await expect(page.getByTestId("chart-plt-cdf").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("chart-utilization-by-vms").locator(".recharts-line").first()).toBeVisible();
  await expect(page.getByTestId("run-summary")).toContainText("Scaling actions");
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "simulation-run.png"), fullPage: true });
});

test("the form adds, renames and removes request classes, the YAML following", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "two classes", 600);
  await page.getByTestId("add-class").click();
  await page.getByTestId("class-name-1").fill("api");
  const yaml = page.getByTestId("scenario-yaml");
  await expect(yaml).toHaveValue(/classes:/);
  await expect(yaml).toHaveValue(/name: api/);
  await page.getByTestId("field-workload.classes.1.arrivals.rate_per_s").fill("2");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("class-1").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "simulation-classes.png"), fullPage: true });
  await page.getByTestId("remove-class-1").click();
  await expect(yaml).not.toHaveValue(/name: api/);
});

test("push 0% and 100% compare on one PLT CDF chart", async ({ page }) => {
  await signIn(page);
  const ids: string[] = [];
  for (const push of [0, 1]) {
    await referenceScenario(page, `push ${push * 100}%`, 1200);
    await page.getByTestId("field-workload.page.push_fraction").fill(String(push));
    await expect(page.getByTestId("scenario-yaml")).toHaveValue(new RegExp(`push_fraction: ${push}\\b`));
    await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
    await page.getByTestId("run-scenario").click();
    await waitForSuccess(page);
    ids.push(page.url().split("/").pop() ?? "");
  }
  // the picker: from the list, tick both runs
  await page.getByRole("link", { name: "← Simulations" }).click();
  await page.getByRole("link", { name: "Compare runs" }).click();
  await expect(page.getByText("Nothing picked yet")).toBeVisible();
  for (const id of ids) {
    // the ticks live in the URL (?ids=): the box shows ticked once the navigation has rendered
    await page.getByTestId(`compare-pick-${id}`).click();
    await expect(page.getByTestId(`compare-pick-${id}`)).toBeChecked();
  }
  await expect(page).toHaveURL(new RegExp(`ids=${ids.join("%2C")}$|ids=${ids.join(",")}$`));
  await expect(page.getByTestId("compare-summary")).toContainText("push 100%");
  const chart = page.getByTestId("chart-compare-plt-cdf");
  await expect(chart.getByText("push 0%")).toBeVisible();
  await expect(chart.getByText("push 100%")).toBeVisible();
  await expect(chart.locator(".recharts-line")).toHaveCount(2);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "simulation-compare.png"), fullPage: true });
});

test("a threshold sweep shows its cost/SLA frontier, each point opening its run", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "threshold sweep", 1800);
  // start small with all objects pushed and a 4 s PLT SLA, so that the upper threshold trades VMs for violations
  await page.getByTestId("field-cluster.vms.start").fill("2");
  await page.getByTestId("field-workload.page.push_fraction").fill("1");
  await page.getByTestId("field-sla.threshold_s").fill("4");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("sweep-first-path").fill("autoscaling.upper");
  await page.getByTestId("sweep-first-values").fill("0.5, 0.6, 0.7, 0.8, 0.9");
  await page.getByTestId("run-sweep").click();
  await waitForSuccess(page);
  const frontier = page.getByTestId("chart-frontier");
  const symbols = frontier.locator("circle.sim-point");
  await expect(symbols.first()).toBeVisible();
  await expect(page.getByTestId("sweep-runs").locator("tbody tr")).toHaveCount(5);
  await symbols.last().click();
  await expect(page.getByTestId("sweep-run-details")).toContainText("autoscaling.upper =");
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "simulation-sweep.png"), fullPage: true });
  // the run opens at its stored result: no new simulation, no waiting
  await page.getByTestId("open-sweep-run").click();
  await expect(page).toHaveURL(/\/simulations\/\d+\/runs\/\d$/);
  await expect(page.getByTestId("sweep-run-values")).toContainText("autoscaling.upper =");
  await expect(page.getByTestId("chart-step-function").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("chart-window-latency").locator(".recharts-line")).toHaveCount(3); // p50, p95, p99
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "simulation-sweep-run.png"), fullPage: true });
  await page.getByRole("link", { name: "← The sweep" }).click();
  await expect(page.getByTestId("chart-frontier")).toBeVisible();

  await page.getByRole("link", { name: "← Simulations" }).click();
  await expect(page.getByTestId("simulations-table")).toContainText("threshold sweep");
  await page.screenshot({ path: path.join(artifacts, "simulation-list.png"), fullPage: true });
});

/** The demo's synthetic M/M/4 access log (with response times), written to a temp file. */
function demoLog(): string {
  const python = path.resolve(here, "../../.venv/bin/python");
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-sim-")), "replay-me.log");
  const script = "import sys; from headroom.demo.samples import synthetic_log; sys.stdout.buffer.write(synthetic_log())";
  writeFileSync(file, execFileSync(python, ["-c", script], { maxBuffer: 64 << 20 }));
  return file;
}

test("a dataset's requests replay through a scenario that refers to the dataset", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(demoLog());
  // the first ingest of a run compiles the parser (numba): minutes on a busy machine
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 240_000 });
  const datasetId = page.url().split("/").pop() ?? "";
  await expect(page.getByTestId("stat-span")).toBeVisible({ timeout: 240_000 }); // ingested: its summary shows
  await page.getByRole("link", { name: "Simulations", exact: true }).click();
  await page.getByRole("link", { name: "New simulation" }).first().click();
  await page.getByTestId("dataset-preset-select").selectOption(`replay:${datasetId}`);
  const yaml = page.getByTestId("scenario-yaml");
  await expect(yaml).toHaveValue(new RegExp(`dataset: "?'?${datasetId}'?"?`));
  await expect(yaml).toHaveValue(/dist: empirical/);
  await page.getByTestId("field-duration_s").fill("600");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.screenshot({ path: path.join(artifacts, "simulation-replay-editor.png"), fullPage: true });
  await page.getByTestId("run-scenario").click();
  await waitForSuccess(page);
  await expect(page.getByTestId("chart-step-function").locator("svg").first()).toBeVisible();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(artifacts, "simulation-replay-run.png"), fullPage: true });

  // "from this dataset": its workload model, once the characterization queued by the ingest is done
  await page.getByRole("link", { name: "Simulations", exact: true }).click();
  await page.getByRole("link", { name: "New simulation" }).first().click();
  await expect(yaml).toContainText("university site");
  await expect(async () => {
    await page.getByTestId("dataset-preset-select").selectOption(`model:${datasetId}`);
    await expect(page.getByText("Loaded the dataset's workload model.")).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 240_000, intervals: [5_000] });
  await expect(yaml).not.toContainText("university site");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.screenshot({ path: path.join(artifacts, "simulation-dataset-model.png"), fullPage: true });
});

test("a scenario saved under a name loads back into the editor", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "saved reference, 2 h", 7200);
  await page.getByTestId("field-cluster.vms.start").fill("7");
  const yaml = page.getByTestId("scenario-yaml");
  await expect(yaml).toHaveValue(/start: 7\b/);
  await page.getByLabel("Save as").fill("e2e saved scenario");
  await page.getByTestId("save-as").click();
  await expect(page.getByText("Saved as “e2e saved scenario”.")).toBeVisible();
  // load something else, then the saved one back
  await page.getByTestId("preset-select").selectOption({ label: "One 100 req/s server in overload (virtual queue)" });
  await expect(yaml).not.toHaveValue(/saved reference/);
  await page.getByTestId("saved-select").selectOption({ label: "e2e saved scenario" });
  await expect(yaml).toHaveValue(/name: saved reference, 2 h/);
  await expect(yaml).toHaveValue(/duration_s: 7200\b/);
  await expect(page.getByTestId("field-cluster.vms.start")).toHaveValue("7");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
});

test("a running simulation is cancelled from its page", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "a day to cancel", 86400);
  await page.getByTestId("run-scenario").click();
  await expect(page.getByTestId("simulation-progress")).toBeVisible();
  await page.getByTestId("cancel-simulation").click();
  await expect(page.getByText("This simulation was cancelled before it finished")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText("cancelled", { exact: true }).first()).toBeVisible();
  await page.getByRole("link", { name: "← Simulations" }).click();
  await expect(page.getByTestId("simulations-table").getByRole("row", { name: /a day to cancel/ })).toContainText("cancelled");
});

test("three tiers under a big spike: a form per tier, per-tier results and pool sizes", async ({ page }) => {
  await signIn(page);
  await referenceScenario(page, "placeholder", 600);
  const yaml = page.getByTestId("scenario-yaml");
  await yaml.fill(readFileSync(path.resolve(here, "../../data/profiles/three_tier_big_spike.yaml"), "utf8"));
  await expect(page.getByTestId("cluster-layout")).toHaveValue("tiers");
  await expect(page.getByTestId("tier-2")).toContainText("Tier 3: db");
  await expect(page.getByTestId("autoscaling-policy")).toHaveValue("concurrency_aware");
  await expect(page.getByTestId("autoscaling-tier")).toHaveValue("app");
  await expect(page.getByTestId("field-cluster.tiers.2.overhead.q_upper")).toHaveValue("20");
  // a form edit reaches the YAML, a bad one is named
  await page.getByTestId("field-cluster.tiers.1.pool_limit").fill("0");
  await expect(page.getByTestId("tier-1")).toContainText("must be ≥ 1");
  await page.getByTestId("field-cluster.tiers.1.pool_limit").fill("12");
  await expect(yaml).toHaveValue(/pool_limit: 12\b/);
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("tier-0").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "simulation-tiers-editor.png"), fullPage: true });
  await page.getByTestId("cluster-card").screenshot({ path: path.join(artifacts, "simulation-tiers-cluster.png") });
  await page.getByTestId("sct-fields").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "simulation-tiers-autoscaling.png") });

  await page.getByTestId("run-scenario").click();
  await waitForSuccess(page);
  const table = page.getByTestId("tier-table");
  await expect(table.getByRole("columnheader")).toHaveText(["Per tier", "web", "app", "db"]);
  await expect(table).toContainText("Pool size start → end");
  const pools = page.getByTestId("chart-tier-pools");
  await expect(pools.getByText(/db: pool changes \([1-9]\d*\)/)).toBeVisible(); // SCT resized the db pools
  expect(await pools.locator("circle.sim-point").count()).toBeGreaterThan(0);
  await expect(page.getByTestId("chart-tier-vms").locator(".recharts-line")).toHaveCount(4); // 3 allocated + app active
  await expect(page.getByTestId("chart-tier-utilization").locator(".recharts-line")).toHaveCount(3);
  await page.waitForTimeout(500);
  await page.getByTestId("tier-results").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(artifacts, "simulation-tiers-run.png"), fullPage: true });
  await page.getByTestId("tier-results").screenshot({ path: path.join(artifacts, "simulation-tiers-table.png") });
  await page.getByTestId("chart-tier-pools").screenshot({ path: path.join(artifacts, "simulation-tiers-pools.png") });
});
