import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeJob } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { actAsViewer } from "../workspaces/viewerTest";
import { RulesTab } from "./RulesTab";
import schema from "./rulesSchema.fixture.json";

const stored = {
  dataset_id: 3,
  rules: { request: { rules: [{ cls: "dynamic", has_query: true }], default: "static" }, user: { rules: [], default: "normal" } },
  is_default: true,
  updated_at: null,
  updated_by: null,
};

function stubApi(puts: unknown[]) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      if (path === "/api/v1/characterizations/rules/schema") return jsonResponse(200, schema);
      if (path === "/api/v1/datasets/3/rules" && request.method === "PUT") {
        const rules: unknown = await request.json();
        puts.push(rules);
        const characterization = { id: 9, dataset_id: 3, rules, job: makeJob({ id: 11, kind: "workload.characterize", status: "queued" }), result: null };
        return jsonResponse(200, { rules: { ...stored, rules, is_default: false, updated_at: "2026-11-22T06:00:00Z", updated_by: { id: 1, email: "a@b.c", name: "Ann" } }, characterization });
      }
      if (path === "/api/v1/datasets/3/rules") return jsonResponse(200, stored);
      if (path === "/api/v1/datasets/3/characterization") return jsonResponse(404, { error: { code: "not_found", message: "none yet" } });
      return jsonResponse(404, { error: { code: "not_found", message: `no stub for ${path}` } });
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("RulesTab", () => {
  it("refuses a rule without a class, naming the field, then saves the corrected rules", async () => {
    const puts: unknown[] = [];
    stubApi(puts);
    const user = userEvent.setup();
    renderWithApp(<RulesTab datasetId={3} />);
    const users = await screen.findByTestId("ruleset-user");
    await user.click(within(users).getByRole("button", { name: "Add a rule" }));
    await user.click(screen.getByTestId("save-rules"));
    expect(screen.getByTestId("rules-problems")).toHaveTextContent("user.rules.0.cls must not be empty");
    expect(puts).toEqual([]);

    const rule = screen.getByTestId("rule-user-0");
    await user.type(within(rule).getByLabelText("Rule 1: class"), "office");
    await user.type(within(rule).getByLabelText("Clients (address or CIDR)"), "10.0.0.0/8, 192.168.1.7");
    await user.click(screen.getByTestId("save-rules"));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      request: { rules: [{ cls: "dynamic", has_query: true }], default: "static" },
      user: { rules: [{ cls: "office", clients: ["10.0.0.0/8", "192.168.1.7"] }], default: "normal" },
    });
    expect(await screen.findByText(/Saved .* by Ann/)).toBeInTheDocument();
    expect(screen.queryByTestId("rules-problems")).not.toBeInTheDocument();
  });

  it("moves a rule down: order is what decides", async () => {
    const puts: unknown[] = [];
    stubApi(puts);
    const user = userEvent.setup();
    renderWithApp(<RulesTab datasetId={3} />);
    const requests = await screen.findByTestId("ruleset-request");
    await user.click(within(requests).getByRole("button", { name: "Add a rule" }));
    await user.type(within(screen.getByTestId("rule-request-1")).getByLabelText("Rule 2: class"), "api");
    await user.click(within(requests).getByRole("button", { name: "Move rule 1 down" }));
    await user.click(screen.getByTestId("save-rules"));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect((puts[0] as { request: { rules: { cls: string }[] } }).request.rules.map((r) => r.cls)).toEqual(["api", "dynamic"]);
  });

  it("is read only for a viewer: every field and button that would change the rules is disabled", async () => {
    actAsViewer();
    stubApi([]);
    renderWithApp(<RulesTab datasetId={3} />);
    expect(await screen.findByTestId("rules-read-only")).toBeInTheDocument();
    const requests = screen.getByTestId("ruleset-request");
    for (const name of ["Add a rule", "Remove rule 1", "Move rule 1 down"]) {
      expect(within(requests).getByRole("button", { name })).toBeDisabled();
    }
    expect(within(requests).getByLabelText("Rule 1: class")).toBeDisabled();
    expect(within(requests).getByLabelText("Otherwise (default class)")).toBeDisabled();
    expect(screen.getByTestId("save-rules")).toBeDisabled();
  });
});
