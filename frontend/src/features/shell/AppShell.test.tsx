import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { user } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { AppShell } from "./AppShell";

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function navLinks(): string[] {
  return within(screen.getByRole("navigation", { name: "Main" }))
    .getAllByRole("link")
    .map((a) => a.textContent);
}

describe("AppShell navigation", () => {
  it("shows Upload to an owner", () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(404, {}))));
    renderWithApp(<AppShell user={user} />);
    expect(navLinks()).toContain("Upload");
  });

  it("hides Upload from a viewer of the current workspace", () => {
    vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(404, {}))));
    actAsViewer();
    renderWithApp(<AppShell user={user} />);
    expect(navLinks()).toEqual(["Datasets", "Sources", "Simulations", "Reports", "Policies", "Team"]);
  });
});
