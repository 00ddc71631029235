// ESLint (flat config): the recommended rules on the project's own JavaScript, run by `make lint`
// and so by `make test`. static/vendor/ and node_modules/ are other projects' code (copied by
// tools/vendor.py, installed by npm) and are never linted.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  ...js.configs.recommended.rules,
  // A name that starts with "_" is there to be left unused: a loop that only counts, the keys
  // a rest pattern leaves out.
  "no-unused-vars": ["error", { varsIgnorePattern: "^_", argsIgnorePattern: "^_" }],
};

export default [
  { ignores: ["static/vendor/**", "node_modules/**", ".venv/**"] },
  {
    // The app: modules of the page; a few (the engine bridge, the snapshot cache) also run in or
    // talk to a worker.
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
    rules,
  },
  {
    // The service worker: a classic script (importScripts).
    files: ["sw.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: globals.serviceworker },
    rules,
  },
  {
    // Node scripts of the tests and tools (a few build a page-like world for the app's modules).
    files: ["tests/**/*.mjs", "tools/**/*.mjs", "e2e/**/*.mjs", "eslint.config.mjs"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules,
  },
];
