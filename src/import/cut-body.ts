/**
 * The most of an imported body a note holds: 256 KiB of Markdown, some
 * eighty pages of text. A longer body is a mailing-list digest, a log or a
 * book pasted into a mail; as a note it would be slow to open, to search and
 * to send to an assistant, and the whole of it is kept elsewhere (the `.eml`
 * or saved page attached to the note, or the article's address).
 */
export const BODY_LIMIT_BYTES = 256 * 1024;

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** The fence a body leaves open at its end (a cut inside a code block), to be closed after it; '' when none. */
function openFence(text: string): string {
  let open = '';
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === '') open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = '';
  }
  return open;
}

function kibibytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;
}

/**
 * `body`, or when it is longer than `limit` bytes of UTF-8 its start, cut at
 * a paragraph or line end where one is near, a code block it cuts into
 * closed, and then a line that says so and where the whole is (`whole`: "it
 * is kept whole in the attached .eml file"). `wholeBytes`: the size of the
 * whole when `body` is already only its start.
 */
export function cutBody(body: string, whole: string, limit = BODY_LIMIT_BYTES, wholeBytes?: number): string {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= limit) return body;
  let end = limit;
  // Not inside a character: back to the first byte of the one the limit falls in.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  let head = bytes.subarray(0, end).toString('utf8');
  const near = Math.floor(head.length * 0.75);
  const paragraph = head.lastIndexOf('\n\n');
  const line = head.lastIndexOf('\n');
  if (paragraph >= near) head = head.slice(0, paragraph);
  else if (line >= near) head = head.slice(0, line);
  head = head.trimEnd();
  const fence = openFence(head);
  if (fence !== '') head += `\n${fence}`;
  return `${head}\n\n(Cut here: this note holds the first ${kibibytes(Buffer.byteLength(head))} of ${kibibytes(Math.max(wholeBytes ?? 0, bytes.length))} of text; ${whole}.)\n`;
}
