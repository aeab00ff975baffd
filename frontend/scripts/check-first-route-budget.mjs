// Fails the build when the first route's JavaScript is over budget (decision 0013, issue #13).
//
// The first route is what a cold load of any page downloads before the app can render: the entry
// script of dist/index.html and every module it imports statically (followed through the chunks'
// own `import` statements, and the `modulepreload` links Vite writes). Size = gzip bytes, as sent
// (the build's .gz copy, or gzip -9 for files too small to have one). Lazily loaded screens are not
// counted: they are the point of the budget.
//
//   node scripts/check-first-route-budget.mjs [DIST_DIR]      default dist; BUDGET_KB overrides 120
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dist = path.resolve(process.argv[2] ?? "dist");
const budgetKb = Number(process.env.BUDGET_KB ?? 120);
const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");

const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
if (entries.length === 0) throw new Error(`no module script in ${dist}/index.html`);

const files = new Set();
const visit = (url) => {
  const file = path.join(dist, url.replace(/^\//, ""));
  if (files.has(file)) return;
  files.add(file);
  const code = fs.readFileSync(file, "utf8");
  // Static imports only (`import x from"./a.js"`, `import"./a.js"`, `export * from"./a.js"`); `import("./b.js")` is lazy.
  for (const m of code.matchAll(/(?:\bimport|\bexport)\s*(?:[\w*{}\s,$]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    visit(path.posix.join(path.posix.dirname(url), m[1]));
  }
};
for (const url of [...entries, ...preloads]) visit(url);

const gzipSize = (file) => {
  const gz = `${file}.gz`;
  return fs.existsSync(gz) ? fs.statSync(gz).size : zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
};
const rows = [...files].map((file) => ({ file: path.relative(dist, file), bytes: gzipSize(file) })).sort((a, b) => b.bytes - a.bytes);
const total = rows.reduce((sum, row) => sum + row.bytes, 0);
const kb = (bytes) => (bytes / 1000).toFixed(1);

console.log(`First route JavaScript (gzip): ${kb(total)} KB of ${budgetKb} KB`);
for (const row of rows) console.log(`  ${kb(row.bytes).padStart(6)} KB  ${row.file}`);
if (total > budgetKb * 1000) {
  console.error(`\nOver budget by ${kb(total - budgetKb * 1000)} KB: load the new code lazily (see docs/decisions/0013-first-screen-budget.md).`);
  process.exit(1);
}
