/**
 * The block pass: CommonMark's container/leaf line algorithm, reduced to what
 * tags and plain text need. Block quotes, list items and footnote definitions
 * are the containers; paragraphs, headings, fenced and indented code, HTML
 * blocks, tables and link reference definitions the leaves. It yields the
 * leaves in order, each as its kind and its text (a table as its cells, a
 * task's checkbox as a literal leaf of its own), plus the set of defined
 * reference labels, which the inline pass needs before it starts: whether
 * `![alt][ref]` is an image depends on a definition that may come later.
 */
import {
  atxLevel,
  calloutTitle,
  continuesParagraph,
  DEFINITION_TITLE,
  expandIndent,
  fenceOpening,
  FOOTNOTE_DEF,
  htmlBlockEnd,
  htmlStartLength,
  isBlankFrom,
  isLoneTagLine,
  LINK_DEFINITION,
  listMarkerAt,
  SETEXT_UNDERLINE,
  spacesAt,
  splitCells,
  TABLE_DELIMITER,
  TASK_MARKER_LENGTH,
  taskState,
  THEMATIC_BREAK,
  withoutClosingSequence,
} from './block-syntax.js';
import { CARET, COLON, CR, DASH, EQUALS, GT, HASH, LBRACKET, LT, normalizeLabel, PIPE, runLength, STAR, UNDERSCORE } from './chars.js';

export const LEAF_INLINE = 0; // paragraph, heading or table cell: inline Markdown
export const LEAF_LITERAL = 1; // text shown as it is: fenced or indented code, a task's checkbox
export const LEAF_HTML = 2; // an HTML block

export interface Blocks {
  kinds: number[];
  texts: string[];
  /** Normalized labels of link reference definitions; footnotes as `^label`. */
  defs: Set<string>;
}

/**
 * The blocks of a body. `keepLiteral` false skips collecting the text of code
 * and HTML blocks (and task checkboxes), which tags never look at.
 */
export function parseBlocks(body: string, keepLiteral: boolean): Blocks {
  const parser = new BlockParser(keepLiteral);
  let start = 0;
  for (;;) {
    let nl = body.indexOf('\n', start);
    if (nl < 0) nl = body.length;
    let end = nl;
    if (end > start && body.charCodeAt(end - 1) === CR) end--;
    parser.readLine(body.slice(start, end));
    if (nl >= body.length) break;
    start = nl + 1;
  }
  parser.closeLeaf();
  return { kinds: parser.kinds, texts: parser.texts, defs: parser.defs };
}

const CONTAINER_QUOTE = 0;
const CONTAINER_ITEM = 1; // list item or footnote definition

interface Container {
  kind: number;
  /** Items: the column where their content starts. */
  col: number;
  /** Items: opened on a line with no content and no content line since. */
  empty: boolean;
}

/** The leaf block left open by the lines read so far. */
const enum Open {
  None,
  Paragraph,
  Fenced,
  Indented,
  Html,
  Table,
}

/**
 * Reads a body line by line. Each line goes through the steps of CommonMark's
 * algorithm, one method each: which open containers it continues, whether an
 * open fence or HTML block swallows it, which containers it opens, whether it
 * lazily continues a paragraph, and what leaf it starts or continues.
 */
class BlockParser {
  readonly kinds: number[] = [];
  readonly texts: string[] = [];
  readonly defs = new Set<string>();
  private readonly stack: Container[] = [];
  private open = Open.None;
  private paragraph: string[] = [];
  private literal: string[] = [];
  private pendingBlankLines = 0;
  private fenceChar = 0;
  private fenceLength = 0;
  private htmlEnd: RegExp | null = null;
  /** A definition without a title may take one from the next line. */
  private titleMayFollow = false;

  // The line being read, tab-expanded as far as it has been measured, and the position in it.
  private line = '';
  private p = 0;
  /**
   * End of the (tab-expanded) run of spaces holding `p`, so that a line
   * inside many nested items measures its indentation once, not per item.
   */
  private spacesEnd = -1;
  /** How many open containers the line continues. */
  private matched = 0;
  /** Whether the line opened a container. */
  private opened = false;

