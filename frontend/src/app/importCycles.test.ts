// @vitest-environment node
/// <reference types="node" />
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * No module of the UI imports itself back through others (type-only imports included:
 * they tie the modules' shapes together just the same). Relative imports and lazy
 * `import()`s are followed; packages are not.
 */

type Graph = Map<string, string[]>;

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']/g;
const LAZY = /import\(\s*["'](\.[^"']+)["']\s*\)/g;

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function resolved(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

function importGraph(folder: string): Graph {
  return new Map(
    sources(folder).map((file) => {
      const text = readFileSync(file, "utf8");
      const specifiers = [...text.matchAll(IMPORT), ...text.matchAll(LAZY)].map((m) => m[1] ?? "");
      const targets = specifiers.map((s) => resolved(file, s)).filter((t): t is string => t !== undefined);
      return [file, targets];
    }),
  );
}

/** The strongly connected components of more than one module (Tarjan's algorithm). */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module) ?? 0);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === module) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

describe("import cycles", () => {
  it("the finder finds a cycle and nothing else", () => {
    const graph: Graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
  });

  it("no module of src/ imports itself back", () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(100);
    const named = cycles(graph).map((component) => component.map((path) => relative(SRC, path)));
    expect(named).toEqual([]);
  });
});
