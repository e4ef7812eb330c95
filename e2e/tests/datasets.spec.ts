import { expect, test, type Page } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");

/** `requests` Combined lines a minute apart (with %D response times when `latency`). */
function combinedLog(requests: number, latency: boolean, tag: string, latencyBaseUs = 900): string {
  const start = Date.UTC(2026, 2, 2, 9, 0, 0);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const lines = [];
  for (let i = 0; i < requests; i++) {
    const t = new Date(start + i * 60_000);
    const pad = (n: number) => String(n).padStart(2, "0");
    const stamp = `${pad(t.getUTCDate())}/${months[t.getUTCMonth()]}/${t.getUTCFullYear()}:${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:00 +0000`;
    lines.push(`10.0.0.${i % 9} - - [${stamp}] "GET /${tag}/${i} HTTP/1.1" 200 512 "-" "curl/8"${latency ? ` ${latencyBaseUs + i}` : ""}`);
  }
  return lines.join("\n") + "\n";
}

async function uploadAndWait(page: Page, name: string, body: string): Promise<void> {
  const created = await page.request.post(`/api/v1/datasets?name=${encodeURIComponent(name)}`, { data: body, headers: { "Content-Type": "application/octet-stream" } });
  expect(created.ok()).toBeTruthy();
  const id = ((await created.json()) as { id: number }).id;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/v1/datasets/${id}`)).json()) as { status: string }).status, { timeout: 120_000 })
    .toBe("ready");
}

test("the datasets list: figures per dataset, search, sort, rename and delete", async ({ page }) => {
  await signIn(page);
  await uploadAndWait(page, "list-checkout.log", combinedLog(240, true, "checkout"));
  await uploadAndWait(page, "list-search.log", combinedLog(30, false, "search"));
  await page.goto("/datasets?q=list-");
  const table = page.getByTestId("datasets-table");
  const checkout = table.getByRole("row", { name: /list-checkout\.log/ });
  await expect(checkout).toContainText("240");
  await expect(checkout).toContainText("yes");
  await expect(table.getByRole("row", { name: /list-search\.log/ })).toContainText("not recorded");

  await page.getByLabel("Sort").selectOption("requests");
  await expect(page).toHaveURL(/sort=requests/);
  await expect(table.getByRole("row").nth(1)).toContainText("list-checkout.log");
  await page.screenshot({ path: path.join(artifacts, "datasets-list.png"), fullPage: true });

  await page.getByRole("button", { name: "Rename list-search.log" }).click();
  await page.getByLabel("New name").fill("list-search-renamed.log");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(table.getByRole("row", { name: /list-search-renamed\.log/ })).toBeVisible();

  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Delete list-search-renamed.log" }).click();
  await expect(table.getByRole("row", { name: /list-search-renamed\.log/ })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(artifacts, "datasets-list-390.png"), fullPage: true });
});

test("compare two datasets: figures side by side, the differences in words, one time axis", async ({ page }) => {
  await signIn(page);
  // the same minutes; "after" answers about twice as slowly (p95 about 1.13 ms vs 2.03 ms)
  await uploadAndWait(page, "compare-before.log", combinedLog(240, true, "before"));
  await uploadAndWait(page, "compare-after.log", combinedLog(240, true, "after", 1800));
  await page.goto("/datasets?q=compare-");
  await expect(page.getByTestId("datasets-compare")).toBeDisabled();
  await page.getByLabel("Compare compare-before.log").check();
  await page.getByLabel("Compare compare-after.log").check();
  await page.getByTestId("datasets-compare").click();

  await expect(page).toHaveURL(/\/datasets\/compare\?ids=\d+,\d+/);
  const figures = page.getByTestId("compare-figures");
  await expect(figures.getByRole("row", { name: /Requests/ })).toContainText("240");
  await expect(figures.getByRole("row", { name: /Knee load/ })).toContainText("no capacity analysis");
  await expect(page.getByTestId("compare-differences")).toContainText(/Latency p95: compare-after\.log is \d+% higher than compare-before\.log .*\(worse\)/);
  await expect(page.getByTestId("compare-traffic").locator("svg").first()).toBeVisible();
  await page.waitForTimeout(500); // let the charts settle for the screenshot
  await page.screenshot({ path: path.join(artifacts, "datasets-compare.png"), fullPage: true });

  await page.getByTestId("compare-align").getByRole("radio", { name: "By clock" }).click();
  await expect(page).toHaveURL(/align=clock/);
  await page.reload();
  await expect(page.getByTestId("compare-align").getByRole("radio", { name: "By clock" })).toHaveAttribute("aria-checked", "true");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(artifacts, "datasets-compare-390.png"), fullPage: true });
});
