import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { PORT_MODULES } from './tools/layer-report.mjs';

// Issue 15, part 5: a feature is a folder of web/src/features whose index.ts is its only door.
const INDEX_ONLY = 'Features reach each other only through their index.ts: import the folder.';
// A file `depth` folders inside its feature reaches the features/ folder with depth + 1 `../`, and
// src/ with one more: another feature's file either way (`../<x>/<file>`, `../../features/<x>/<file>`
// from a feature's top folder) is a reach-in. Fewer `../` stay inside the file's own feature.
const FEATURE_DEPTHS = [0, 1, 2, 3];
const featureFile = (depth) => String.raw`^(\.\./){${depth + 1}}(\.\./features/)?[^./][^/]*/`;
const FEATURE_REACH_IN = (depth) => ({
  regex: `${featureFile(depth)}.+`,
  message: `${INDEX_ONLY} Anything another feature needs is exported from its index.ts.`,
});
const FEATURE_TESTING = {
  regex: String.raw`(^|/)testing$`,
  message: "A feature's testing.ts serves tests only.",
};
const FEATURE_REACH_IN_TEST = (depth) => ({
  regex: `${featureFile(depth)}(?!testing$).+`,
  message: `${INDEX_ONLY} Tests may also use its testing.ts.`,
});
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

// Issue 24, part 1: server/src in layers, each importing only the layers after it (tools/layer-report.mjs
// prints what still runs back up). Tests (*.test.ts, *.suite.ts, testing/) compose, so they may
// import across layers.
const LAYER_RULE =
  'server/src layers: root → edges → core → adapters → imaging → runtime; import only rightwards.';
const upTo = (regex, message) => ({ regex, message: `${LAYER_RULE} ${message}` });
const ROOT = upTo(
  String.raw`^(\.\./)+((main|server|container|container-admin|container-webhooks|config|config-files|themes)(\.js)?$|(lifecycle|commands)(/|$))`,
  'main, server, container, config, themes, lifecycle/ and commands/ are the root: only they read Config and choose implementations; pass what is needed in.',
);
const EDGES = upTo(
  String.raw`^(\.\./)+(http|messaging|broker|cli)(/|$)`,
  'http/, messaging/, broker/ and cli/ are edges: rules and adapters do not know who calls them; a port the edge implements lives with its user.',
);
const STORE_FROM_EDGE = upTo(
  String.raw`^(\.\./)+store(/|$)`,
  'Edges reach the database through services and their ports, never store/.',
);
const CORE = upTo(
  String.raw`^(\.\./)+(services|jobs)(/|$)|^(\.\./)+owner(\.js)?$`,
  'services/ and jobs/ are the core: an adapter may name the type of the port it implements (import type), nothing else.',
);
// An adapter may import the core's port modules (PORT_MODULES: types, errors, constants).
const CORE_BUT_PORTS = upTo(
  String.raw`^(\.\./)+(services(/|$)|jobs(?!/(${PORT_MODULES.map((m) => m.slice(5)).join('|')})(\.js)?$)(/|$))|^(\.\./)+owner(\.js)?$`,
  "services/ and jobs/ are the core: an adapter may use the port it implements (its types; a port module's errors and constants), nothing else.",
);
const ADAPTERS = upTo(
  String.raw`^(\.\./)+(store|files|engines|limits|outbound)(/|$)`,
  'store/, files/, engines/, limits/ and outbound/ are adapters: imaging takes paths and pixels, and runtime/ is plumbing under everything.',
);
const IMAGING = upTo(
  String.raw`^(\.\./)+imaging(/|$)`,
  'runtime/ is process plumbing: it knows no pixels.',
);
const serverLayer = (folders, patterns) => ({
  files: folders.map((folder) => `server/src/${folder}/**/*.ts`),
  ignores: ['server/src/**/*.test.ts', 'server/src/**/*.suite.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
  },
});
const typeImportsAllowed = (pattern) => ({ ...pattern, allowTypeImports: true });

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
  // One pair of blocks per depth inside a feature (FEATURE_DEPTHS), as the `../` count differs.
  ...FEATURE_DEPTHS.flatMap((depth) => {
    const folder = `web/src/features/*/${'*/'.repeat(depth)}`;
    return [
      {
        files: [`${folder}*.{ts,tsx}`],
        ignores: [`${folder}*.test.{ts,tsx}`],
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: [FEATURE_REACH_IN(depth), FEATURE_TESTING, SHELL] },
          ],
        },
      },
      {
        files: [`${folder}*.test.{ts,tsx}`],
        rules: {
          'no-restricted-imports': ['error', { patterns: [FEATURE_REACH_IN_TEST(depth), SHELL] }],
        },
      },
    ];
  }),
  {
    files: ['web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SHELL_REACH_IN] }] },
  },
  {
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SHARED_TO_FEATURE] }] },
  },
  // The server's layers (LAYER_RULE): one block per layer, each refusing the layers before it.
  serverLayer(['http', 'messaging', 'broker', 'cli'], [ROOT, STORE_FROM_EDGE]),
  {
    ...serverLayer(['services', 'jobs'], [ROOT, EDGES]),
    files: ['server/src/{services,jobs}/**/*.ts', 'server/src/owner.ts'],
  },
  // An adapter implements a core port: it may name the port's types, and import a port module's
  // own errors and constants (the job kinds, QueueFullError): those are part of the port.
  serverLayer(
    ['store', 'files', 'engines', 'limits', 'outbound'],
    [ROOT, EDGES, typeImportsAllowed(CORE_BUT_PORTS)],
  ),
  serverLayer(['imaging'], [ROOT, EDGES, CORE, ADAPTERS]),
  serverLayer(['runtime'], [ROOT, EDGES, CORE, ADAPTERS, IMAGING]),
);
