/**
 * How large one tool answer may be. The stdio transport refuses a message
 * over 10 MiB (the size of its read buffer), and every result is sent twice:
 * as `structuredContent` and as the same JSON inside a text block, where
 * each quote, backslash and control character is escaped once more. The cap
 * leaves room below 10 MiB for the JSON-RPC envelope and for the start of
 * the next message arriving in the same read.
 */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024 - 256 * 1024;

/** The bytes a result takes in an answer, given its JSON: once as structuredContent, once as a JSON string. */
export function answerBytesOfJson(json: string): number {
  return Buffer.byteLength(json) + Buffer.byteLength(JSON.stringify(json));
}

/** The bytes a result (or one item of it, give or take a comma) takes in an answer. */
export function answerBytes(value: unknown): number {
  return answerBytesOfJson(JSON.stringify(value));
}

export function formatMiB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
