/**
 * The leaves of a body in reading order, as they read with its comments in
 * place: a leaf an open comment hides is skipped, a leaf a comment ends in
 * starts after the comment, and code or HTML a comment ends in is read again
 * as Markdown (see Comments.readAgain).
 */
import { LEAF_INLINE, parseBlocks, type Blocks } from './blocks.js';
import { isClosingPunctuation } from './chars.js';
import { Comments } from './comments.js';

export class VisibleLeaves {
  readonly blocks: Blocks;
  /** For a body that holds a `%%`: its comments, followed from leaf to leaf. */
  readonly comments: Comments | null;
  /** The current leaf's kind (LEAF_INLINE, LEAF_LITERAL or LEAF_HTML). */
  kind = LEAF_INLINE;
  /** The current leaf's visible text. */
  text = '';
  /**
   * Whether the current leaf's start was hidden by a comment and its rest
   * starts with punctuation: then it joins the leaf before it without a space.
   */
  glued = false;
  private k = -1;
  private glueNext = false;

  /** `keepLiteral`: see parseBlocks. */
  constructor(body: string, keepLiteral: boolean) {
    this.blocks = parseBlocks(body, keepLiteral);
    this.comments = body.indexOf('%%') >= 0 ? new Comments(this.blocks.texts) : null;
  }

  /** Moves to the next visible leaf; false after the last. */
  next(): boolean {
    const { kinds, texts } = this.blocks;
    const comments = this.comments;
    for (this.k++; this.k < kinds.length; this.k++) {
      const k = this.k;
      let text = texts[k] ?? '';
      const kind = kinds[k] ?? LEAF_INLINE;
      let glued = this.glueNext;
      this.glueNext = false;
      if (comments) {
        comments.leaf = k;
        const from = comments.visibleFrom(text);
        if (from < 0) continue;
        if (from > 0) {
          glued = isClosingPunctuation(text, from);
          if (kind !== LEAF_INLINE) {
            comments.readAgain(this.blocks, k, text.slice(from));
            this.glueNext = glued; // for the first of the leaves read again,
            this.k--; // which take this one's place and come next
            continue;
          }
          text = text.slice(from);
        }
      }
      this.kind = kind;
      this.text = text;
      this.glued = glued;
      return true;
    }
    return false;
  }
}
