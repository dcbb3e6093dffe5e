/**
 * Obsidian's `%%comments%%`, followed across the leaves of one body: a `%%`
 * outside code opens a comment and the next `%%` closes it, wherever that
 * is, block structure and code included, since nothing inside a comment is
 * Markdown. A `%%` that nothing closes is literal text. The inline pass
 * decides where a comment opens (it knows what is code); this follows the
 * comment from leaf to leaf, and reads a leaf again when a comment ends in
 * the middle of what the block pass took for code or HTML.
 */
import { LEAF_INLINE, parseBlocks, type Blocks } from './blocks.js';

export class Comments {
  /** A comment opened in an earlier leaf is still open. */
  open = false;
  /** The index of the leaf being scanned. */
  leaf = 0;
  /** The last leaf holding a `%%`; -2 until needed. */
  private lastWithMarker = -2;

  constructor(private readonly texts: readonly string[]) {}

  /**
   * Where the visible part of a leaf starts: 0 with no comment open, after
   * the closing `%%` when one is, -1 when the open comment hides all of it.
   */
  visibleFrom(text: string): number {
    if (!this.open) return 0;
    const close = text.indexOf('%%');
    if (close < 0) return -1;
    this.open = false;
    return close + 2;
  }

  /**
   * When a comment ends inside what the block pass read as code or HTML, the
   * block's start was in the comment, so it is no block: the rest of its text
   * (`rest`) is read again, in place of leaf `k`. What follows the `%%` on
   * its line continues the line the comment began on, so it is prose; the
   * lines after it are read as blocks.
   */
  readAgain(blocks: Blocks, k: number, rest: string): void {
    const newline = rest.indexOf('\n');
    const line = (newline < 0 ? rest : rest.slice(0, newline)).trim();
    const again = parseBlocks(newline < 0 ? '' : rest.slice(newline + 1), true);
    if (line !== '') {
      again.kinds.unshift(LEAF_INLINE);
      again.texts.unshift(line);
    }
    blocks.kinds.splice(k, 1, ...again.kinds);
    blocks.texts.splice(k, 1, ...again.texts);
    for (const label of again.defs) blocks.defs.add(label);
    this.lastWithMarker = -2;
  }

  /** Whether a leaf after the current one holds a `%%`, which would close a comment left open. */
  closedLater(): boolean {
    if (this.lastWithMarker === -2) {
      let k = this.texts.length - 1;
      while (k >= 0 && (this.texts[k] ?? '').indexOf('%%') < 0) k--;
      this.lastWithMarker = k;
    }
    return this.lastWithMarker > this.leaf;
  }
}
