import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");
const email = process.env.E2E_EMAIL ?? "e2e@headroom.local";
const password = process.env.E2E_PASSWORD ?? "e2e-password";

async function signIn(page: Page) {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(artifacts, `policies-${name}.png`), fullPage: true });
}

test("background harvesting: the real EPA day, four policies, then a bad CSV", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Policies" }).click();
  await expect(page.getByRole("heading", { name: "Headroom for background work" })).toBeVisible();
  await expect(page.getByTestId("background-empty")).toBeVisible();
  await expect(page.getByLabel("Demo series", { exact: true })).toHaveValue("epa_day");
  await page.getByRole("button", { name: "Compare policies" }).click();
  const advice = page.getByTestId("background-recommendation");
  await expect(advice).toContainText("Adaptive reservation gives background work", { timeout: 60_000 });
  // the engine's figures for this series (backend/tests/engine/background): 72% vs the 10% static cap
  await expect(advice).toContainText("72.4% of the machine (7.2× the static cap's 10%)");
  const table = page.getByTestId("policy-table");
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(page.getByTestId("tradeoff-chart")).toBeVisible();
  await expect(page.getByTestId("quota-chart")).toBeVisible();
  await shot(page, "background");

  await page.getByLabel("Your CSV").check();
  await page.getByLabel("or paste it").fill("t_s,busy_fraction\n0,0.5\n1,1.7\n");
  await page.getByRole("button", { name: "Compare policies" }).click();
  await expect(page.getByTestId("error-banner")).toContainText("line 3: busy_fraction 1.7 is outside [0, 1]");
  await shot(page, "background-error");
});

test("connections vs streams: the chart and the connection count follow the inputs", async ({ page }) => {
  await signIn(page);
  await page.goto("/policies/connections");
  await expect(page.getByRole("heading", { name: "Connections vs streams" })).toBeVisible();
  await expect(page.getByTestId("connections-chart")).toBeVisible();
  // 10 kB payloads, RTT 100 ms: HTTP/1.1 with 6 connections moves 6 x 10 kB / 0.1 s = 600 kB/s
  await expect(page.getByTestId("stat-h1")).toContainText("600 kB/s");
  await expect(page.getByTestId("stat-connections")).toContainText("6,000 vs 1,000");
  await shot(page, "connections");
  await page.getByLabel("HTTP/1.1 connections k").fill("0");
  await expect(page.getByText("at least 1 connection")).toBeVisible();
  await page.getByLabel("HTTP/1.1 connections k").fill("2");
  await expect(page.getByTestId("stat-connections")).toContainText("2,000 vs 1,000");
});
