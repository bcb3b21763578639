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
  | { ok: false; status: 400; answer: unknown }
  /** A prompt execution.py cannot even walk (not a dict): the exception makes aiohttp's 500. */
  | { ok: false; status: 500 };

/**
 * Python's KeyError for a link to a node the prompt lacks: execution.py reads the linked node
 * outside its try, so the exception ends the node's validation and is caught one level up.
 */
class MissingLinkedNode extends Error {}

const TRACEBACK = ['  File "stand-in", line 1, in validate_inputs\n'];

const refuse = (error: NodeErrorReason, nodeErrors: unknown = {}): Validation => ({
  ok: false,
  status: 400,
  answer: { error, node_errors: nodeErrors },
});

/** Checks a POST /prompt body's `prompt`; `installed` gives the COMBO inputs' lists. */
export function validatePrompt(prompt: unknown, installed: InstalledFiles): Validation {
  // An empty list walks like an empty dict (no outputs); anything else that is not a dict fails.
  if (!isRecord(prompt) && !(Array.isArray(prompt) && prompt.length === 0)) {
    return { ok: false, status: 500 };
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
  const workflow = (Array.isArray(prompt) ? {} : structuredClone(prompt)) as ComfyWorkflow;
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
      if (Array.isArray(value)) {
        const reason = linkError(workflow, name, input, value);
        if (reason) {
          reasons.push(reason);
          continue;
        }
        const [from] = value as [string, number];
        try {
          if (!check(from)) ok = false;
        } catch (error) {
          if (!(error instanceof MissingLinkedNode)) throw error;
          // Caught here: the error is the linked node's, named by this node's input and link.
          ok = false;
          validated.set(from, {
            ok: false,
            reasons: [
              {
                type: 'exception_during_inner_validation',
                message: 'Exception when validating inner node',
                details: error.message,
                extra_info: {
                  input_name: name,
                  exception_message: error.message,
                  exception_type: 'KeyError',
                  traceback: TRACEBACK,
                  linked_node: value,
                },
              },
            ],
          });
        }
        continue;
      }
      const reason = valueError(node.class_type, name, input, value, installed);
      if (reason) reasons.push(reason);
      else if (input.kind === 'INT' || input.kind === 'FLOAT') {
        node.inputs[name] = input.kind === 'INT' ? Math.trunc(Number(value)) : Number(value);
      }
    }
    if (reasons.length > 0) ok = false;
    validated.set(id, { ok, reasons });
    return ok;
  };
  const good: string[] = [];
  const nodeErrors: Record<string, NodeError> = {};
  for (const output of outputs) {
    let ok: boolean;
    try {
      ok = check(output);
    } catch (error) {
      if (!(error instanceof MissingLinkedNode)) throw error;
      // The output node itself links to a missing node: validate_prompt catches it.
      ok = false;
      validated.set(output, {
        ok: false,
        reasons: [
          {
            type: 'exception_during_validation',
            message: 'Exception when validating node',
            details: error.message,
            extra_info: { exception_type: 'KeyError', traceback: TRACEBACK },
          },
        ],
      });
    }
    if (ok) {
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
    // Only the output nodes' own reasons: an output failing through a node upstream has none.
    const details = outputs
      .flatMap((id) => validated.get(id)?.reasons ?? [])
      .map((e) => `${e.message}: ${e.details}`)
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

/**
 * What is wrong with a list given to an input: not a link, or the wrong type; a link to a
 * missing node throws MissingLinkedNode.
 */
function linkError(
  workflow: ComfyWorkflow,
  name: string,
  input: InputSpec,
  value: unknown[],
): NodeErrorReason | undefined {
  if (!isLink(value)) return badLink(name, value);
  const from = workflow[value[0]];
  if (!from) throw new MissingLinkedNode(`'${value[0]}'`);
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
      // Python's int() and float(): a float is truncated by int(), a boolean counts as 1 or 0,
      // a string must spell the number; anything else fails with Python's own message.
      const n =
        typeof value === 'number'
          ? input.kind === 'INT'
            ? Math.trunc(value)
            : value
          : typeof value === 'boolean'
            ? Number(value)
            : typeof value === 'string' &&
                value.trim() !== '' &&
                (input.kind === 'FLOAT' || /^\s*[-+]?\d+\s*$/.test(value))
              ? Number(value)
              : Number.NaN;
      if (!Number.isFinite(n)) {
        const message = pythonConversionError(input.kind, value);
        return {
          type: 'invalid_input_type',
          message: `Failed to convert an input value to a ${input.kind} value`,
          details: `${name}, ${value === null ? 'None' : String(value)}, ${message}`,
          extra_info: { input_name: name, received_value: value, exception_message: message },
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
          extra_info: { input_name: name },
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

/** What Python's int() or float() says about a value it cannot convert. */
function pythonConversionError(kind: 'INT' | 'FLOAT', value: unknown): string {
  if (typeof value === 'string') {
    return kind === 'INT'
      ? `invalid literal for int() with base 10: '${value}'`
      : `could not convert string to float: '${value}'`;
  }
  const type = value === null ? 'NoneType' : typeof value === 'number' ? 'float' : 'dict';
  return kind === 'INT'
    ? `int() argument must be a string, a bytes-like object or a real number, not '${type}'`
    : `float() argument must be a string or a real number, not '${type}'`;
}