  constructor(private readonly keepLiteral: boolean) {}

  readLine(raw: string): void {
    this.line = raw;
    this.p = 0;
    this.spacesEnd = -1;
    const allMatched = this.matchContainers();
    // Literal blocks swallow their lines before any block start is looked for.
    if (allMatched && this.open === Open.Fenced) return this.continueFence();
    if (allMatched && this.open === Open.Html) return this.continueHtml();
    this.openContainers(allMatched);

    const ind = this.indent();
    const q = this.p + ind;
    const blank = q >= this.line.length;
    if (this.opened && ind < 4 && this.line.charCodeAt(q) === LBRACKET && this.takeCalloutTitle(q)) return;
    // A line that leaves some containers unmatched either lazily continues a paragraph or closes them.
    if (!this.opened && !allMatched) {
      if (this.continuesLazily(ind, q, blank)) return;
      this.closeTo(this.matched);
    }
    this.readLeaf(ind, q, blank);
  }

  /** The width of the run of spaces at `p`, its tabs expanded. */
  private indent(): number {
    if (this.p > this.spacesEnd) {
      this.line = expandIndent(this.line, this.p);
      this.spacesEnd = this.p + spacesAt(this.line, this.p);
    }
    return this.spacesEnd - this.p;
  }

  private emit(kind: number, text: string): void {
    this.kinds.push(kind);
    this.texts.push(text);
  }

  private emitCells(row: string): void {
    for (const cell of splitCells(row)) if (cell !== '') this.emit(LEAF_INLINE, cell);
  }

  closeLeaf(): void {
    const open = this.open;
    if (open === Open.Paragraph && this.paragraph.length > 0) this.emit(LEAF_INLINE, this.paragraph.join('\n'));
    else if ((open === Open.Fenced || open === Open.Indented) && this.keepLiteral) this.emit(LEAF_LITERAL, this.literal.join('\n'));
    else if (open === Open.Html && this.keepLiteral) this.emit(LEAF_HTML, this.literal.join('\n'));
    this.open = Open.None;
    this.paragraph = [];
    this.literal = [];
    this.pendingBlankLines = 0;
    this.titleMayFollow = false;
  }

  private closeTo(depth: number): void {
    this.closeLeaf();
    this.stack.length = depth;
  }

  /** Step 1: which open containers the line continues; true when all of them. */
  private matchContainers(): boolean {
    const stack = this.stack;
    let matched = 0;
    for (; matched < stack.length; matched++) {
      const container = stack[matched]!;
      const ind = this.indent();
      if (container.kind === CONTAINER_QUOTE) {
        if (ind > 3 || this.line.charCodeAt(this.p + ind) !== GT) break;
        this.p += ind + 1;
        if (this.indent() > 0) this.p++;
      } else if (this.p + ind >= this.line.length) {
        // A blank line continues an item, unless the item has had no content yet.
        if (container.empty) break;
      } else if (this.p + ind >= container.col) {
        this.p = container.col;
        container.empty = false;
      } else break;
    }
    this.matched = matched;
    return matched === stack.length;
  }

  /** Step 2, in a fenced code block: its closing fence or one more line of code. */
  private continueFence(): void {
    const ind = this.indent();
    const q = this.p + ind;
    const line = this.line;
    const run = runLength(line, q, this.fenceChar);
    if (ind <= 3 && run >= this.fenceLength && isBlankFrom(line, q + run)) this.closeLeaf();
    else if (this.keepLiteral) this.literal.push(line.slice(this.p));
  }

  /** Step 2, in an HTML block: one more line of it, which may end it. */
  private continueHtml(): void {
    const rest = this.line.slice(this.p);
    if (this.htmlEnd === null && isBlankFrom(rest, 0)) {
      this.closeLeaf();
      return;
    }
    if (this.keepLiteral) this.literal.push(rest);
    if (this.htmlEnd !== null && this.htmlEnd.test(rest)) this.closeLeaf();
  }

