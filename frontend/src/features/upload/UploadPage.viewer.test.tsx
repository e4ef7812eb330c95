import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { UploadPage } from "./UploadPage";

afterEach(() => window.localStorage.clear());

describe("UploadPage for viewers", () => {
  it("explains that viewers cannot upload instead of offering the drop zone", () => {
    actAsViewer();
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    expect(screen.getByTestId("upload-viewer")).toHaveTextContent("You are a viewer of Team B: ask one of its owners for the editor role");
    expect(screen.queryByTestId("file-input")).not.toBeInTheDocument();
  });

  it("offers the drop zone to an owner", () => {
    renderWithApp(<UploadPage />, { path: "/upload", route: "/upload" });
    expect(screen.getByTestId("file-input")).toBeInTheDocument();
    expect(screen.queryByTestId("upload-viewer")).not.toBeInTheDocument();
  });
});
