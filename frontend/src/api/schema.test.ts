// @vitest-environment node
/// <reference types="node" />
import { readFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";

const HEADER = /^\/\*\*[\s\S]*?\*\/\s*/;

describe("generated API types", () => {
  it("schema.d.ts is what `npm run gen:api` makes from openapi.json (run `make openapi`)", async () => {
    const spec = new URL("../../openapi.json", import.meta.url);
    const fresh = astToString(await openapiTS(spec));
    const committed = readFileSync(new URL("./schema.d.ts", import.meta.url), "utf8");
    expect(committed.replace(HEADER, "").trim()).toBe(fresh.replace(HEADER, "").trim());
  });
});
