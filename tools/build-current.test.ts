import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_OUTPUTS, buildState, writeStamp } from './build-current.mjs';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-build-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function put(file: string, content = 'x'): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

/** A checkout as `npm ci` leaves it: sources and installed packages, nothing built. */
function freshClone(): void {
  put('package.json', '{}');
  put('package-lock.json', '{"lockfileVersion":3}');
  put('server/src/main.ts', 'start();');
  put('server/src/engines/builtin/upscale/keras-to-onnx.ts', 'convert();');
  put('web/src/main.tsx', 'render();');
  put('web/vite.config.ts', 'export default {};');
  put('contract/src/index.ts', 'export {};');
  put('node_modules/vite/index.js', 'vite');
}

/** What `npm run build` leaves: every output, then the stamp. */
function build(): void {
  for (const output of BUILD_OUTPUTS) put(output, 'built');
  writeStamp(root);
}

describe('npm start builds only when the build is not current (issue 23, part 4)', () => {
  it('builds a fresh clone: no outputs, no stamp', () => {
    freshClone();
    expect(buildState(root)).toEqual({
      current: false,
      reason: 'no build yet (contract/dist/index.js is missing)',
    });
  });

  it('starts at once after a build, and after a copy that touches every file', () => {
    freshClone();
    build();
    expect(buildState(root)).toMatchObject({ current: true });
    // Times are not contents: a checkout or a copy sets new ones.
    const later = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(root, 'server/src/main.ts'), later, later);
    expect(buildState(root)).toMatchObject({ current: true });
  });

  it.each([
    ['a server source', 'server/src/main.ts'],
    ['the model conversion', 'server/src/engines/builtin/upscale/keras-to-onnx.ts'],
    ['a web source', 'web/src/main.tsx'],
    ['the Vite configuration', 'web/vite.config.ts'],
    ['the contract', 'contract/src/index.ts'],
    ['the dependencies (package-lock.json)', 'package-lock.json'],
  ])('builds again when %s changes', (_what, file) => {
    freshClone();
    build();
    put(file, 'changed');
    expect(buildState(root)).toEqual({
      current: false,
      reason: 'the sources or dependencies changed since the last build',
    });
  });

  it('builds again when a source is added or removed, or an output or the stamp is gone', () => {
    freshClone();
    build();
    put('web/src/new-feature.tsx', 'new');
    expect(buildState(root)).toMatchObject({ current: false });
    fs.rmSync(path.join(root, 'web/src/new-feature.tsx'));
    expect(buildState(root)).toMatchObject({ current: true });

    fs.rmSync(path.join(root, 'server/dist/models/esrgan-slim-x4.onnx'));
    expect(buildState(root)).toEqual({
      current: false,
      reason: 'no build yet (server/dist/models/esrgan-slim-x4.onnx is missing)',
    });
    build();
    fs.rmSync(path.join(root, 'server/dist/.build-stamp'));
    expect(buildState(root)).toMatchObject({ current: false, reason: /no record/ });
  });

  it('is not fooled by what the build or the install writes', () => {
    freshClone();
    build();
    put('server/tsconfig.tsbuildinfo', 'tsc state');
    put('node_modules/vite/index.js', 'another install');
    put('web/node_modules/.vite/deps/x.js', 'cache');
    put('web/dist/assets/index-1234.js', 'built');
    put('server/src/main.test.ts', 'a new test');
    put('web/src/app/shell.test.tsx', 'a new test');
    expect(buildState(root)).toMatchObject({ current: true });
    expect(BUILD_INPUTS).toContain('package-lock.json');
  });
});
