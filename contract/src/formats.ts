// Output formats of SPEC §3: the latent sizes a preview can be generated at.

export const OUTPUT_FORMAT_NAMES = ['Square', 'Rectangle', 'Slab', 'Plank'] as const;
export type OutputFormatName = (typeof OUTPUT_FORMAT_NAMES)[number];

export interface OutputFormat {
  readonly name: OutputFormatName;
  readonly width: number;
  readonly height: number;
}

export const OUTPUT_FORMATS: readonly OutputFormat[] = [
  { name: 'Square', width: 1024, height: 1024 },
  { name: 'Rectangle', width: 1448, height: 724 },
  { name: 'Slab', width: 677, height: 1548 },
  { name: 'Plank', width: 2506, height: 418 },
];

/** The format whose size is exactly width x height, or undefined for any other size. */
export function formatBySize(width: number, height: number): OutputFormat | undefined {
  return OUTPUT_FORMATS.find((format) => format.width === width && format.height === height);
}

export function formatByName(name: string): OutputFormat | undefined {
  return OUTPUT_FORMATS.find((format) => format.name === name);
}
