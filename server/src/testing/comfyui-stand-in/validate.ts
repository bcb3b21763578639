/**
 * Prompt validation as ComfyUI v0.3.68's execution.py validate_prompt does it: the same checks,
 * in the same order, with the same error types, messages and node_errors. Like ComfyUI it
 * converts what it accepts (an INT input given 3.7 runs with 3): the converted prompt is returned.
 */
import {
  isLink,
  isRecord,
  type ComfyWorkflow,
  type NodeError,
  type NodeErrorReason,
} from '../../engines/comfyui/api-types.js';
import { classOf, type InputSpec, type InstalledFiles } from './node-classes.js';

export type Validation =
  | {
      ok: true;
      outputs: string[];
      nodeErrors: Record<string, NodeError>;
      /** The prompt with its values converted (INT truncated, numbers from strings). */
      prompt: ComfyWorkflow;
    }
  | { ok: false; status: 400; answer: unknown };

const refuse = (error: NodeErrorReason, nodeErrors: unknown = []): Validation => ({
  ok: false,
  status: 400,
  answer: { error, node_errors: nodeErrors },
});

/** Checks a POST /prompt body's `prompt`; `installed` gives the COMBO inputs' lists. */
export function validatePrompt(prompt: unknown, installed: InstalledFiles): Validation {
  if (!isRecord(prompt)) {
    return refuse({ type: 'invalid_prompt', message: 'Prompt is not a dict', details: '' });
  }
  for (const [id, node] of Object.entries(prompt)) {
    if (!isRecord(node) || typeof node.class_type !== 'string') {
      return refuse({
        type: 'invalid_prompt',
        message: 'Cannot execute because a node is missing the class_type property.',
        details: `Node ID '#${id}'`,
        extra_info: {},
      });
    }
    if (!(node.class_type in installed.classes)) {
      // v0.3.68's answer; `missing_node_type` came with later versions.
      return refuse(
        {
          type: 'invalid_prompt',
          message: `Cannot execute because node ${node.class_type} does not exist.`,
          details: `Node ID '#${id}'`,
          extra_info: {},
        },
        {},
      );
    }
  }
  const workflow = structuredClone(prompt) as ComfyWorkflow;
  const outputs = Object.keys(workflow).filter((id) => classOf(workflow[id]).output === true);
  if (outputs.length === 0) {
    return refuse({
      type: 'prompt_no_outputs',
      message: 'Prompt has no outputs',
      details: '',
      extra_info: {},
    });
  }
  const validated = new Map<string, { ok: boolean; reasons: NodeErrorReason[] }>();
  /** Validates a node and, recursively, the nodes it links to. */
  const check = (id: string): boolean => {
    const known = validated.get(id);
    if (known) return known.ok;
    validated.set(id, { ok: true, reasons: [] });
    const node = workflow[id];
    if (!node) return false;
    const spec = classOf(node);
    const reasons: NodeErrorReason[] = [];
    let ok = true;
    const inputs = [
      ...Object.entries(spec.required).map(([name, s]) => [name, s, true] as const),
      ...Object.entries(spec.optional ?? {}).map(([name, s]) => [name, s, false] as const),
    ];
    for (const [name, input, required] of inputs) {
      if (!(name in node.inputs)) {
        if (required) {
          reasons.push({
            type: 'required_input_missing',
            message: 'Required input is missing',
            details: name,
            extra_info: { input_name: name },
          });
        }
        continue;
      }
      const value = node.inputs[name];
      const reason = Array.isArray(value)
        ? linkError(workflow, name, input, value)
        : valueError(node.class_type, name, input, value, installed);
      if (reason) reasons.push(reason);
      else if (input.kind === 'INT' || input.kind === 'FLOAT') {
        node.inputs[name] = input.kind === 'INT' ? Math.trunc(Number(value)) : Number(value);
      } else if (isLink(value) && !check(value[0])) ok = false;
    }
    if (reasons.length > 0) ok = false;
    validated.set(id, { ok, reasons });
    return ok;
  };
  const good: string[] = [];
  const nodeErrors: Record<string, NodeError> = {};
  for (const output of outputs) {
    if (check(output)) {
      good.push(output);
      continue;
    }
    for (const [id, result] of validated) {
      if (result.ok || result.reasons.length === 0) continue;
      nodeErrors[id] ??= {
        errors: result.reasons,
        dependent_outputs: [],
        class_type: workflow[id]?.class_type ?? '',
      };
      if (!nodeErrors[id].dependent_outputs.includes(output)) {
        nodeErrors[id].dependent_outputs.push(output);
      }
    }
  }
  if (good.length === 0) {
    const details = Object.values(nodeErrors)
      .flatMap((n) => n.errors.map((e) => `${e.message}: ${e.details}`))
      .join('\n');
    return refuse(
      {
        type: 'prompt_outputs_failed_validation',
        message: 'Prompt outputs failed validation',
        details,
        extra_info: {},
      },
      nodeErrors,
    );
  }
  return { ok: true, outputs: good, nodeErrors, prompt: workflow };
}

