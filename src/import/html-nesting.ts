/**
 * Nesting deeper than this is flattened before HTML is parsed into a tree.
 * The tree builders are super-linear in depth: linkedom's parser (htmlparser2
 * keeps its open elements with `unshift`) took 63 s on 300,000 nested `<a>`,
 * Readability about 0.3 s on one chain of 128 nested `<div>` and 1 s on 256,
 * turndown recurses once per level and ran out of stack at 5,000. The 130
 * real pages of Readability's own test set nest at most 38 deep (see
 * BENCHMARKS.md, "Importing hostile HTML"), so 128 leaves every real page whole.
 */
export const MAX_HTML_DEPTH = 128;

// The tree rules of htmlparser2 10 (linkedom's parser), src/Parser.ts: which
// elements an opening tag closes, which never hold anything, and where
// `<x/>` closes itself (inside svg and math).
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name) => [name, FORM] as const),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (name) => [name, P] as const,
  ),
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
]);
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
/** Elements whose content is text up to their closing tag (htmlparser2 10's Tokenizer). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
const isAlpha = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
const endsTagSection = (c: number): boolean => c === 0x2f || c === 0x3e || isSpace(c);

/**
 * HTML with every element nested deeper than `maxDepth` unwrapped: its tags
 * are cut out, its text and everything else stays where it was. Depth is
 * counted as linkedom's parser will build the tree (its tokenizer and tree
 * rules are mirrored here), in one pass over the text without building
 * anything, so the cost is linear whatever the input. Void and raw-text
 * elements are never cut: they hold no elements. HTML within the limit comes
 * back unchanged, the same string.
 */
export function capNesting(html: string, maxDepth = MAX_HTML_DEPTH): string {
  return new NestingCap(html, maxDepth).run();
}

class NestingCap {
  /** Open element names, innermost last, as the parser's stack holds them. */
  private readonly stack: string[] = [];
  /** Whether `<x/>` closes itself here: true inside svg and math. */
  private readonly foreign: boolean[] = [false];
  /** Unwrapped elements by name, whose closing tags are cut too. */
  private readonly unwrapped = new Map<string, number>();
  /** Ranges [start, end) cut out of the text, in order. */
  private readonly cuts: number[] = [];
  /** Where a text `<` just before a cut is written `&lt;`: left as it was it would start a tag with what follows the cut. */
  private readonly escapes = new Set<number>();

  constructor(
    private readonly html: string,
    private readonly maxDepth: number,
  ) {}

  run(): string {
    const { html } = this;
    let at = 0;
    for (let lt = html.indexOf('<'); lt >= 0 && at < html.length; lt = html.indexOf('<', at)) {
      const c = html.charCodeAt(lt + 1);
      if (c === 0x21) at = this.afterDeclaration(lt);
      else if (c === 0x3f) at = this.after('>', lt + 2);
      else if (isAlpha(c)) at = this.openTag(lt);
      else if (c === 0x2f) at = this.closeTag(lt);
      else at = lt + 1;
    }
    if (this.cuts.length === 0) return html;
    const kept: string[] = [];
    let from = 0;
    for (let index = 0; index < this.cuts.length; index += 2) {
      const start = this.cuts[index] ?? html.length;
      if (this.escapes.has(start)) kept.push(html.slice(from, start - 1), '&lt;');
      else kept.push(html.slice(from, start));
      from = this.cuts[index + 1] ?? html.length;
    }
    kept.push(html.slice(from));
    return kept.join('');
  }

  private cut(start: number, end: number): void {
    if (this.html.charCodeAt(start - 1) === 0x3c) this.escapes.add(start);
    this.cuts.push(start, end);
  }

  /** Just past the next `text` at or after `from`, or the end. */
  private after(text: string, from: number): number {
    const found = this.html.indexOf(text, from);
    return found < 0 ? this.html.length : found + text.length;
  }

  /** `<!--…-->` (`<!-->` too), `<![CDATA[…]]>`, `<!DOCTYPE…>`: nothing that opens or closes an element. */
  private afterDeclaration(lt: number): number {
    const { html } = this;
    if (html.charCodeAt(lt + 2) === 0x2d) return html.charCodeAt(lt + 3) === 0x2d ? this.after('-->', lt + 2) : this.after('>', lt + 4);
    if (html.charCodeAt(lt + 2) === 0x5b) {
      const cdata = 'CDATA[';
      let index = 0;
      while (index < cdata.length && html[lt + 3 + index] === cdata[index]) index++;
      return index === cdata.length ? this.after(']]>', lt + 3 + index) : this.after('>', lt + 3 + index);
    }
    // The character after `<!` is taken as part of the declaration, even a `>`.
    return this.after('>', lt + 3);
  }

