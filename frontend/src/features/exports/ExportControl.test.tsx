import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withClient } from "../../test/capacityFixtures";
import { jsonResponse } from "../../test/render";
import { ExportControl } from "./ExportControl";
import { CAPACITY_KINDS, SCENARIO_KINDS, scenarioKind } from "./api";

afterEach(() => vi.unstubAllGlobals());

function stubExports(): string[] {
  const asked: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      asked.push(url.pathname + url.search);
      const kind = url.pathname.split("/").pop() ?? "";
      if (kind === "keda") return jsonResponse(422, { error: { code: "unsupported_export", message: "keda: exported for latency_slo policies" } });
      return jsonResponse(200, { kind, content: `${kind}: file\n`, media_type: "application/yaml", filename: `web-${kind}.yaml`, note: `Sets ${kind}.` });
    }),
  );
  return asked;
}

describe("ExportControl", () => {
  it("opens on the initial kind, shows the file and its note, copies it and follows the picker", async () => {
    const asked = stubExports();
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    render(withClient(<ExportControl source={{ kind: "simulation", id: 4 }} kinds={SCENARIO_KINDS} initialKind="hpa" />));
    expect(screen.queryByTestId("export-panel")).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId("export-toggle"));
    expect(await screen.findByTestId("export-content")).toHaveTextContent("hpa: file");
    expect(screen.getByTestId("export-note")).toHaveTextContent("What this sets: Sets hpa.");
    expect(asked[0]).toBe("/api/v1/simulations/4/export/hpa?format=sloth");
    fireEvent.click(screen.getByTestId("export-copy"));
    expect(writeText).toHaveBeenCalledWith("hpa: file\n");
    fireEvent.change(screen.getByTestId("export-kind"), { target: { value: "aws" } });
    expect(await screen.findByText("aws: file")).toBeInTheDocument();
  });

  it("says why a kind is refused, and asks for the request class of an analysis", async () => {
    const asked = stubExports();
    render(withClient(<ExportControl source={{ kind: "analysis", id: 9, serviceClass: "dynamic" }} kinds={CAPACITY_KINDS} initialKind="keda" />));
    fireEvent.click(screen.getByTestId("export-toggle"));
    expect(await screen.findByTestId("export-error")).toHaveTextContent("keda: exported for latency_slo policies");
    expect(screen.queryByTestId("export-copy")).not.toBeInTheDocument();
    expect(asked[0]).toBe("/api/v1/analyses/9/export/keda?format=sloth&service_class=dynamic");
  });

  it("starts a scenario on the kind its policy exports as", () => {
    expect(scenarioKind("threshold")).toBe("hpa");
    expect(scenarioKind("latency_slo")).toBe("keda");
    expect(scenarioKind("step")).toBe("aws");
  });
});
