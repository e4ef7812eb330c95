import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { DatasetsPage } from "./DatasetsPage";

function stubEmpty() {
  vi.stubGlobal("fetch", vi.fn(() => Promise.resolve(jsonResponse(200, { items: [], total: 0 }))));
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("DatasetsPage", () => {
  it("offers an owner to upload a log", async () => {
    stubEmpty();
    renderWithApp(<DatasetsPage />);
    await screen.findByTestId("datasets-empty");
    expect(screen.getAllByRole("link", { name: "Upload a log" })).toHaveLength(2);
  });

  it("offers a viewer no upload, and says who uploads", async () => {
    stubEmpty();
    actAsViewer();
    renderWithApp(<DatasetsPage />);
    expect(await screen.findByTestId("datasets-empty")).toHaveTextContent("Editors of this workspace upload its logs");
    expect(screen.queryByRole("link", { name: "Upload a log" })).not.toBeInTheDocument();
  });
});