  /** Step 3: new containers, block quotes, list items and footnote definitions, as many as the line starts. */
  private openContainers(allMatched: boolean): void {
    this.opened = false;
    for (;;) {
      const ind = this.indent();
      if (ind >= 4) return;
      const q = this.p + ind;
      const c = this.line.charCodeAt(q);
      if (c === GT) this.openQuote(q);
      else if (!this.openListItem(q, this.open === Open.Paragraph && allMatched && !this.opened)) {
        if (c !== LBRACKET || this.line.charCodeAt(q + 1) !== CARET || !this.openFootnote(q)) return;
      }
    }
  }

  private push(container: Container): void {
    if (!this.opened) {
      this.closeTo(this.matched);
      this.opened = true;
    }
    this.stack.push(container);
  }

  private openQuote(q: number): void {
    this.push({ kind: CONTAINER_QUOTE, col: 0, empty: false });
    this.p = q + 1;
    if (this.indent() > 0) this.p++;
  }

  private openListItem(q: number, interruptsParagraph: boolean): boolean {
    const marker = listMarkerAt(this.line, q, interruptsParagraph);
    if (!marker) return false;
    this.push({ kind: CONTAINER_ITEM, col: marker.col, empty: marker.empty });
    this.line = marker.line;
    this.p = marker.contentPos;
    // A task list item's `[ ]` / `[x]` is a checkbox: its state is text of
    // its own, and the item's content starts after it.
    const task = taskState(this.line, this.p);
    if (task !== '') {
      this.p += TASK_MARKER_LENGTH;
      if (this.keepLiteral) this.emit(LEAF_LITERAL, task);
    }
    return true;
  }

  private openFootnote(q: number): boolean {
    FOOTNOTE_DEF.lastIndex = q;
    const def = FOOTNOTE_DEF.exec(this.line);
    if (!def) return false;
    this.defs.add('^' + normalizeLabel(def[1] ?? ''));
    // Its continuation lines are indented four columns past where it starts.
    this.push({ kind: CONTAINER_ITEM, col: this.p + 4, empty: false });
    this.p = FOOTNOTE_DEF.lastIndex;
    this.p += this.indent();
    return true;
  }

  /** An Obsidian callout's first line: its title is a line of its own. */
  private takeCalloutTitle(q: number): boolean {
    if (this.stack[this.stack.length - 1]?.kind !== CONTAINER_QUOTE) return false;
    const title = calloutTitle(this.line, q);
    if (title === null) return false;
    if (title !== '') this.emit(LEAF_INLINE, title);
    return true;
  }

  /** Step 4: whether a line that leaves containers unmatched still belongs to the open paragraph. */
  private continuesLazily(ind: number, q: number, blank: boolean): boolean {
    if (this.open !== Open.Paragraph || blank) return false;
    const line = this.line;
    if (line.charCodeAt(q) === LT && ind < 4 && isLoneTagLine(line.slice(q))) {
      // micromark reads a lone tag on a lazy line as a one-line HTML block
      // inside the paragraph's containers; the next line closes them.
      this.closeLeaf();
      if (this.keepLiteral) this.emit(LEAF_HTML, line.slice(q));
      return true;
    }
    if (!continuesParagraph(line, this.p)) return false;
    if (this.paragraph.length === 0 && this.takeDefinitionLine(line.slice(q))) return true;
    this.paragraph.push(line.slice(q));
    return true;
  }

  /** Step 5: the leaf block the line starts or continues. */
  private readLeaf(ind: number, q: number, blank: boolean): void {
    if (blank) {
      if (this.open === Open.Paragraph || this.open === Open.Table) this.closeLeaf();
      else if (this.open === Open.Indented) this.pendingBlankLines++;
      return;
    }
    if (ind >= 4 && this.open !== Open.Paragraph) {
      this.continueIndentedCode();
      return;
    }
    if (this.open === Open.Indented) this.closeLeaf();
    const rest = this.line.slice(q);
    if (ind >= 4) {
      // Only a paragraph gets here with four columns of indentation: it continues.
      this.paragraph.push(rest);
      return;
    }
    if (this.startsBlock(q, rest)) return;
    if (this.open === Open.Table) {
      this.emitCells(rest);
      return;
    }
    if ((this.open === Open.None || (this.open === Open.Paragraph && this.paragraph.length === 0)) && this.takeDefinitionLine(rest)) return;
    if (this.open !== Open.Paragraph) {
      this.closeLeaf();
      this.open = Open.Paragraph;
    }
    this.paragraph.push(rest);
  }

