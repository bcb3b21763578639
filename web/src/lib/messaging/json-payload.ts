export type JsonPayload = { ok: true; data: unknown } | { ok: false; text: string };

const decoder = new TextDecoder();

/** A message's JSON. A payload that is not JSON is logged as a warning, never thrown. */
export function readJsonPayload(topic: string, payload: Uint8Array): JsonPayload {
  const text = decoder.decode(payload);
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    console.warn(`Ignoring a message that is not JSON on ${topic}:`, text);
    return { ok: false, text };
  }
}
