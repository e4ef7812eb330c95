import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { acceptAsNewUser, invite, signIn } from "./helpers";

const here = path.dirname(fileURLToPath(import.meta.url));
const sampleLog = path.resolve(here, "../../data/logs/apache_combined_elastic.log");
const artifacts = path.resolve(here, "../artifacts");

test("an owner invites a teammate, who joins from a second browser and sees the datasets", async ({ browser, page }) => {
  await signIn(page);
  const name = `teams-shared-${Date.now()}.log`;
  const uploaded = await page.request.post(`/api/v1/datasets?name=${name}`, {
    // its own bytes: uploads dedupe by content, and upload.spec.ts uploads the whole sample
    data: readFileSync(sampleLog).toString().split("\n").slice(0, 2000).join("\n") + "\n",
    headers: { "Content-Type": "application/octet-stream" },
  });
  expect(uploaded.status()).toBe(201);

  const email = `teammate-${Date.now()}@example.com`;
  const link = await invite(page, email, "viewer");
  await expect(page.getByTestId("invitations-table")).toContainText(email);
  await page.screenshot({ path: path.join(artifacts, "teams-owner.png"), fullPage: true });

  const second = await browser.newContext();
  const teammate = await second.newPage();
  await acceptAsNewUser(teammate, link, "Tea Mate", "a long teammate password");
  await expect(teammate.getByText(name)).toBeVisible({ timeout: 60_000 });
  await teammate.screenshot({ path: path.join(artifacts, "teams-invitee.png"), fullPage: true });

  await teammate.goto("/settings/team");
  await expect(teammate.getByText("You are viewer of this workspace.")).toBeVisible();
  await expect(teammate.getByTestId("invitations-card")).toHaveCount(0); // owners only
  await teammate.goto(link); // single use
  await expect(teammate.getByText("This invitation link is not valid").first()).toBeVisible();
  await second.close();

  await page.reload();
  await expect(page.getByTestId("members-table")).toContainText(email);
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("viewer");
  await page.screenshot({ path: path.join(artifacts, "teams-members.png"), fullPage: true });
});