  private continueIndentedCode(): void {
    if (this.open !== Open.Indented) {
      this.closeLeaf();
      this.open = Open.Indented;
    }
    if (this.keepLiteral) {
      for (; this.pendingBlankLines > 0; this.pendingBlankLines--) this.literal.push('');
      this.literal.push(this.line.slice(this.p + 4));
    }
  }

  /**
   * A leaf that a line of at most three columns of indentation starts, or
   * that turns the open paragraph into something else: a code fence, an ATX
   * heading, a setext underline, a thematic break, an HTML block, a table's
   * delimiter row. False when the line is none of these.
   */
  private startsBlock(q: number, rest: string): boolean {
    const c = this.line.charCodeAt(q);
    const fence = fenceOpening(this.line, q);
    if (fence > 0) {
      this.closeLeaf();
      this.open = Open.Fenced;
      this.fenceChar = c;
      this.fenceLength = fence;
      return true;
    }
    const level = c === HASH ? atxLevel(this.line, q) : 0;
    if (level > 0) {
      this.closeLeaf();
      const heading = withoutClosingSequence(this.line.slice(q + level).trim());
      if (heading !== '') this.emit(LEAF_INLINE, heading);
      return true;
    }
    const inParagraph = this.open === Open.Paragraph && this.paragraph.length > 0;
    if (inParagraph && (c === EQUALS || c === DASH) && SETEXT_UNDERLINE.test(rest)) {
      this.closeLeaf(); // the paragraph becomes a heading; its underline is markup
      return true;
    }
    if ((c === STAR || c === DASH || c === UNDERSCORE) && THEMATIC_BREAK.test(rest)) {
      this.closeLeaf();
      return true;
    }
    if (c === LT && this.startHtml(rest)) return true;
    return inParagraph && (c === PIPE || c === COLON || c === DASH) && this.startTable(rest);
  }

  private startHtml(rest: string): boolean {
    const end = htmlBlockEnd(rest, this.open === Open.Paragraph);
    if (end === undefined) return false;
    this.closeLeaf();
    this.open = Open.Html;
    this.htmlEnd = end;
    if (this.keepLiteral) this.literal.push(rest);
    if (end !== null && end.test(rest.slice(htmlStartLength(end)))) this.closeLeaf();
    return true;
  }

  /** A delimiter row under the paragraph's last line, the header row, when the cell counts agree. */
  private startTable(rest: string): boolean {
    if (!TABLE_DELIMITER.test(rest)) return false;
    const header = this.paragraph[this.paragraph.length - 1] ?? '';
    if (!rest.includes('|') && !rest.includes(':')) return false;
    if (splitCells(header).length !== splitCells(rest).length) return false;
    this.paragraph.pop();
    if (this.paragraph.length > 0) this.emit(LEAF_INLINE, this.paragraph.join('\n'));
    this.paragraph = [];
    this.open = Open.Table;
    this.emitCells(header);
    return true;
  }

  /**
   * Link reference definitions open a paragraph, as CommonMark reads them off
   * its start: what follows continues it (an indented or lazy line is not a
   * new block), and a definition without a title may take one from the next line.
   */
  private takeDefinitionLine(rest: string): boolean {
    const afterDefinition = this.titleMayFollow;
    this.titleMayFollow = false;
    if (afterDefinition && DEFINITION_TITLE.test(rest)) return true;
    if (rest.charCodeAt(0) !== LBRACKET) return false;
    const def = LINK_DEFINITION.exec(rest);
    if (!def) return false;
    this.defs.add(normalizeLabel(def[1] ?? ''));
    this.open = Open.Paragraph;
    this.titleMayFollow = def[2] === undefined;
    return true;
  }
}
