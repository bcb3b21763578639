import { validateBytes, type ValidationReport } from 'gltf-validator';

/**
 * The Khronos glTF Validator's report of a `.glb`, its messages printed (infos and hints too) so
 * a run shows everything it said.
 */
export async function validatedGlb(glb: Uint8Array): Promise<ValidationReport> {
  const report = await validateBytes(glb, { maxIssues: 0, writeTimestamp: false });
  const { numErrors, numWarnings, numInfos, numHints, messages } = report.issues;
  console.info(
    `glTF Validator ${report.validatorVersion}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos, ${numHints} hints`,
    ...messages.map((m) => `\n  [${m.severity}] ${m.code} ${m.pointer ?? ''}: ${m.message}`),
  );
  return report;
}
