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
  expect(uploaded.status()).toBe(202);

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

test("a viewer sees no write actions and leaves the workspace; the last owner cannot leave", async ({ browser, page }) => {
  await signIn(page);
  const me = (await (await page.request.get("/api/v1/auth/me")).json()) as { workspaces: { id: number }[] };
  const email = `viewer-${Date.now()}@example.com`;
  const invited = await page.request.post(`/api/v1/workspaces/${me.workspaces[0]?.id ?? 0}/invitations`, { data: { email, role: "viewer" } });
  expect(invited.ok()).toBeTruthy();
  const token = /[^/]+$/.exec(((await invited.json()) as { url: string }).url)?.[0] ?? "";

  const second = await browser.newContext();
  const viewer = await second.newPage();
  const accepted = await viewer.request.post(`/api/v1/invitations/${token}/accept`, { data: { password: "a long viewer password", name: "Vi Ewer" } });
  expect(accepted.ok()).toBeTruthy();
  await viewer.goto("/datasets");
  const nav = viewer.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Datasets" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Upload" })).toHaveCount(0);
  await expect(viewer.getByRole("link", { name: "Upload a log" })).toHaveCount(0);
  await viewer.screenshot({ path: path.join(artifacts, "teams-viewer-datasets.png") });
  await viewer.goto("/upload");
  await expect(viewer.getByTestId("upload-viewer")).toContainText("Viewers cannot upload");
  await expect(viewer.getByTestId("file-input")).toHaveCount(0);
  await viewer.screenshot({ path: path.join(artifacts, "teams-viewer-upload.png") });
  await viewer.goto("/reports");
  await expect(viewer.getByRole("button", { name: "Create report" })).toHaveCount(0);

  await viewer.goto("/settings/team");
  viewer.on("dialog", (dialog) => void dialog.accept());
  await viewer.getByTestId("leave-workspace").click();
  await expect(viewer).toHaveURL(/\/datasets$/);
  // another API process may answer from its sign-in cache for up to 5 s (docs/api.md)
  await expect
    .poll(async () => ((await (await viewer.request.get("/api/v1/auth/me")).json()) as { workspaces: unknown[] }).workspaces, { timeout: 15_000 })
    .toEqual([]);
  await second.close();

  await page.goto("/settings/team");
  await expect(page.getByTestId("members-table")).not.toContainText(email);
  await expect(page.getByTestId("leave-last-owner")).toContainText("make another member owner before leaving");
  await expect(page.getByTestId("leave-workspace")).toBeDisabled();
  await page.screenshot({ path: path.join(artifacts, "teams-leave-last-owner.png"), fullPage: true });
});
