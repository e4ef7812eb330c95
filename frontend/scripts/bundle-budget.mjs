// What the first page (/datasets) downloads, gzipped, from the build's manifest; fails the
// build above the budget. Usage: node scripts/bundle-budget.mjs [dist folder]
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 250;
const FIRST_PAGE = "src/features/datasets/DatasetsPage.tsx";
const dist = process.argv[2] ?? "dist";
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite", "manifest.json"), "utf8"));

function collect(key, files) {
  const chunk = manifest[key];
  if (chunk === undefined || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(imported, files);
}

const files = new Set();
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) collect(key, files);
collect(FIRST_PAGE, files);
let totalKb = 0;
for (const file of [...files].sort()) {
  const kb = gzipSync(readFileSync(path.join(dist, file))).length / 1024;
  totalKb += kb;
  console.log(`  ${kb.toFixed(1).padStart(7)} kB  ${file}`);
}
console.log(`first page (${FIRST_PAGE}): ${totalKb.toFixed(1)} kB gzipped, budget ${BUDGET_KB} kB`);
if (totalKb > BUDGET_KB) {
  console.error("over budget: load the code that page does not need from its own route chunk");
  process.exit(1);
}
