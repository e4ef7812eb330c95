import { expect, test } from "@playwright/test";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");

test.setTimeout(240_000);

test("a run page exports the reference scenario's HPA with its note and a copy button", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page);
  await page.getByRole("link", { name: "Simulations", exact: true }).click();
  await page.getByRole("link", { name: "New simulation" }).first().click();
  await expect(page.getByTestId("scenario-yaml")).toContainText("university site");
  await page.getByLabel("Name", { exact: true }).fill("reference, exported");
  await page.getByTestId("field-duration_s").fill("600");
  await expect(page.getByTestId("scenario-verdict")).toHaveText(/Valid scenario/);
  await page.getByTestId("run-scenario").click();
  await expect(page.getByTestId("simulation-title")).toHaveText("reference, exported");

  await page.getByTestId("run-export-toggle").click();
  await expect(page.getByTestId("export-kind")).toHaveValue("hpa"); // the threshold policy's kind
  const content = page.getByTestId("export-content");
  await expect(content).toContainText("kind: HorizontalPodAutoscaler");
  // the reference scenario: VMs 1..100, band 0.4..0.8 -> 60%, 4 steps of 60 s, cooldown 40 s
  await expect(content).toContainText("minReplicas: 1");
  await expect(content).toContainText("maxReplicas: 100");
  await expect(content).toContainText("averageUtilization: 60");
  await expect(content).toContainText("stabilizationWindowSeconds: 240");
  await expect(page.getByTestId("export-note")).toContainText("between 1 and 100 pods");
  await page.getByTestId("export-copy").click();
  await expect(page.getByTestId("export-copy")).toHaveText("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await content.textContent());
  await page.getByTestId("run-export-card").screenshot({ path: path.join(artifacts, "export-hpa.png") });

  // a kind this scenario cannot give says why instead of half a file
  await page.getByTestId("export-kind").selectOption("keda");
  await expect(page.getByTestId("export-error")).toContainText("latency_slo");
  await expect(page.getByTestId("export-content")).toHaveCount(0);
});
