// `npm start`'s first step: runs `npm run build` unless the last build was made from these very
// sources (issue 23, part 4). The build ends with `node tools/build-current.mjs --stamp`, which
// records a digest of its inputs; a fresh clone has no build and no stamp, so it builds.
// Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the outputs are made from (folders whole, but for SKIPPED): tsc -b, the web, the models. */
export const BUILD_INPUTS = [
  'package.json',
  // The dependencies' versions: the compilers, Vite, and the ESRGAN packages the models come from.
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.json',
  'contract',
  'server/package.json',
  'server/tsconfig.json',
  'server/src',
  'web',
];

/** What the build makes, and the server needs: a build with one missing is no build. */
export const BUILD_OUTPUTS = [
  'contract/dist/index.js',
  'server/dist/main.js',
  'server/dist/models/esrgan-slim-x2.onnx',
  'server/dist/models/esrgan-slim-x4.onnx',
  'server/dist/models/esrgan-medium-x2.onnx',
  'server/dist/models/esrgan-medium-x4.onnx',
  'web/dist/index.html',
];

/** Where the digest of the last build's inputs is kept: inside an output, so a clean removes it. */
export const BUILD_STAMP = 'server/dist/.build-stamp';

/**
 * Folders and files the build writes, or that make no output the server runs: tests (the
 * build type-checks e2e/ and emits nothing from it; `npm test` builds anyway).
 */
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.vite', 'test-results', 'testing']);
const skipped = (name) =>
  SKIPPED.has(name) || /\.tsbuildinfo$|\.test\.tsx?$|\.suite\.ts$/.test(name);

function filesUnder(root, relative, out) {
  const full = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return; // An input a checkout does not have (yet) adds nothing.
  }
  if (stat.isFile()) {
    out.push(relative);
    return;
  }
  if (!stat.isDirectory()) return;
  for (const name of fs.readdirSync(full).sort()) {
    if (!skipped(name)) filesUnder(root, path.join(relative, name), out);
  }
}

/**
 * A digest of the inputs' names and contents: contents, not times, so a checkout or a copy that
 * touches every file does not count as a change, and an edit within the same second does.
 */
export function sourceDigest(root, inputs = BUILD_INPUTS) {
  const files = [];
  for (const input of inputs) filesUnder(root, input, files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Whether the build in `root` is the build of its sources: every output there, and the stamp
 * the build wrote holding the sources' digest now. `reason` says why not, for the operator.
 */
export function buildState(
  root,
  { inputs = BUILD_INPUTS, outputs = BUILD_OUTPUTS, stamp = BUILD_STAMP } = {},
) {
  const missing = outputs.find((output) => !fs.existsSync(path.join(root, output)));
  if (missing) return { current: false, reason: `no build yet (${missing} is missing)` };
  let recorded;
  try {
    recorded = fs.readFileSync(path.join(root, stamp), 'utf8').trim();
  } catch {
    return { current: false, reason: `no record of the last build (${stamp})` };
  }
  if (recorded !== sourceDigest(root, inputs)) {
    return { current: false, reason: 'the sources or dependencies changed since the last build' };
  }
  return { current: true, reason: 'the build is current' };
}

/** Records that the build in `root` is made from its sources as they are now. */
export function writeStamp(root, { inputs = BUILD_INPUTS, stamp = BUILD_STAMP } = {}) {
  fs.mkdirSync(path.dirname(path.join(root, stamp)), { recursive: true });
  fs.writeFileSync(path.join(root, stamp), `${sourceDigest(root, inputs)}\n`);
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (process.argv[2] === '--stamp') {
    writeStamp(root);
    return;
  }
  const state = buildState(root);
  if (state.current) {
    process.stdout.write('The build is current: starting (npm run build rebuilds)\n');
    return;
  }
  process.stdout.write(`Building first: ${state.reason}\n`);
  const npm = process.env.npm_execpath;
  // Under npm, the same npm; run by hand, the one on PATH.
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: true });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
