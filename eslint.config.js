// ESLint for the TypeScript sources (`make test` runs it: `npm run lint`). Layout is Prettier's (.prettierrc.json),
// the import layers are dependency-cruiser's (.dependency-cruiser.cjs) and unused files and exports are knip's
// (knip.json); this file keeps the rules about the code itself.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  module: 'writable',
  require: 'readonly',
  fetch: 'readonly',
  URL: 'readonly',
  Buffer: 'readonly',
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.venv/',
      'fixtures/',
      'data/',
      'models/',
      'duckdb-extensions/',
      'tmp/',
      'coverage/',
      // AssemblyScript (compiled to WebAssembly, never run by Node): its decorators and types are not TypeScript's.
      'src/loss/assembly/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // The TypeScript compiler already refuses undefined names, and knows the ambient ones ESLint would not.
      'no-undef': 'off',
      // A leading underscore marks a binding kept on purpose (a positional parameter, a destructured field
      // dropped from a rest object).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read JSON answers and assert on the fields a user sees; typing every answer would restate
    // openapi.yaml, which the contract tests already check the answers against.
    files: ['test/**/*.ts', 'src/**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  { files: ['**/*.cjs', '**/*.mjs'], languageOptions: { globals: nodeGlobals } },
);
