/**
 * Accessibility of every main page, in the light and the dark theme (the dark one follows the
 * system setting): axe-core's WCAG 2 A/AA rules with no serious or critical violation, and a
 * visible focus on every control the keyboard reaches. Screenshots of the dark theme:
 * e2e/artifacts/dark-<page>.png.
 */
import { expect, test, type Page } from "@playwright/test";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { seriousViolations, signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const artifacts = path.resolve(here, "../artifacts");

// the first ingest of a run may compile the parser (numba): minutes on a busy machine
test.setTimeout(900_000);

/** A small Combined log with response times (%D), its own bytes so the upload is new. */
function smallLog(): string {
  const start = Date.UTC(2026, 10, 2, 8, 0, 0);
  const month = "Nov";
  const lines = Array.from({ length: 600 }, (_, i) => {
    const at = new Date(start + i * 2_000);
    const stamp = `${String(at.getUTCDate()).padStart(2, "0")}/${month}/2026:${at.toISOString().slice(11, 19)} +0000`;
    const status = i % 37 === 0 ? 500 : i % 11 === 0 ? 404 : 200;
    const path = ["/", "/search", "/static/app.js", "/api/items"][i % 4];
    return `10.0.${i % 7}.${i % 50} - - [${stamp}] "GET ${path}?a11y=${i} HTTP/1.1" ${status} ${1000 + i} "-" "a11y-check" ${20_000 + (i % 13) * 3_000}`;
  });
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "headroom-a11y-")), "a11y-access.log");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

/** Tabs through the first controls of the page: each one focused shows an outline or a ring. */
async function focusIsVisible(page: Page, presses: number): Promise<string[]> {
  const unseen: string[] = [];
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("Tab");
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const ring = style.boxShadow !== "none" || (style.outlineStyle !== "none" && style.outlineWidth !== "0px");
      return { ring, name: `${el.tagName.toLowerCase()} "${(el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40)}"` };
    });
    if (focus && !focus.ring) unseen.push(focus.name);
  }
  return unseen;
}

const pages: { name: string; url: string; heading: RegExp }[] = [
  { name: "datasets", url: "/datasets", heading: /datasets/i },
  { name: "upload", url: "/upload", heading: /upload/i },
  { name: "simulations", url: "/simulations", heading: /simulations/i },
  { name: "scenario", url: "/simulations/new", heading: /scenario|simulation/i },
  { name: "reports", url: "/reports", heading: /reports/i },
  { name: "class-policies", url: "/policies/classes", heading: /polic|class/i },
  { name: "connections", url: "/policies/connections", heading: /connection/i },
  { name: "background", url: "/policies/background", heading: /background/i },
  { name: "virtual-queue", url: "/policies/virtual-queue", heading: /queue/i },
  { name: "team", url: "/settings/team", heading: /team|workspace/i },
];

test("every main page passes axe and shows its focus, light and dark", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: /upload/i }).first().click();
  await page.getByTestId("file-input").setInputFiles(smallLog());
  await expect(page.getByTestId("dataset-title")).toBeVisible({ timeout: 600_000 });
  const datasetUrl = new URL(page.url()).pathname;
  const all = [...pages, { name: "dataset", url: datasetUrl, heading: /a11y-access/ }];

  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const { name, url, heading } of all) {
      await page.goto(url);
      await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible({ timeout: 60_000 });
      await page.waitForLoadState("networkidle");
      for (const v of await seriousViolations(page)) found.push(`${scheme} ${name}: ${v}`);
      if (scheme === "dark") await page.screenshot({ path: path.join(artifacts, `dark-${name}.png`), fullPage: true });
    }
  }
  expect(found, found.join("\n")).toEqual([]);

  await page.emulateMedia({ colorScheme: "light" });
  const unseen: string[] = [];
  for (const url of ["/datasets", datasetUrl, "/simulations/new"]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    for (const name of await focusIsVisible(page, 25)) unseen.push(`${url}: ${name}`);
  }
  expect(unseen, unseen.join("\n")).toEqual([]);
});
