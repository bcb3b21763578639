/** The stand-in's input, output and temp folders, in a temporary directory of its own. */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface Folders {
  root: string;
  input: string;
  output: string;
  temp: string;
}

export function makeFolders(): Folders {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'comfy-stand-in-'));
  const folders = {
    root,
    input: path.join(root, 'input'),
    output: path.join(root, 'output'),
    temp: path.join(root, 'temp'),
  };
  for (const dir of [folders.input, folders.output, folders.temp]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  return folders;
}

export async function removeFolders(folders: Folders): Promise<void> {
  await fsp.rm(folders.root, { recursive: true, force: true });
}

/** The files of the input folder, sorted, with their subfolders ("sub/name.png"). */
export function listInputFiles(folders: Folders): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else out.push(`${prefix}${entry.name}`);
    }
  };
  walk(folders.input, '');
  return out.sort();
}

/** Whether `candidate` is `root` or below it. */
export function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Whether a LoadImage value names an existing file: "sub/name.png" in the input folder, or with
 * an annotation " [input]", " [temp]", " [output]" in that folder (folder_paths.annotated_filepath).
 */
export function imageExists(folders: Folders, name: string): boolean {
  const file = annotatedPath(folders, name);
  return file !== undefined && fs.existsSync(file) && fs.statSync(file).isFile();
}

/** The file a LoadImage value names, or undefined if it points outside its folder. */
export function annotatedPath(folders: Folders, name: string): string | undefined {
  const match = /^(.*) \[(input|temp|output)\]$/.exec(name);
  const base =
    match?.[2] === 'temp' ? folders.temp : match?.[2] === 'output' ? folders.output : folders.input;
  const file = path.resolve(base, match?.[1] ?? name);
  return inside(base, file) ? file : undefined;
}
