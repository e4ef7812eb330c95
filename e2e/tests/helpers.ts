/** Page helpers shared by the specs: sign-in, invitations (teams.spec.ts, reports.spec.ts), axe. */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const ownerEmail = process.env.E2E_EMAIL ?? "e2e@headroom.local";
export const ownerPassword = process.env.E2E_PASSWORD ?? "e2e-password";

export async function signIn(page: Page, email = ownerEmail, password = ownerPassword): Promise<void> {
  await page.goto("/");
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/password/i).fill(password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page.getByRole("link", { name: /upload/i }).first()).toBeVisible();
}

/** As a signed-in owner: invites `email` from the Team page; returns the single-use link. */
export async function invite(page: Page, email: string, role: "viewer" | "editor" | "owner"): Promise<string> {
  await page.goto("/settings/team");
  const form = page.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Create invitation link" }).click();
  const link = page.getByTestId("invitation-link");
  await expect(link).toContainText("/invite/");
  return (await link.textContent()) ?? "";
}

/** In a fresh (signed-out) page: opens an invitation link and joins with a new account. */
export async function acceptAsNewUser(page: Page, link: string, name: string, password: string): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel(/Choose a password/).fill(password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(/\/datasets$/);
}

/** axe's serious and critical violations of WCAG 2 A/AA on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).slice(0, 4).join(", ")}`);
}
