/** The rules editor's form model, its conversion to a Rules document, and validation of that
 * document against the published rules JSON Schema (the subset pydantic writes). */
import type { Rule, Rules, RuleSet } from "../../api/models";

export const LIST_FIELDS = ["path_prefix", "extensions", "methods", "clients", "users", "field_present"] as const;
export type ListField = (typeof LIST_FIELDS)[number];

export type RuleDraft = { cls: string; has_query: "any" | "yes" | "no" } & Record<ListField, string>;

export interface RuleSetDraft {
  rules: RuleDraft[];
  default: string;
}

export interface RulesDraft {
  request: RuleSetDraft;
  user: RuleSetDraft;
}

export function emptyRule(): RuleDraft {
  return { cls: "", has_query: "any", path_prefix: "", extensions: "", methods: "", clients: "", users: "", field_present: "" };
}

function toDraftRule(rule: Rule): RuleDraft {
  const draft = emptyRule();
  draft.cls = rule.cls;
  draft.has_query = rule.has_query === true ? "yes" : rule.has_query === false ? "no" : "any";
  for (const f of LIST_FIELDS) draft[f] = (rule[f] ?? []).join(", ");
  return draft;
}

export function toDraft(rules: Rules): RulesDraft {
  const set = (s: RuleSet): RuleSetDraft => ({ rules: s.rules.map(toDraftRule), default: s.default });
  return { request: set(rules.request), user: set(rules.user) };
}

/** "a, b  c" -> ["a", "b", "c"]; blank -> null (the condition is not used). */
export function splitList(text: string): string[] | null {
  const items = text.split(/[\s,]+/).filter((s) => s !== "");
  return items.length > 0 ? items : null;
}

function fromDraftRule(d: RuleDraft): Rule {
  const rule: Rule = { cls: d.cls.trim() };
  if (d.has_query !== "any") rule.has_query = d.has_query === "yes";
  for (const f of LIST_FIELDS) {
    const items = splitList(d[f]);
    if (items !== null) rule[f] = items;
  }
  return rule;
}

export function fromDraft(draft: RulesDraft): Rules {
  const set = (s: RuleSetDraft): RuleSet => ({ rules: s.rules.map(fromDraftRule), default: s.default.trim() });
  return { request: set(draft.request), user: set(draft.user) };
}

export interface SchemaProblem {
  /** Dotted path of the offending field, as the API names it (e.g. "request.rules.0.cls"). */
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/$defs/", "");
  const defs = (root.$defs ?? {}) as Record<string, Schema>;
  return resolve(defs[name] ?? {}, root);
}

function typeOk(type: unknown, value: unknown): boolean {
  if (type === undefined) return true;
  if (type === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
  if (type === "array") return Array.isArray(value);
  if (type === "null") return value === null;
  return typeof value === type;
}

/** Problems of `value` under a JSON Schema using $ref/$defs, type, anyOf, properties, required,
 * additionalProperties: false, items and minLength; empty when valid. */
export function validateAgainstSchema(schemaIn: Schema, value: unknown, root: Schema = schemaIn, path = ""): SchemaProblem[] {
  const schema = resolve(schemaIn, root);
  const here = (message: string): SchemaProblem[] => [{ path: path || "(document)", message }];
  if (Array.isArray(schema.anyOf)) {
    const ok = (schema.anyOf as Schema[]).some((s) => validateAgainstSchema(s, value, root, path).length === 0);
    return ok ? [] : here("has the wrong type");
  }
  if (!typeOk(schema.type, value)) return here(`must be ${String(schema.type)}`);
  if (typeof value === "string" && typeof schema.minLength === "number" && value.length < schema.minLength) {
    return here("must not be empty");
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    return value.flatMap((v, i) => validateAgainstSchema(schema.items as Schema, v, root, join(path, String(i))));
  }
  if (schema.type === "object") return objectProblems(schema, value as Record<string, unknown>, root, path);
  return [];
}

function join(path: string, key: string): string {
  return path === "" ? key : `${path}.${key}`;
}

function objectProblems(schema: Schema, obj: Record<string, unknown>, root: Schema, path: string): SchemaProblem[] {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const problems: SchemaProblem[] = required
    .filter((k) => !(k in obj))
    .map((k) => ({ path: join(path, k), message: "is required" }));
  for (const [k, v] of Object.entries(obj)) {
    const sub = props[k];
    if (sub === undefined) {
      if (schema.additionalProperties === false) problems.push({ path: join(path, k), message: "is not allowed" });
      continue;
    }
    problems.push(...validateAgainstSchema(sub, v, root, join(path, k)));
  }
  return problems;
}

/** The problem of one field of one rule (or of a set's default), for showing it beside the input. */
export function problemAt(problems: SchemaProblem[], path: string): string | null {
  const hit = problems.find((p) => p.path === path || p.path.startsWith(`${path}.`));
  return hit === undefined ? null : hit.message;
}
