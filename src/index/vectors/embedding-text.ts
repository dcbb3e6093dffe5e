import { toPlainText } from '../../format/markdown.js';

/** What semantic search embeds for a note: its title, then its body as plain text. */
export function embeddingText(title: string, body: string): string {
  return embeddingTextOfPlain(title, toPlainText(body));
}

/** `embeddingText` for a body already made plain. */
export function embeddingTextOfPlain(title: string, plain: string): string {
  return `${title}\n\n${plain}`;
}
