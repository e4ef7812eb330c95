/**
 * Alerts: channels under Team settings (a Slack-compatible receiver and a signed webhook
 * whose receiver answers 500, both started here), rules on the dataset's Alerts tab, and
 * "Evaluate now": the error-rate rule fires (the elastic sample has 3 responses 500 in
 * 10,000: 0.03%, above 0.01%), the knee rule is not evaluated (no capacity analysis), the
 * Slack receiver gets the text, and the failing webhook shows its failure after the
 * worker's retries. Screenshots: e2e/artifacts/alerts-*.png at 1440x900 and 390x844.
 */
import { expect, test, type Page } from "@playwright/test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const elasticLog = path.resolve(here, "../../data/logs/apache_combined_elastic.log");

/** The sample with its first three lines moved to the end: the same requests, a new dataset. */
function elasticRotated(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-alerts-")), "elastic-alerts.log");
  const lines = readFileSync(elasticLog, "utf8").trimEnd().split("\n");
  writeFileSync(file, [...lines.slice(3), ...lines.slice(0, 3)].join("\n") + "\n");
  return file;
}

interface Receiver {
  url: string;
  bodies: string[];
  close: () => Promise<void>;
}

/** An HTTP receiver on a free port that records bodies and answers `status`. */
async function receiver(status: number): Promise<Receiver> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

/** Desktop and phone screenshots; at 390 px the alerts part stays within the screen (its
 * tables scroll inside their cards). */
async function shoot(page: Page, name: string, part: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const overflow = await page.getByTestId(part).evaluate((el) => {
    const wide = [el, ...Array.from(el.querySelectorAll("*"))].filter(
      (e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest("table"),
    );
    return wide.map((e) => `${e.tagName}.${e.className}`).slice(0, 5);
  });
  expect(overflow, "nothing of the alerts part past the right edge at 390 px").toEqual([]);
  await page.screenshot({ path: path.join(artifacts, `${name}-mobile.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

// the first ingest of a run may compile the parser (numba): minutes on a busy machine
test.setTimeout(480_000);

test("alerts: channels, rules, evaluate now, a sent and a failed delivery", async ({ page }) => {
  const chat = await receiver(200);
  const broken = await receiver(500);
  try {
    await signIn(page);
    await page.goto("/settings/team");
    const form = page.getByRole("form", { name: "Add an alert channel" });
    await form.getByLabel("Name").fill("Team chat");
    await form.getByLabel("Kind").selectOption("slack");
    await form.getByLabel("Webhook URL").fill(chat.url);
    await form.getByRole("button", { name: "Add channel" }).click();
    await expect(page.getByTestId("channels-table")).toContainText("Team chat");
    await form.getByLabel("Name").fill("Pager");
    await form.getByLabel("Kind").selectOption("webhook");
    await form.getByLabel("URL").fill(broken.url);
    await form.getByRole("button", { name: "Add channel" }).click();
    await expect(page.getByTestId("channel-secret")).toContainText("hws_");
    await form.getByLabel("Name").fill("bad");
    await form.getByLabel("Kind").selectOption("email");
    await form.getByLabel(/Addresses/).fill("not an address");
    await form.getByRole("button", { name: "Add channel" }).click();
    await expect(page.getByText("Could not add the channel")).toBeVisible();
    await expect(page.getByText("give one or more e-mail addresses, separated by commas")).toBeVisible();

    await page.getByRole("link", { name: /upload/i }).first().click();
    await page.getByTestId("file-input").setInputFiles(elasticRotated());
    await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 300_000 });
    await page.getByTestId("tab-alerts").click();
    await expect(page).toHaveURL(/tab=alerts/);
    const add = page.getByRole("form", { name: "Add an alert rule" });
    await add.getByLabel("Name").fill("Server errors");
    await add.getByLabel("Fires when").selectOption("error_rate_above");
    await add.getByLabel(/Error rate in %/).fill("0.01");
    await add.getByLabel(/Team chat/).check();
    await add.getByLabel(/Pager/).check();
    await add.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByTestId("alert-rules")).toContainText("Server errors");
    await add.getByLabel("Name").fill("Knee");
    await add.getByLabel("Fires when").selectOption("knee_below_baseline");
    await add.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByTestId("alert-rules")).toContainText("Knee lower than the baseline (the previous evaluation)");

    await page.getByRole("button", { name: "Evaluate now" }).click();
    const rules = page.getByTestId("alert-rules");
    await expect(rules).toContainText("5xx share 0.03% is above 0.01%");
    await expect(rules).toContainText("not evaluated: no capacity analysis");
    const history = page.getByTestId("alert-history");
    await expect(history).toContainText(/Team chat: sent/, { timeout: 60_000 });
    await expect(history).toContainText("Pager: failed after 3 tries: WebhookRefused: the receiver answered 500", {
      timeout: 90_000,
    });
    expect(chat.bodies).toHaveLength(1);
    expect(JSON.parse(chat.bodies[0] ?? "{}").text).toContain("Server errors fired on elastic-alerts.log");
    expect(broken.bodies).toHaveLength(3);
    await shoot(page, "alerts-dataset-tab", "alerts-tab");

    await page.goto("/settings/team");
    await expect(page.getByTestId("channels-table")).toContainText(/alert: failed after 3 tries/);
    await page.getByTestId("channels-card").scrollIntoViewIfNeeded();
    await shoot(page, "alerts-team-channels", "channels-card");
  } finally {
    await chat.close();
    await broken.close();
  }
});
