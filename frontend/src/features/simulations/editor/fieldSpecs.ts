/** Form fields read from the published JSON Schema of the scenario: kind, bounds, default, unit, label. */

export type SchemaNode = Record<string, unknown>;

export interface FieldSpec {
  name: string;
  label: string;
  unit: string;
  kind: "number" | "integer" | "enum" | "boolean" | "numbers" | "tuples" | "object" | "objects";
  options: string[];
  /** Constraints, for the input and for the check before the server's. */
  min?: number;
  max?: number;
  exclusiveMin?: boolean;
  exclusiveMax?: boolean;
  nullable: boolean;
  required: boolean;
  defaultValue: unknown;
  /** What an empty input means when the default is null (e.g. "unbounded"). */
  blank?: string;
  /** Nested object fields, the columns of a list of tuples, or the fields of each item of a list of objects. */
  children: FieldSpec[];
}

const LABELS: Record<string, string> = {
  duration_s: "Duration",
  boot_s: "Boot time",
  price_per_vm_hour: "Price",
  pool_limit: "Pool limit",
  accept_queue: "Accept queue bound",
  monitor_s: "Monitoring interval",
  step_s: "Time step",
  time_steps: "Time steps averaged",
  cooldown_s: "Cooldown",
  step_size: "Step size",
  lower: "Lower threshold",
  upper: "Upper threshold",
  threshold_s: "Latency threshold",
  window_s: "Window",
  stabilization_s: "Scale-in stabilisation",
  season_s: "Season",
  horizon_s: "Forecast horizon",
  target_utilization: "Target utilisation",
  scale_in_below: "Scale in below (of threshold)",
  q_upper: "Concurrency Q upper",
  factor: "Speed factor past Q upper",
  overhead: "Overhead (descending stage)",
  per: "Dispatch unit",
  vms: "VMs",
  sct_interval_s: "SCT interval",
  sct_window_s: "SCT window",
  sct_min_intervals: "Intervals per concurrency level",
  tiers: "Tiers",
};

/** The meaning of an empty input for nullable fields whose default is null. */
const BLANKS: Record<string, string> = {
  pool_limit: "unbounded",
  accept_queue: "unbounded",
};

const UNITS: Record<string, string> = {
  price_per_vm_hour: "per VM-hour",
  percentile: "%",
  cores: "cores",
  speed: "×",
  pool_limit: "requests",
  accept_queue: "requests",
  time_steps: "steps",
  step_size: "VMs",
  q_upper: "requests",
  factor: "× per request",
  sct_min_intervals: "intervals",
  lower: "0–1",
  upper: "0–1",
  target: "0–1",
  tolerance: "0–1",
  target_utilization: "0–1",
  scale_in_below: "0–1",
  min: "VMs",
  max: "VMs",
  start: "VMs",
};

