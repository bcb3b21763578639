/**
 * The JSON shapes of ComfyUI's HTTP and websocket API (ComfyUI `server.py`, `execution.py`,
 * `main.py`), as far as Tessera reads or writes them. Shared by the adapter and the stand-in
 * server of the tests, so both speak the same shapes.
 */

/** One node of a workflow in API format ("Save (API Format)" in ComfyUI). */
export interface ComfyNode {
  class_type: string;
  /** Literals, or links `[node id, output index]` to another node's output. */
  inputs: Record<string, unknown>;
  _meta?: { title?: string };
}

/** A workflow in API format: node id → node. Node ids are strings ("585", "3"). */
export type ComfyWorkflow = Record<string, ComfyNode>;

/** POST /prompt body. */
export interface QueuePromptRequest {
  prompt: ComfyWorkflow;
  client_id?: string;
  extra_data?: Record<string, unknown>;
  front?: boolean;
  number?: number;
}

/** POST /prompt answer, 200. */
export interface QueuePromptResponse {
  prompt_id: string;
  number: number;
  node_errors: Record<string, NodeError>;
}

/** One reason a node failed validation (execution.py validate_inputs). */
export interface NodeErrorReason {
  type: string;
  message: string;
  details: string;
  extra_info?: Record<string, unknown>;
}

export interface NodeError {
  errors: NodeErrorReason[];
  dependent_outputs: string[];
  class_type: string;
}

/** POST /prompt answer, 400: the prompt failed validation. */
export interface PromptErrorResponse {
  error: NodeErrorReason | string;
  node_errors: Record<string, NodeError> | [];
}

/** A queue entry as GET /queue lists it: [number, prompt_id, prompt, extra_data, outputs_to_execute]. */
export type QueueItem = [number, string, ComfyWorkflow, Record<string, unknown>, string[]];

/** GET /queue. */
export interface QueueResponse {
  queue_running: QueueItem[];
  queue_pending: QueueItem[];
}

/** GET /prompt, and the `status` websocket message's `data.status`. */
export interface QueueInfo {
  exec_info: { queue_remaining: number };
}

/** An image a node wrote, as `executed` and /history name it; fetched with GET /view. */
export interface ComfyImageRef {
  filename: string;
  subfolder: string;
  type: 'output' | 'temp' | 'input' | string;
}

/** POST /upload/image answer. */
export interface UploadImageResponse {
  name: string;
  subfolder: string;
  type: string;
}

/** One prompt in GET /history/{prompt_id} (the answer is `{ [prompt_id]: HistoryEntry }`). */
export interface HistoryEntry {
  prompt: QueueItem;
  outputs: Record<string, { images?: ComfyImageRef[] } & Record<string, unknown>>;
  status?: {
    status_str: 'success' | 'error';
    completed: boolean;
    messages: [string, Record<string, unknown>][];
  };
  meta?: Record<string, unknown>;
}

/** One node class as GET /object_info describes it (only what Tessera reads). */
export interface ObjectInfoNode {
  input: {
    required?: Record<string, unknown[]>;
    optional?: Record<string, unknown[]>;
  };
  output_node?: boolean;
}

/** GET /object_info: class_type → its description. */
export type ObjectInfo = Record<string, ObjectInfoNode>;

/** GET /system_stats (only what Tessera reads). */
export interface SystemStats {
  system: { comfyui_version?: string; os?: string } & Record<string, unknown>;
  devices?: { name: string; type: string; vram_total?: number }[];
}

/** The JSON websocket messages (`{type, data}`) a client of /ws?clientId=... receives. */
export type ComfyWsMessage =
  | { type: 'status'; data: { status: QueueInfo; sid?: string } }
  | { type: 'execution_start'; data: { prompt_id: string; timestamp?: number } }
  | { type: 'execution_cached'; data: { nodes: string[]; prompt_id: string; timestamp?: number } }
  | {
      type: 'executing';
      data: { node: string | null; display_node?: string | null; prompt_id: string };
    }
  | { type: 'progress'; data: { value: number; max: number; prompt_id: string; node: string } }
  | {
      type: 'progress_state';
      data: {
        prompt_id: string;
        nodes: Record<
          string,
          { value: number; max: number; state: 'pending' | 'running' | 'finished' | 'error' }
        >;
      };
    }
  | {
      type: 'executed';
      data: {
        node: string;
        display_node?: string;
        output: Record<string, unknown>;
        prompt_id: string;
      };
    }
  | { type: 'execution_success'; data: { prompt_id: string; timestamp?: number } }
  | {
      type: 'execution_error';
      data: {
        prompt_id: string;
        node_id: string;
        node_type: string;
        executed: string[];
        exception_message: string;
        exception_type: string;
        traceback: string[];
        current_inputs: unknown;
        current_outputs: unknown;
        timestamp?: number;
      };
    }
  | {
      type: 'execution_interrupted';
      data: {
        prompt_id: string;
        node_id: string;
        node_type: string;
        executed: string[];
        timestamp?: number;
      };
    };

/**
 * Binary websocket frames: a 4-byte big-endian event type, then the payload. The types that go
 * over the wire (server.py BinaryEventTypes; UNENCODED_PREVIEW_IMAGE, 2, is encoded to 1 before
 * it is sent): a preview image, text (node id length, node id, text), a preview image with a
 * JSON metadata header (to clients that announced `supports_preview_metadata`).
 */
export const BINARY_EVENT = { PREVIEW_IMAGE: 1, TEXT: 3, PREVIEW_IMAGE_WITH_METADATA: 4 } as const;
/** The 4-byte big-endian image type that starts a PREVIEW_IMAGE payload. */
export const PREVIEW_IMAGE_TYPE = { JPEG: 1, PNG: 2 } as const;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A link input `[node id, output index]`. */
export function isLink(value: unknown): value is [string, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'number'
  );
}
