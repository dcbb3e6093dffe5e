import { toPlainText } from '../../vault/markdown.js';

/** What semantic search embeds for a note: its title, then its body as plain text. */
export function embeddingText(title: string, body: string): string {
  return `${title}\n\n${toPlainText(body)}`;
}