export function humanize(name: string): string {
  const words = name.replace(/_s$/, "").replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function unitOf(name: string): string {
  return UNITS[name] ?? (name.endsWith("_s") ? "s" : "");
}

export function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  const name = ref.replace("#/$defs/", "");
  const defs = (root.$defs ?? {}) as Record<string, SchemaNode>;
  return { ...(defs[name] ?? {}), ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref")) };
}

/** The non-null branch of `anyOf: [X, {type: null}]`, and whether null was allowed. */
function unwrapNullable(root: SchemaNode, node: SchemaNode): { node: SchemaNode; nullable: boolean } {
  const any = node.anyOf;
  if (!Array.isArray(any)) return { node: resolve(root, node), nullable: false };
  const branches = (any as SchemaNode[]).filter((b) => b.type !== "null");
  const first = branches[0] ?? {};
  return { node: { ...resolve(root, first), default: node.default }, nullable: branches.length < any.length };
}

function kindOf(node: SchemaNode): FieldSpec["kind"] | null {
  if (Array.isArray(node.enum)) return "enum";
  if (node.type === "number") return "number";
  if (node.type === "integer") return "integer";
  if (node.type === "boolean") return "boolean";
  if (node.type === "object" || node.properties !== undefined) return "object";
  if (node.type === "array") {
    const items = (node.items ?? {}) as SchemaNode;
    if (Array.isArray(items.prefixItems)) return "tuples";
    if (items.type === "number" || items.type === "integer") return "numbers";
    if (items.type === "object" || items.properties !== undefined || typeof items.$ref === "string") return "objects";
  }
  return null;
}

function numeric(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

export function fieldSpec(root: SchemaNode, name: string, raw: SchemaNode, required: boolean): FieldSpec | null {
  const { node, nullable } = unwrapNullable(root, raw);
  const kind = kindOf(node);
  if (kind === null) return null;
  const spec: FieldSpec = {
    name,
    label: LABELS[name] ?? humanize(name),
    unit: unitOf(name),
    kind,
    options: Array.isArray(node.enum) ? (node.enum as unknown[]).map(String) : [],
    min: numeric(node.exclusiveMinimum) ?? numeric(node.minimum),
    max: numeric(node.exclusiveMaximum) ?? numeric(node.maximum),
    exclusiveMin: node.exclusiveMinimum !== undefined,
    exclusiveMax: node.exclusiveMaximum !== undefined,
    nullable,
    required,
    defaultValue: node.default,
    ...(BLANKS[name] !== undefined && nullable ? { blank: BLANKS[name] } : {}),
    children: [],
  };
  if (kind === "object") spec.children = objectFields(root, node);
  if (kind === "objects") {
    spec.children = objectFields(root, node.items as SchemaNode);
    spec.min = numeric(node.minItems);
    spec.max = numeric(node.maxItems);
  }
  if (kind === "tuples") {
    const columns = ((node.items as SchemaNode).prefixItems ?? []) as SchemaNode[];
    spec.children = columns.flatMap((c, i) => fieldSpec(root, `${name}[${i}]`, c, true) ?? []);
  }
  return spec;
}

/** Every editable property of an object node, in schema order; `const` tags (e.g. `policy`) are left out. */
export function objectFields(root: SchemaNode, node: SchemaNode): FieldSpec[] {
  const resolved = resolve(root, node);
  const props = (resolved.properties ?? {}) as Record<string, SchemaNode>;
  const required = new Set((resolved.required ?? []) as string[]);
  return Object.entries(props)
    .filter(([, p]) => p.const === undefined)
    .flatMap(([name, p]) => fieldSpec(root, name, p, required.has(name)) ?? []);
}

/** The schema node `$defs/<name>`. */
export function def(root: SchemaNode, name: string): SchemaNode {
  return ((root.$defs ?? {}) as Record<string, SchemaNode>)[name] ?? {};
}

/** The problem with a number for this field, or null: the schema's bounds in words. */
export function numberProblem(spec: FieldSpec, value: number | null): string | null {
  if (value === null) return spec.required && !spec.nullable ? "required" : null;
  if (!Number.isFinite(value)) return "not a number";
  if (spec.kind === "integer" && !Number.isInteger(value)) return "a whole number";
  if (spec.min !== undefined && (spec.exclusiveMin === true ? value <= spec.min : value < spec.min)) {
    return `must be ${spec.exclusiveMin === true ? ">" : "≥"} ${spec.min}`;
  }
  if (spec.max !== undefined && (spec.exclusiveMax === true ? value >= spec.max : value > spec.max)) {
    return `must be ${spec.exclusiveMax === true ? "<" : "≤"} ${spec.max}`;
  }
  return null;
}

/** Column names and units of the lists of tuples (the schema only knows their types). */
export const TUPLE_COLUMNS: Record<string, { label: string; unit: string }[]> = {
  profile: [
    { label: "From", unit: "s" },
    { label: "Rate", unit: "per s" },
  ],
  bands: [
    { label: "Utilisation from", unit: "0–1" },
    { label: "to", unit: "0–1" },
    { label: "Change", unit: "VMs" },
  ],
  schedule: [
    { label: "From", unit: "s" },
    { label: "VMs", unit: "VMs" },
  ],
};

/** A value that satisfies a required field's bounds, used when the user switches a section on. */
export function starterValue(spec: FieldSpec): number {
  if (typeof spec.defaultValue === "number") return spec.defaultValue;
  if (spec.max !== undefined) return spec.max;
  return Math.max(1, spec.min ?? 1);
}
