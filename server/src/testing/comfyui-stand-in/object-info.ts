/** GET /object_info's answer: the node classes as ComfyUI's server.py describes them. */
import type { InputSpec, InstalledFiles } from './node-classes.js';

/** Every node class, or only the one named `only`. */
export function objectInfo(installed: InstalledFiles, only?: string): Record<string, unknown> {
  const describe = (specs: Record<string, InputSpec>, v3 = false) =>
    Object.fromEntries(
      Object.entries(specs).map(([name, spec]) => [
        name,
        spec.kind === 'link'
          ? [spec.type]
          : spec.kind === 'COMBO'
            ? v3
              ? ['COMBO', { options: spec.values(installed) }]
              : [spec.values(installed)]
            : spec.kind === 'INT' || spec.kind === 'FLOAT'
              ? [spec.kind, { min: spec.min, max: spec.max }]
              : [spec.kind],
      ]),
    );
  return Object.fromEntries(
    Object.entries(installed.classes)
      .filter(([name]) => only === undefined || name === only)
      .map(([name, spec]) => [
        name,
        {
          // As server.py: a node without optional inputs has no `optional` key at all.
          input: {
            required: describe(spec.required, spec.v3),
            ...(spec.optional ? { optional: describe(spec.optional, spec.v3) } : {}),
          },
          input_order: {
            required: Object.keys(spec.required),
            ...(spec.optional ? { optional: Object.keys(spec.optional) } : {}),
          },
          output: spec.returns,
          output_is_list: spec.returns.map(() => false),
          output_name: spec.returns,
          name,
          display_name: name,
          description: '',
          python_module: 'stand-in',
          category: spec.category,
          output_node: spec.output === true,
        },
      ]),
  );
}
