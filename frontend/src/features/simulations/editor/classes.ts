/** Request classes of a scenario (`workload.classes`): add, remove and rename them as whole-document
 * edits, so the form and the YAML view stay one document. */
import { getPath, textOf, type Json, type Scenario } from "../scenarioDoc";

type Obj = { [key: string]: Json };

const isObj = (v: Json | undefined): v is Obj => v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);

/** The scenario's classes, or null when its workload is written inline (one class). */
export function classesOf(doc: Scenario): Obj[] | null {
  const classes = getPath(doc, ["workload", "classes"]);
  return Array.isArray(classes) ? classes.filter(isObj) : null;
}

/** Whether the classes split the workload's own arrivals by `share`. */
export function sharedArrivals(doc: Scenario): boolean {
  return classesOf(doc) !== null && isObj(getPath(doc, ["workload", "arrivals"]));
}

export function uniqueName(taken: string[], base = "class"): string {
  for (let i = taken.length + 1; ; i += 1) {
    const name = `${base} ${i}`;
    if (!taken.includes(name)) return name;
  }
}

function workloadOf(doc: Scenario): Obj {
  const workload = doc.workload;
  return isObj(workload) ? workload : {};
}

function withWorkload(doc: Scenario, workload: Obj): Scenario {
  return { ...doc, workload };
}

/** A new class: its own constant-rate arrivals (or, when the classes share the workload's
 * arrivals, a share of 0 to be set) and an exponential service time. */
export function newClass(taken: string[], shared: boolean): Obj {
  const arrivals: Obj = shared ? { share: 0 } : { arrivals: { rate_per_s: 1 } };
  return { name: uniqueName(taken), ...arrivals, service_s: { dist: "exponential", mean: 0.1 } };
}

/** The inline workload as the first of two classes ("default", as the engine names it). */
export function splitIntoClasses(doc: Scenario): Scenario {
  const { arrivals, page, service_s, ...rest } = workloadOf(doc);
  const first: Obj = { name: "default" };
  if (arrivals !== undefined) first.arrivals = arrivals;
  if (page !== undefined) first.page = page;
  if (service_s !== undefined) first.service_s = service_s;
  return withWorkload(doc, { ...rest, classes: [first, newClass(["default"], false)] });
}

export function addClass(doc: Scenario): Scenario {
  const classes = classesOf(doc);
  if (classes === null) return splitIntoClasses(doc);
  const names = classes.map((c) => textOf(c.name));
  return withWorkload(doc, { ...workloadOf(doc), classes: [...classes, newClass(names, sharedArrivals(doc))] });
}

/** Removes class `index` (never the last one) and its admission hardness, if any. */
export function removeClass(doc: Scenario, index: number): Scenario {
  const classes = classesOf(doc);
  if (classes === null || classes.length <= 1 || index < 0 || index >= classes.length) return doc;
  const name = textOf(classes[index]?.name);
  const next = withWorkload(doc, { ...workloadOf(doc), classes: classes.filter((_, i) => i !== index) });
  return editHardness(next, (hardness) => Object.fromEntries(Object.entries(hardness).filter(([key]) => key !== name)));
}

/** Renames class `index`; the admission hardness keyed by its old name follows it. */
export function renameClass(doc: Scenario, index: number, name: string): Scenario {
  const classes = classesOf(doc);
  const target = classes?.[index];
  if (classes === null || target === undefined) return doc;
  const old = textOf(target.name);
  const renamed = classes.map((c, i) => (i === index ? { ...c, name } : c));
  const next = withWorkload(doc, { ...workloadOf(doc), classes: renamed });
  return editHardness(next, (hardness) => {
    if (!(old in hardness) || old === name) return hardness;
    const { [old]: value, ...kept } = hardness;
    return value === undefined ? kept : { ...kept, [name]: value };
  });
}

function editHardness(doc: Scenario, edit: (hardness: Obj) => Obj): Scenario {
  const admission = doc.admission;
  if (!isObj(admission) || !isObj(admission.hardness)) return doc;
  return { ...doc, admission: { ...admission, hardness: edit(admission.hardness) } };
}