  private openTag(lt: number): number {
    const { html } = this;
    let nameEnd = lt + 1;
    while (nameEnd < html.length && !endsTagSection(html.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd >= html.length) return html.length;
    const name = html.slice(lt + 1, nameEnd).toLowerCase();
    const tag = this.tagEnd(nameEnd);
    if (tag === undefined) return html.length;
    const { end, selfClosing } = tag;
    // A self-closing `<script/>` holds no raw text: the tokenizer drops its special state at `/>`.
    const rawText = RAW_TEXT.has(name) && !selfClosing;
    if (!VOID.has(name) && !rawText && this.stack.length >= this.maxDepth) {
      this.cut(lt, end + 1);
      // Inside svg and math `<x/>` has no closing tag to cut; a raw-text element's closing tag ends its text, and stays.
      if (!(selfClosing && this.foreign[this.foreign.length - 1] === true) && !RAW_TEXT.has(name)) this.unwrapped.set(name, (this.unwrapped.get(name) ?? 0) + 1);
      return end + 1;
    }
    this.opened(name, selfClosing);
    return rawText ? this.afterRawText(name, end + 1) : end + 1;
  }

  /** The parser's part of an opening tag: implied closes, the push, the foreign context. */
  private opened(name: string, selfClosing: boolean): void {
    const implied = IMPLIES_CLOSE.get(name);
    while (implied && this.stack.length > 0 && implied.has(this.stack[this.stack.length - 1] ?? '')) this.stack.pop();
    if (VOID.has(name)) return;
    this.stack.push(name);
    if (FOREIGN.has(name)) this.foreign.push(true);
    else if (INTEGRATION.has(name)) this.foreign.push(false);
    if (selfClosing && this.foreign[this.foreign.length - 1] === true && this.stack[this.stack.length - 1] === name) this.stack.pop();
  }

  /**
   * Where an opening tag's `>` is, from the end of its name, and whether the
   * tokenizer reads it as `/>`; quoted attribute values are skipped (a `>`
   * in them does not end the tag), and a `/` ending an unquoted value
   * (`<a href=/x/>`) is the value's. Undefined when the text ends first.
   */
  private tagEnd(from: number): { end: number; selfClosing: boolean } | undefined {
    const { html } = this;
    let state: 'before' | 'slash' | 'name' | 'afterName' | 'beforeValue' | 'unquoted' = 'before';
    for (let index = from; index < html.length; index++) {
      const c = html.charCodeAt(index);
      switch (state) {
        case 'slash':
          if (c === 0x3e) return { end: index, selfClosing: true };
          // Anything else is read again as the start of an attribute.
          if (!isSpace(c)) {
            state = 'before';
            index--;
          }
          break;
        case 'before':
          if (c === 0x3e) return { end: index, selfClosing: false };
          if (c === 0x2f) state = 'slash';
          else if (!isSpace(c)) state = 'name';
          break;
        case 'name':
        case 'afterName':
          if (c === 0x3d) state = 'beforeValue';
          else if (c === 0x2f || c === 0x3e) {
            state = 'before';
            index--;
          } else if (isSpace(c)) state = 'afterName';
          else state = 'name';
          break;
        case 'beforeValue':
          if (c === 0x22 || c === 0x27) {
            const close = html.indexOf(c === 0x22 ? '"' : "'", index + 1);
            if (close < 0) return undefined;
            index = close;
            state = 'before';
          } else if (!isSpace(c)) {
            state = 'unquoted';
            index--;
          }
          break;
        case 'unquoted':
          if (c === 0x3e || isSpace(c)) {
            state = 'before';
            index--;
          }
          break;
      }
    }
    return undefined;
  }

  private closeTag(lt: number): number {
    const { html } = this;
    let start = lt + 2;
    while (start < html.length && isSpace(html.charCodeAt(start))) start++;
    const c = html.charCodeAt(start);
    if (c === 0x3e) return start + 1;
    if (!isAlpha(c)) return this.after('>', start + 1);
    let nameEnd = start;
    while (nameEnd < html.length && html.charCodeAt(nameEnd) !== 0x3e && !isSpace(html.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd >= html.length) return html.length;
    const end = this.after('>', nameEnd);
    this.closed(html.slice(start, nameEnd).toLowerCase(), lt, end);
    return end;
  }

  private closed(name: string, start: number, end: number): void {
    const unwrapped = this.unwrapped.get(name) ?? 0;
    if (unwrapped > 0 && !RAW_TEXT.has(name)) {
      this.unwrapped.set(name, unwrapped - 1);
      this.cut(start, end);
      return;
    }
    if (FOREIGN.has(name) || INTEGRATION.has(name)) this.foreign.pop();
    if (VOID.has(name)) return;
    const at = this.stack.lastIndexOf(name);
    if (at >= 0) this.stack.length = at;
  }

  /** Past the closing tag of a raw-text element (`</script` then a space or `>`, any case), which `closeTag` then reads. */
  private afterRawText(name: string, from: number): number {
    const { html } = this;
    const end = `</${name}`;
    for (let lt = html.indexOf('<', from); lt >= 0; lt = html.indexOf('<', lt + 1)) {
      let index = 1;
      // The tokenizer compares `c | 0x20` with the lower-case sequence.
      while (index < end.length && (html.charCodeAt(lt + index) | 0x20) === end.charCodeAt(index)) index++;
      if (index < end.length) continue;
      const after = html.charCodeAt(lt + index);
      if (after === 0x3e || isSpace(after)) return lt;
    }
    return html.length;
  }
}
