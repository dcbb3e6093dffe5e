/**
 * An embedder reads a bounded span of text: USE-lite reads 128 tokens and
 * silently drops the rest (measured: a 150-word text and the same text with
 * 300 more words embed to cosine 1.000). So a note is embedded as windows
 * that each fit what the model reads, and a note's score is its best
 * window's, which lets one relevant passage of a long note win on its own.
 */

/** One window of a text, by position among the text's windows. */
export interface WindowRequest {
  text: string;
  window: number;
}

/** A window's unit vector, and how many windows its text has (at least 1). */
export interface WindowVector {
  vector: number[];
  windows: number;
}

export interface WindowOptions {
  /** Tokens a window holds: the model's reading span. */
  tokens: number;
  /** Tokens repeated at the start of the next window, so a sentence cut at a boundary still shows whole in one of them. */
  overlap: number;
  /** Full windows kept per text: the rest of a very long note is not embedded. */
  maxWindows: number;
  /**
   * Tokens of a lead: a text longer than one window gets a short window of
   * its first words before its full windows (which still start at its
   * start). The first pass embeds only each note's window 0, and a model's
   * cost grows with the tokens it reads (USE-lite: about 0.7 ms a token,
   * plus some 20 ms a call), so a lead makes a long note searchable by its
   * title and first words at a fraction of a full window's cost. Unset: no
   * lead, window 0 is the first full window.
   */
  lead?: number;
}

/**
 * `Embedder#embedWindows` for an embedder that can cut a text into its
 * windows (`windowsOf`) and embed texts: each request's window, embedded in
 * one call, with its text's window count. A text is cut once per call,
 * however many of its windows the call asks for (the second pass asks for
 * several windows of one note at a time).
 */
export async function embedRequestedWindows(
  requests: readonly WindowRequest[],
  windowsOf: (text: string) => readonly string[],
  embed: (texts: string[]) => Promise<number[][]>,
  dimensions: number,
): Promise<WindowVector[]> {
  const cut = new Map<string, readonly string[]>();
  const chosen = requests.map(({ text, window }) => {
    let windows = cut.get(text);
    if (!windows) cut.set(text, (windows = windowsOf(text)));
    return { windows: Math.max(1, windows.length), text: windows[window] ?? '' };
  });
  const vectors = await embed(chosen.map((entry) => entry.text));
  return chosen.map((entry, i) => ({ vector: vectors[i] ?? new Array<number>(dimensions).fill(0), windows: entry.windows }));
}

/**
 * Greedy windows over words of the given token lengths: each window is the
 * longest run of whole words that fits `tokens` (a single longer word is a
 * window alone, cut by the model), and the next starts on the last words
 * that fit in `overlap`. With a `lead`, a text of more than one window
 * starts with the longest run of its first words that fits `lead` (at
 * least one word). Returns [start, end) word ranges. Pure.
 */
export function tokenWindows(lengths: readonly number[], options: WindowOptions): [number, number][] {
  const { tokens, overlap, maxWindows, lead } = options;
  if (!(tokens >= 1) || !(overlap >= 0) || overlap >= tokens || !(maxWindows >= 1) || (lead !== undefined && !(lead >= 1 && lead < tokens))) {
    throw new RangeError('window options need tokens >= 1, 0 <= overlap < tokens, maxWindows >= 1, 1 <= lead < tokens');
  }
  const windows = fullWindows(lengths, tokens, overlap, maxWindows);
  if (lead === undefined || windows.length < 2) return windows;
  let end = 1;
  let used = lengths[0] as number;
  while (end < lengths.length && used + (lengths[end] as number) <= lead) used += lengths[end++] as number;
  return [[0, end], ...windows];
}

function fullWindows(lengths: readonly number[], tokens: number, overlap: number, maxWindows: number): [number, number][] {
  const windows: [number, number][] = [];
  let start = 0;
  while (start < lengths.length && windows.length < maxWindows) {
    let end = start;
    let used = 0;
    while (end < lengths.length && (end === start || used + (lengths[end] as number) <= tokens)) used += lengths[end++] as number;
    windows.push([start, end]);
    if (end >= lengths.length) break;
    let next = end;
    let repeated = 0;
    while (next - 1 > start && repeated + (lengths[next - 1] as number) <= overlap) repeated += lengths[--next] as number;
    start = next;
  }
  return windows;
}

/**
 * The words of a text for windowing: split at whitespace, and words longer
 * than `maxChars` (URLs, text written without spaces) cut into pieces of
 * that many code points, so one word cannot fill a window alone. Pure.
 */
export function windowWords(text: string, maxChars: number): string[] {
  const out: string[] = [];
  for (const word of text.split(/\s+/u)) {
    if (word === '') continue;
    // Array.from splits by code point, so no surrogate pair is cut in half.
    const chars = word.length > maxChars ? Array.from(word) : undefined;
    if (!chars || chars.length <= maxChars) {
      out.push(word);
      continue;
    }
    for (let i = 0; i < chars.length; i += maxChars) out.push(chars.slice(i, i + maxChars).join(''));
  }
  return out;
}
