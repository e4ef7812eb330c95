/** The scenario document as plain JSON: reading and writing fields by path, YAML both ways. */
import { Document, isScalar, parseDocument, visit } from "yaml";
import { asApiError } from "../../api/errors";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Scenario = { [key: string]: Json };
export type Path = (string | number)[];

export function pathKey(path: Path): string {
  return path.map(String).join(".");
}

export function getPath(doc: Json | undefined, path: Path): Json | undefined {
  let node: Json | undefined = doc;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(key)] : node[String(key)];
  }
  return node;
}

/** A copy of `doc` with the field at `path` set (missing objects created); `undefined` removes it. */
export function setPath<T extends Json>(doc: T, path: Path, value: Json | undefined): T {
  const [head, ...rest] = path;
  if (head === undefined) return (value ?? null) as T;
  const inner = rest.length === 0 ? value : setPath(getPath(doc, [head]) ?? {}, rest, value);
  if (Array.isArray(doc)) {
    const copy = doc.slice();
    if (inner === undefined) copy.splice(Number(head), 1);
    else copy[Number(head)] = inner;
    return copy as T;
  }
  // Keys keep their place (the YAML view must not reorder as the form is edited).
  const entries = Object.entries(doc !== null && typeof doc === "object" ? doc : {});
  const replaced = entries.flatMap(([k, v]): [string, Json][] => (k !== String(head) ? [[k, v]] : inner === undefined ? [] : [[k, inner]]));
  const isNew = inner !== undefined && !entries.some(([k]) => k === String(head));
  return Object.fromEntries(isNew ? [...replaced, [String(head), inner]] : replaced) as T;
}

/** A scalar field as text (numbers and booleans too), or the fallback. */
export function textOf(value: unknown, fallback = ""): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return fallback;
}

/** "1, 2.5,4" -> [1, 2.5, 4]; null when a part is not a number. */
export function parseNumberList(text: string): number[] | null {
  const parts = text.split(/[,\s]+/).filter((p) => p !== "");
  const numbers = parts.map(Number);
  return numbers.every(Number.isFinite) ? numbers : null;
}

/** Block YAML, except lists of plain numbers ([t_s, rate_per_s] steps), which stay on one line each. */
export function toYaml(doc: Scenario): string {
  const yaml = new Document(doc);
  visit(yaml, {
    Seq(_, node) {
      if (node.items.length > 0 && node.items.every((item) => isScalar(item) && typeof item.value === "number")) node.flow = true;
    },
  });
  return yaml.toString({ flowCollectionPadding: false, lineWidth: 100 });
}

export type YamlParse = { ok: true; doc: Scenario } | { ok: false; message: string };

/** The text as a scenario mapping, or the first syntax error with its line. */
export function parseYaml(text: string): YamlParse {
  const parsed = parseDocument(text);
  const error = parsed.errors[0];
  if (error !== undefined) {
    // the first line of a pretty error ends "... at line L, column C:"
    return { ok: false, message: (error.message.split("\n")[0] ?? "").replace(/:$/, "") };
  }
  const value = parsed.toJS() as unknown;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, message: "the document must be a mapping (name: ..., duration_s: ..., workload: ...)" };
  }
  return { ok: true, doc: value as Scenario };
}

export interface FieldError {
  /** The offending field inside the scenario, e.g. "cluster.vms.max"; "" for the whole document. */
  path: string;
  message: string;
}

// Tags pydantic writes into an error path after a discriminated union (`service_s.uniform.high`).
const UNION_TAGS = new Set([
  ...["constant", "uniform", "exponential", "lognormal", "pareto", "empirical", "mixture"],
  ...["none", "threshold", "target_tracking", "step", "scheduled", "predictive", "latency_slo"],
]);

/** A server 422 as the field it names (the API prefixes scenario fields with "scenario."). */
export function fieldErrorOf(error: unknown): FieldError {
  const apiError = asApiError(error);
  const field = apiError.field ?? "";
  const inside = field === "scenario" ? "" : field.replace(/^scenario\./, "");
  const path = inside
    .split(".")
    .filter((part) => !UNION_TAGS.has(part))
    .join(".");
  const message = apiError.message.replace(/^scenario\.[^:]*:\s*/, "").replace(/^scenario:\s*/, "");
  return { path, message };
}

/** True when the error's field is `path` or inside it. */
export function errorAt(error: FieldError | null, path: Path): boolean {
  if (error === null) return false;
  const key = pathKey(path);
  return error.path === key || error.path.startsWith(`${key}.`);
}
