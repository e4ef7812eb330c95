import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDataset } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { UnavailableDatasets } from "./UnavailableDatasets";
import { useScenarioChoices } from "./usePolicyRuns";

const preset = { id: "dataset-1", name: "shop", description: "from shop", scenario: { name: "shop" }, sweep: null };

function stubApi() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/datasets") {
        const items = [makeDataset({ id: 1, name: "shop", status: "ready" }), makeDataset({ id: 2, name: "no-latency", status: "ready" })];
        return jsonResponse(200, { items, total: 2 });
      }
      if (path === "/api/v1/simulations/presets") return jsonResponse(200, []);
      if (path === "/api/v1/simulations/scenarios") return jsonResponse(200, { items: [], total: 0 });
      if (path === "/api/v1/simulations/presets/datasets/1") return jsonResponse(200, preset);
      if (path === "/api/v1/simulations/presets/datasets/2") {
        return jsonResponse(422, { error: { code: "unusable_data", message: "the log has no response times" } });
      }
      return jsonResponse(404, { error: { code: "not_found", message: path } });
    }),
  );
}

function Choices() {
  const { choices, unavailable } = useScenarioChoices("class-policies");
  return (
    <div>
      <ul>
        {choices.map((c) => (
          <li key={c.key}>{c.label}</li>
        ))}
      </ul>
      <UnavailableDatasets items={unavailable} />
    </div>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("useScenarioChoices", () => {
  it("offers each dataset's scenario, and names the datasets it could not build one from, with the reason", async () => {
    stubApi();
    renderWithApp(<Choices />);
    expect(await screen.findByText("Dataset: shop")).toBeInTheDocument();
    expect(await screen.findByTestId("unavailable-datasets")).toHaveTextContent("no-latency: the log has no response times");
  });
});
