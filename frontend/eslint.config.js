import { readdirSync } from "node:fs";
import js from "@eslint/js";
import globals from "globals";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What a file of `feature` may not import: another feature (relative or "@/features/x") or the app. `depth`:
 * how many folders the file is below the feature's own (0 for src/features/x/a.ts, 1 for src/features/x/list/a.ts),
 * so that a path climbing exactly out of the feature ("../y" from the top, "../../y" from a sub-folder) is caught. */
function featurePatterns(feature, depth) {
  const message = "No cross-feature imports: use src/components, src/lib or src/api, or compose in src/app.";
  return [
    { regex: `^(@/|(\\.\\./)+)features/(?!${feature}(/|$))`, message },
    { regex: `^(\\.\\./){${depth + 1}}(?!\\.\\./)`, message },
    { regex: "^(@/|(\\.\\./)+)app(/|$)", message: "Features must not import from src/app." },
  ];
}

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts"] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ["**/*.{ts,tsx}"],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  // Import boundaries: app → features → shared (src/components, src/lib, src/api); features never import
  // each other, whether by a relative path or the "@/" alias.
  ...features.flatMap((feature) => [
    {
      files: [`src/features/${feature}/*.{ts,tsx}`],
      rules: { "no-restricted-imports": ["error", { patterns: featurePatterns(feature, 0) }] },
    },
    {
      files: [`src/features/${feature}/*/*.{ts,tsx}`],
      rules: { "no-restricted-imports": ["error", { patterns: featurePatterns(feature, 1) }] },
    },
  ]),
  {
    files: ["src/components/**/*.{ts,tsx}", "src/lib/**/*.{ts,tsx}", "src/api/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^(@/|(\\.\\./)+|\\./)(features|app)(/|$)", message: "Shared code must not import features or the app." }] },
      ],
    },
  },
  // No import cycles in src/: a cycle makes module order (and so which value is still undefined) depend on
  // which file is imported first. Imports are resolved the way tsc resolves them (tsconfig paths, "@/").
  // Type-only imports are erased at runtime and are not counted (the rule's default).
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": importX.flatConfigs.typescript.settings["import-x/extensions"],
      "import-x/parsers": importX.flatConfigs.typescript.settings["import-x/parsers"],
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": "error" },
  },
  {
    files: ["scripts/**/*.{js,mjs}", "eslint.config.js"],
    languageOptions: { globals: globals.node },
    extends: [js.configs.recommended],
  },
);
