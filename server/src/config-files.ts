import fs from 'node:fs';

/** What reading the `*_FILE` variables gave: the environment to parse, and what went wrong. */
export interface FileVariables {
  env: Record<string, string>;
  /** Variables whose value came from a file: a secret, never echoed in an error. */
  fromFiles: Set<string>;
  /** One line per variable that could not be read, `NAME_FILE ...`. */
  problems: string[];
}

/**
 * Any known variable X may be given as X_FILE, the path of a file holding its value (Docker and
 * Kubernetes hand secrets over as files). The file's content is the value, without its final line
 * break. X and X_FILE together are refused: which one wins would be a guess.
 */
export function readFileVariables(
  env: Record<string, string>,
  known: ReadonlySet<string>,
): FileVariables {
  // The X_FILE variables themselves are not settings: left out of what is parsed.
  const out = Object.fromEntries(
    Object.entries(env).filter(([key]) => !isFileVariable(key, known)),
  );
  const fromFiles = new Set<string>();
  const problems: string[] = [];
  for (const [key, file] of Object.entries(env)) {
    if (!isFileVariable(key, known)) continue;
    const name = key.slice(0, -'_FILE'.length);
    if (env[name] !== undefined) {
      problems.push(`${key} and ${name} are both set: set one of them`);
      continue;
    }
    try {
      const value = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      if (value !== '') out[name] = value;
      fromFiles.add(name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      problems.push(`${key} names a file that cannot be read (${code}: ${file})`);
    }
  }
  return { env: out, fromFiles, problems };
}

function isFileVariable(key: string, known: ReadonlySet<string>): boolean {
  return key.endsWith('_FILE') && known.has(key.slice(0, -'_FILE'.length));
}