const badLink = (name: string, value: unknown): NodeErrorReason => ({
  type: 'bad_linked_input',
  message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]',
  details: name,
  extra_info: { input_name: name, received_value: value },
});

/** What is wrong with a list given to an input: not a link, a missing node, the wrong type. */
function linkError(
  workflow: ComfyWorkflow,
  name: string,
  input: InputSpec,
  value: unknown[],
): NodeErrorReason | undefined {
  if (!isLink(value)) return badLink(name, value);
  const from = workflow[value[0]];
  if (!from) {
    return {
      type: 'exception_during_inner_validation',
      message: 'Exception when validating inner node',
      details: `'${value[0]}'`,
      extra_info: { input_name: name, exception_type: 'KeyError', linked_node: value },
    };
  }
  const received = classOf(from).returns[value[1]];
  const wanted = input.kind === 'link' ? input.type : input.kind;
  if (received === wanted) return undefined;
  return {
    type: 'return_type_mismatch',
    message: 'Return type mismatch between linked nodes',
    details: `${name}, received_type(${String(received)}) mismatch input_type(${wanted})`,
    extra_info: { input_name: name, received_type: received, linked_node: value },
  };
}

/** What is wrong with a literal value given to an input: its type, its range, its list. */
function valueError(
  classType: string,
  name: string,
  input: InputSpec,
  value: unknown,
  installed: InstalledFiles,
): NodeErrorReason | undefined {
  switch (input.kind) {
    case 'link':
      return badLink(name, value);
    case 'INT':
    case 'FLOAT': {
      // Python's int(): a float is truncated, a string must spell an integer.
      const n =
        typeof value === 'number'
          ? input.kind === 'INT'
            ? Math.trunc(value)
            : value
          : typeof value === 'string' && input.kind === 'INT' && !/^\s*[-+]?\d+\s*$/.test(value)
            ? Number.NaN
            : Number(value);
      if (typeof value === 'boolean' || value === null || value === '' || !Number.isFinite(n)) {
        return {
          type: 'invalid_input_type',
          message: `Failed to convert an input value to a ${input.kind} value`,
          details: `${name}, ${String(value)}, invalid literal`,
          extra_info: { input_name: name, received_value: value },
        };
      }
      if (input.min !== undefined && n < input.min) {
        return {
          type: 'value_smaller_than_min',
          message: `Value ${n} smaller than min of ${input.min}`,
          details: name,
          extra_info: { input_name: name, received_value: n },
        };
      }
      if (input.max !== undefined && n > input.max) {
        return {
          type: 'value_bigger_than_max',
          message: `Value ${n} bigger than max of ${input.max}`,
          details: name,
          extra_info: { input_name: name, received_value: n },
        };
      }
      return undefined;
    }
    case 'STRING':
      if (typeof value === 'string' || typeof value === 'number') return undefined;
      return {
        type: 'invalid_input_type',
        message: 'Failed to convert an input value to a STRING value',
        details: `${name}, ${String(value)}`,
        extra_info: { input_name: name, received_value: value },
      };
    case 'BOOLEAN':
      return undefined;
    case 'COMBO': {
      // LoadImage's VALIDATE_INPUTS replaces the list check: any existing (annotated) file.
      if (classType === 'LoadImage' && name === 'image') {
        if (installed.imageExists(String(value))) return undefined;
        return {
          type: 'custom_validation_failed',
          message: 'Custom validation failed for node',
          details: `image - Invalid image file: ${String(value)}`,
          extra_info: { input_name: name, received_value: value },
        };
      }
      const values = input.values(installed);
      if (values.includes(String(value))) return undefined;
      const list =
        values.length > 20
          ? `(list of length ${values.length})`
          : `[${values.map((v) => `'${v}'`).join(', ')}]`;
      return {
        type: 'value_not_in_list',
        message: 'Value not in list',
        details: `${name}: '${String(value)}' not in ${list}`,
        extra_info: { input_name: name, received_value: value },
      };
    }
  }
}
