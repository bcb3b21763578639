/** One sample of Prometheus' text format: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Reads a scrape as Prometheus would, strictly: every line a comment or a sample, every sample's
 * metric announced by `# TYPE` first. Throws on anything else, so a malformed page fails a test.
 */
export function parsePrometheusText(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type?.[1]) {
      typed.add(type[1]);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample line: ${line}`);
    const name = match[1];
    const family = name.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(name) && !typed.has(family)) throw new Error(`no # TYPE before ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL)) {
      if (key !== undefined && value !== undefined) labels[key] = value;
    }
    const value = Number(match[3]);
    // Prometheus reads floats as Go does: NaN in any case (prom-client writes `Nan`).
    if (Number.isNaN(value) && match[3].toLowerCase() !== 'nan') {
      throw new Error(`not a number: ${line}`);
    }
    samples.push({ name, labels, value });
  }
  return samples;
}

/** The value of the sample with this name whose labels include `labels`; undefined if none. */
export function sampleValue(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  return samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  )?.value;
}
