/** Types of build-current.mjs (plain JavaScript: it runs before anything is compiled). */
export interface BuildPaths {
  inputs?: string[];
  outputs?: string[];
  stamp?: string;
}
export const BUILD_INPUTS: string[];
export const BUILD_OUTPUTS: string[];
export const BUILD_STAMP: string;
export function sourceDigest(root: string, inputs?: string[]): string;
export function buildState(root: string, paths?: BuildPaths): { current: boolean; reason: string };
export function writeStamp(root: string, paths?: Omit<BuildPaths, 'outputs'>): void;
