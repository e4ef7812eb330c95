import { expect, test, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
// the elastic sample, gzipped: 10,000 lines, each a request (MANIFEST: 84 hourly buckets)
const gzipLog = path.resolve(here, "../fixtures/elastic_apache_combined.log.gz");
// a uWSGI request log with response times: 19 requests over 7 minutes, no rejects
const timedLog = path.resolve(here, "../../data/logs/lnav_uwsgi_req_time.log");
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";

// ingest, characterization and a re-characterization in one test: more than the default budget
test.setTimeout(300_000);

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

async function upload(page: Page, file: string, requests: string) {
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(file);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId("stat-requests")).toContainText(requests);
}

async function openTab(page: Page, id: string) {
  await page.getByTestId(`tab-${id}`).click();
  await expect(page).toHaveURL(new RegExp(`tab=${id}`));
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifacts, `characterization-${name}.png`), fullPage: true });
}

test("a gzip log is characterized and every tab shows it", async ({ page }) => {
  await signIn(page);
  await upload(page, gzipLog, "10,000");

  await openTab(page, "traffic");
  await expect(page.getByTestId("traffic-total")).toContainText("10,000", { timeout: 120_000 });
  await expect(page.getByTestId("chart-arrivals").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("chart-daily-profile").locator("svg").first()).toBeVisible();
  await page.getByTestId("resolution").getByRole("radio", { name: "1 s" }).click();
  await expect(page.getByTestId("chart-arrivals")).toContainText("Showing 2,000 of 302,400 buckets");
  await shot(page, "traffic-1s");
  await page.getByTestId("resolution").getByRole("radio", { name: "1 h" }).click();
  await expect(page.getByTestId("traffic-total")).toContainText("84 buckets of 1 h");
  await expect(page.getByTestId("traffic-total")).toContainText("10,000");
  await shot(page, "traffic");

  await openTab(page, "latency");
  await expect(page.getByTestId("no-latency")).toBeVisible();
  await expect(page.getByTestId("paths-table")).toContainText("/favicon.ico");
  await shot(page, "latency-none");

  await openTab(page, "workload");
  await expect(page.getByTestId("class-mix-request")).toContainText("static");
  await expect(page.getByTestId("fit-chart-think_time_s").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("fit-think_time_s")).toContainText("Chosen family");
  await shot(page, "workload");

  await openTab(page, "parse");
  await expect(page.getByTestId("parse-parsed")).toContainText("10,000");
  await expect(page.getByTestId("parse-rejected")).toContainText("0");
  await shot(page, "parse");

  await openTab(page, "rules");
  await expect(page.getByTestId("ruleset-request")).toBeVisible();
  await page.getByTestId("ruleset-user").getByRole("button", { name: "Add a rule" }).click();
  await page.getByTestId("save-rules").click();
  await expect(page.getByTestId("rules-problems")).toContainText("user.rules.0.cls");
  await page.getByTestId("rule-user-0").getByLabel("Rule 1: class").fill("office");
  await page.getByTestId("rule-user-0").getByLabel("Clients (address or CIDR)").fill("83.149.9.0/24");
  await page.getByTestId("save-rules").click();
  await expect(page.getByText(/Saved .* by/)).toBeVisible();
  await shot(page, "rules");
  await openTab(page, "workload");
  await expect(page.getByTestId("class-mix-user")).toContainText("office", { timeout: 120_000 });

  await openTab(page, "capacity");
  await expect(page.getByRole("region", { name: "Capacity" })).toBeVisible();
});

test("a log with response times shows latency percentiles over time", async ({ page }) => {
  await signIn(page);
  await upload(page, timedLog, "19");
  await openTab(page, "latency");
  await expect(page.getByTestId("latency-p50")).toContainText("19 timed requests", { timeout: 120_000 });
  await expect(page.getByTestId("chart-latency-percentiles").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("paths-table")).toContainText("p95");
  await shot(page, "latency");
  await openTab(page, "parse");
  await expect(page.getByTestId("parse-format")).toContainText("uwsgi");
});
