// ESLint for the whole tree (docs/decisions/3651-eslint.md): `npm run lint` runs it with
// --max-warnings 0. Recommended sets only; every rule tuned below says why next to it.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig([
  // What git and prettier ignore: builds, caches, reports, installed packages.
  globalIgnores([
    "**/node_modules/",
    "build/",
    "public/build/",
    ".cache/",
    ".data/",
    "test-results/",
    "playwright-report/",
    "blob-report/",
    "walk-output/",
    "bench/results/",
    "bench/reference/build/",
    "bench/reference/public/build/",
    "bench/reference/.cache/",
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    rules: {
      // A leading underscore marks a parameter, binding or caught error kept on purpose
      // (a callback's position, a destructured rest's sibling).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // Prettier puts a computed call on its own line (`sharp(...)\n  [format]()`); it formats
      // every file, so the ambiguity this rule guards against shows in the layout (as in
      // eslint-config-prettier, which turns it off for the same reason).
      "no-unexpected-multiline": "off",
    },
  },

  // Globals per area. The app's modules run in the browser, and its .server files, entry.server
  // and the services on Node; everything else (server, db, scripts, bench, soak, tests, configs)
  // (and .ci) runs on Node, and tests also hand functions to the browser (page.evaluate, happy-dom).
  {
    files: ["app/**", "bench/reference/app/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: [
      "app/**/*.server.{ts,tsx}",
      "app/entry.server.tsx",
      "app/services/**",
      "app/platform/**",
      "bench/reference/app/**/*.server.{ts,tsx}",
      "bench/reference/app/entry.server.tsx",
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["server/**", "db/**", "scripts/**", "bench/**", "soak/**", ".ci/**", "*.{js,ts}"],
    ignores: ["bench/reference/app/**"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["tests/**"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
    // CommonJS files (preloaded with `node --require`) have no other way to import.
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },

  // React: components and their tests.
  {
    files: ["**/*.{jsx,tsx}"],
    extends: [
      react.configs.flat.recommended,
      react.configs.flat["jsx-runtime"],
      reactHooks.configs.flat.recommended,
      jsxA11y.flatConfigs.recommended,
    ],
    settings: { react: { version: "18.3" } },
    rules: {
      // Props are typed by TypeScript; runtime prop-types would repeat the types.
      "react/prop-types": "off",
      // The recommended options, plus "region": a scroll region wider than the screen takes
      // tabIndex={0} so a keyboard can scroll it (axe's scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": [
        "error",
        { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true },
      ],
    },
  },
]);
