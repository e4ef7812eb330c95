import { describe, expect, it } from "vitest";
import type { Rules } from "../../api/models";
import { emptyRule, fromDraft, problemAt, splitList, toDraft, validateAgainstSchema } from "./rulesEditor";
// The published schema (GET /characterizations/rules/schema); backend/tests/characterizations checks this copy is current.
import schema from "./rulesSchema.fixture.json";

const DEFAULTS: Rules = {
  request: {
    rules: [
      { cls: "dynamic", has_query: true },
      { cls: "dynamic", extensions: [".php", ".jsp"] },
      { cls: "dynamic", path_prefix: ["/api/"] },
      { cls: "static", extensions: [".png", ".css"] },
    ],
    default: "dynamic",
  },
  user: { rules: [{ cls: "office", clients: ["10.0.0.0/8"], users: ["alice"] }], default: "normal" },
};

describe("rules form", () => {
  it("round-trips a rules document through the form", () => {
    expect(fromDraft(toDraft(DEFAULTS))).toEqual(DEFAULTS);
  });

  it("splits lists on commas and spaces, and drops blank conditions", () => {
    expect(splitList(" /a/, /b  /c ")).toEqual(["/a/", "/b", "/c"]);
    expect(splitList(" , ")).toBeNull();
    const rule = { ...emptyRule(), cls: " bots ", methods: "GET", has_query: "no" as const };
    expect(fromDraft({ request: { rules: [rule], default: "x" }, user: { rules: [], default: "y" } }).request.rules).toEqual([
      { cls: "bots", has_query: false, methods: ["GET"] },
    ]);
  });
});

describe("validation against the rules JSON Schema", () => {
  it("accepts the defaults and a user rule set", () => {
    expect(validateAgainstSchema(schema, DEFAULTS)).toEqual([]);
  });

  it("names the field of an empty class, an empty default and an unknown key", () => {
    const bad = {
      request: { rules: [{ cls: "" }], default: "" },
      user: { rules: [{ cls: "x", surprise: 1 }], default: "normal" },
    };
    const problems = validateAgainstSchema(schema, bad);
    expect(problems).toEqual([
      { path: "request.rules.0.cls", message: "must not be empty" },
      { path: "request.default", message: "must not be empty" },
      { path: "user.rules.0.surprise", message: "is not allowed" },
    ]);
    expect(problemAt(problems, "request.rules.0.cls")).toBe("must not be empty");
    expect(problemAt(problems, "user.default")).toBeNull();
  });

  it("names missing and wrongly typed fields", () => {
    const problems = validateAgainstSchema(schema, { request: { rules: [{ cls: "a", methods: "GET" }] } });
    expect(problems).toEqual([
      { path: "user", message: "is required" },
      { path: "request.default", message: "is required" },
      { path: "request.rules.0.methods", message: "has the wrong type" },
    ]);
  });
});
