import { expect, test, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";

const here = path.dirname(fileURLToPath(import.meta.url));
const sampleLog = path.resolve(here, "../../data/logs/apache_combined_elastic.log");
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";
// the sample has 10,000 lines, each a request (one with a truncated user agent)
const trueRequestCount = "10,000";

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

test("upload a real log and see its traffic", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();

  // Both bars may be brief on a fast local machine: watch for them before the upload starts.
  const uploadBar = page.getByTestId("upload-progress");
  const jobBar = page.getByTestId("job-progress");
  const sawUploadBar = uploadBar.waitFor({ state: "attached", timeout: 60_000 });
  const sawJobBar = jobBar.waitFor({ state: "attached", timeout: 60_000 });
  await page.getByTestId("file-input").setInputFiles(sampleLog);
  await sawUploadBar;
  await sawJobBar;

  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("stat-requests")).toContainText(trueRequestCount);
  await expect(page.getByTestId("chart-requests").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("chart-status").locator("svg").first()).toBeVisible();
  await page.waitForTimeout(800); // let the chart animations settle for the screenshot
  await page.screenshot({ path: path.join(artifacts, "dataset-page.png"), fullPage: true });
});

test("a large log goes up in resumable chunks", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  const folder = mkdtempSync(path.join(os.tmpdir(), "headroom-e2e-"));
  const bigLog = path.join(folder, "big-access.log");
  writeFileSync(bigLog, Buffer.concat(Array.from({ length: 9 }, () => readFileSync(sampleLog))));
  const chunkRequests: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/chunks?offset=")) chunkRequests.push(request.url());
  });
  await page.getByTestId("file-input").setInputFiles(bigLog);
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByTestId("stat-requests")).toContainText("90,000");
  expect(chunkRequests.length).toBeGreaterThanOrEqual(3); // 21 MB in 8 MiB chunks
});

test("a file that is not a log is refused with the failing line", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  const folder = mkdtempSync(path.join(os.tmpdir(), "headroom-e2e-"));
  const notALog = path.join(folder, "notes.txt");
  writeFileSync(notALog, "dear diary\n".repeat(100));
  await page.getByTestId("file-input").setInputFiles(notALog);
  await expect(page.getByText(/no supported log format/i)).toBeVisible();
  await expect(page.getByText("dear diary").first()).toBeVisible();
  await page.screenshot({ path: path.join(artifacts, "upload-refused.png"), fullPage: true });
});

test("a custom nginx log_format from the Advanced section: arrival = completion - duration", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  const spec = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent rt=$request_time';
  const lines = Array.from({ length: 30 }, (_, i) => {
    const second = String(i).padStart(2, "0");
    return `10.0.0.${i} - - [01/Mar/2026:12:00:${second} +0100] "GET /p/${i} HTTP/1.1" 200 ${100 + i} rt=${(i + 1) / 1000}`;
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), "headroom-e2e-"));
  const log = path.join(folder, "nginx-timed.log");
  writeFileSync(log, lines.join("\n") + "\n");
  await page.getByText("Advanced", { exact: true }).click();
  await page.getByTestId("upload-log-format").fill(spec);
  await expect(page.getByTestId("upload-format")).toBeDisabled();
  await page.screenshot({ path: path.join(artifacts, "upload-advanced.png"), fullPage: true });
  await page.getByTestId("file-input").setInputFiles(log);
  // a first parse with a new format string may wait for the parser to compile (cold cache)
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 240_000 });
  await page.getByRole("tab", { name: "Parse report" }).click();
  await expect(page.getByTestId("parse-format")).toContainText("nginx:");
  await expect(page.getByTestId("parse-format")).toContainText("arrival = time - $request_time");
  await page.screenshot({ path: path.join(artifacts, "parse-report-nginx-notes.png"), fullPage: true });
});

test("a dropped chunk is sent again and the page says where the upload resumed", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  const folder = mkdtempSync(path.join(os.tmpdir(), "headroom-e2e-"));
  const bigLog = path.join(folder, "resumed-access.log");
  const sample = readFileSync(sampleLog);
  const firstLine = sample.subarray(0, sample.indexOf(10) + 1); // other bytes than the 9x upload above (uploads dedupe)
  writeFileSync(bigLog, Buffer.concat([...Array.from({ length: 9 }, () => sample), firstLine]));
  let dropped = false;
  await page.route("**/chunks?offset=8388608", async (route) => {
    if (dropped) return route.continue();
    dropped = true;
    return route.abort("connectionreset"); // the first try of the second chunk is lost
  });
  // the last chunk waits, so the notice stays up long enough to read before the page moves on
  await page.route("**/chunks?offset=16777216", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return route.continue();
  });
  await page.getByTestId("file-input").setInputFiles(bigLog);
  await expect(page.getByTestId("upload-resumed")).toContainText(/connection dropped; resumed at 8\.4 MB of 2\d\.\d MB/);
  await page.screenshot({ path: path.join(artifacts, "upload-resumed.png"), fullPage: true });
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 120_000 });
  expect(dropped).toBe(true);
});
