/**
 * A note body as numbered lines, the way get_note's `from_line` and
 * `lines`, and edit_note's sections, count them: line 1 is the first line
 * after the frontmatter; `\r\n`, `\r` alone (an old Mac file) and `\n` each
 * end a line; a final line break ends the last line and does not start an
 * empty one after it. An empty body has no lines.
 */

/**
 * Where each line of `body` starts, and then where the body ends: line n
 * (1-based) is `body.slice(starts[n - 1], starts[n])`, its own line break
 * included, so consecutive lines put together give the body back byte for
 * byte. `starts.length - 1` is the number of lines.
 */
export function lineStarts(body: string): number[] {
  const starts = [0];
  const length = body.length;
  // Scanned by hand: a regular expression over a 4 MiB body would build an array of every match first.
  for (let i = 0; i < length; i++) {
    const code = body.charCodeAt(i);
    if (code === 10) starts.push(i + 1);
    else if (code === 13) {
      if (body.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  // The last line, unless the body ended with a line break (or is empty): it ends at the body's end.
  if (starts[starts.length - 1] !== length) starts.push(length);
  return starts;
}

/** How many lines `body` has. */
export function lineCount(body: string): number {
  return lineStarts(body).length - 1;
}
