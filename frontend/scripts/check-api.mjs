// Fails when src/api/schema.d.ts differs from what openapi-typescript generates
// from the backend's OpenAPI document (../backend/openapi.json).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const spec = resolve(root, process.env.OPENAPI_SPEC ?? "../backend/openapi.json");
const current = resolve(root, "src/api/schema.d.ts");
const bin = resolve(root, "node_modules/.bin/openapi-typescript");

if (!existsSync(spec)) {
  console.error(`OpenAPI document not found: ${spec}`);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), "check-api-"));
const generated = join(dir, "schema.d.ts");
try {
  execFileSync(bin, [spec, "-o", generated], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const a = readFileSync(generated, "utf8");
  const b = existsSync(current) ? readFileSync(current, "utf8") : "";
  if (a !== b) {
    console.error("API types drifted: run npm run gen:api");
    process.exit(1);
  }
  console.log("API types are up to date.");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
