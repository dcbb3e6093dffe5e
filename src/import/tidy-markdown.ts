/*
 * Kept apart from html-markdown.ts (turndown and linkedom), so that the
 * e-mail importer, which the command line imports, does not load those
 * libraries at every start of the server; see feed-bytes.ts.
 */

/** Trailing spaces off every line, at most one blank line in a row, no blank lines at either end. */
export function tidyMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
