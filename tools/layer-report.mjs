// `npm run layers`: the server's imports that run back up its layers (issue 24, part 1), each
// with the count. ESLint refuses new ones (eslint.config.js, SERVER_LAYERS); this report also
// shows the ones still allowed by an eslint-disable comment, and the adapters that import each
// other sideways (which the lint does not see). Plain JavaScript: it needs no build.
//
//   node tools/layer-report.mjs [server/src] [--all]   (--all also lists the allowed imports)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Left to right: each layer may import only the layers to its right. */
export const LAYERS = [
  {
    name: 'root',
    entries: [
      'main',
      'server',
      'container',
      'container-webhooks',
      'config',
      'config-files',
      'themes',
    ],
    folders: ['lifecycle', 'commands'],
  },
  { name: 'edges', entries: [], folders: ['http', 'messaging', 'broker', 'cli'] },
  { name: 'core', entries: ['owner'], folders: ['services', 'jobs'] },
  { name: 'adapters', entries: [], folders: ['store', 'files', 'engines', 'limits', 'outbound'] },
  { name: 'imaging', entries: [], folders: ['imaging'] },
  { name: 'ground', entries: [], folders: ['runtime'] },
];

/**
 * Core modules that are a port (its types, errors and constants): an adapter implementing the port
 * may import them, values included. Shared with eslint.config.js.
 */
export const PORT_MODULES = ['jobs/job', 'jobs/queue', 'jobs/lease'];

const TEST_FILE = /\.(test|suite)\.tsx?$/;

/** The layer of a path relative to server/src, or undefined (tests' testing/ folder). */
export function layerOf(relative) {
  const parts = relative.split(path.sep).join('/').split('/');
  const top = parts.length === 1 ? parts[0].replace(/\.(ts|js)$/, '') : parts[0];
  const kind = parts.length === 1 ? 'entries' : 'folders';
  const index = LAYERS.findIndex((layer) => layer[kind].includes(top));
  return index < 0 ? undefined : { index, name: LAYERS[index].name, folder: top };
}

/** Every relative import of a source: static, re-export, side-effect and dynamic. */
export function importsOf(source) {
  const found = [];
  const pattern =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^;]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const match of source.matchAll(pattern)) {
    const specifier = match[3] ?? match[4];
    const line = source.slice(0, match.index + match[0].indexOf(specifier)).split('\n').length;
    found.push({ specifier, typeOnly: Boolean(match[2]), line });
  }
  return found;
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !TEST_FILE.test(entry.name) ? [file] : [];
  });
}

/** The imports that run up (or sideways between adapters), split into counted and allowed. */
export function report(root) {
  const upward = [];
  const allowed = [];
  for (const file of sourceFiles(root)) {
    const from = layerOf(path.relative(root, file));
    if (!from) continue;
    const source = fs.readFileSync(file, 'utf8');
    const lines = source.split('\n');
    for (const { specifier, typeOnly, line } of importsOf(source)) {
      const target = path.relative(root, path.resolve(path.dirname(file), specifier));
      if (target.startsWith('..')) continue;
      const to = layerOf(target);
      if (!to) continue;
      const up = to.index < from.index;
      const sideways =
        from.name === 'adapters' && to.index === from.index && from.folder !== to.folder;
      if (!up && !sideways) continue;
      const entry = {
        text: `${path.relative(root, file)}:${line} (${from.name}) -> ${target.replace(/\.js$/, '')} (${to.name})`,
      };
      // An adapter may name the type of the core port it implements (allowTypeImports), and use a
      // port module's errors and constants.
      const portModule = PORT_MODULES.includes(
        target.split(path.sep).join('/').replace(/\.js$/, ''),
      );
      if ((typeOnly || portModule) && from.name === 'adapters' && to.name === 'core') {
        allowed.push(entry);
      } else {
        const disabled = /eslint-disable-next-line/.test(lines[line - 2] ?? '');
        upward.push({
          text:
            entry.text + (disabled ? ' [eslint-disable]' : '') + (sideways ? ' [sideways]' : ''),
        });
      }
    }
  }
  return { upward, allowed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = args.find((arg) => !arg.startsWith('--')) ?? 'server/src';
  const { upward, allowed } = report(root);
  for (const entry of upward) console.log(entry.text);
  console.log(`${upward.length} imports run back up the layers of ${root}`);
  if (args.includes('--all')) {
    for (const entry of allowed) console.log(`allowed: ${entry.text}`);
  }
  console.log(`${allowed.length} allowed: an adapter's imports of the core port it implements`);
}
