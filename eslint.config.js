import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Issue 15, part 5: a feature is a folder of web/src/features whose index.ts is its only door.
const INDEX_ONLY = 'Features reach each other only through their index.ts: import the folder.';
const FEATURE_REACH_IN = {
  regex: String.raw`^\.\./[^./][^/]*/.+`,
  message: `${INDEX_ONLY} Anything another feature needs is exported from its index.ts.`,
};
const FEATURE_TESTING = {
  regex: String.raw`(^|/)testing$`,
  message: "A feature's testing.ts serves tests only.",
};
const FEATURE_REACH_IN_TEST = {
  regex: String.raw`^\.\./[^./][^/]*/(?!testing$).+`,
  message: `${INDEX_ONLY} Tests may also use its testing.ts.`,
};
const SHELL = {
  regex: String.raw`^(\.\./)+app(/|$)`,
  message: 'Features do not import the app shell (web/src/app); the shell imports them.',
};
const SHELL_REACH_IN = {
  regex: String.raw`^\.\./features/[^/]+/.+`,
  message: `${INDEX_ONLY} Import '../features/<feature>'.`,
};
const SHARED_TO_FEATURE = {
  regex: String.raw`(^|/)features(/|$)`,
  message: 'components/ and lib/ are shared by the features, so they import none of them.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.stylistic,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Features reach each other only through their index.ts (tests also through their testing.ts),
  // never into a file; the shell reaches features the same way; features do not import the shell,
  // and the shared components/ and lib/ import no feature.
  {
    files: ['web/src/features/**/*.{ts,tsx}'],
    ignores: ['web/src/features/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [FEATURE_REACH_IN, FEATURE_TESTING, SHELL] }],
    },
  },
  {
    files: ['web/src/features/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [FEATURE_REACH_IN_TEST, SHELL] }] },
  },
  {
    files: ['web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SHELL_REACH_IN] }] },
  },
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SHARED_TO_FEATURE] }] },
  },
);
