/**
 * Names compared the way a person reads them: case-insensitively, under
 * Unicode's full case folding and canonical equivalence. Folder boundaries,
 * folder filters and tags all compare through `foldName`, so that they agree
 * on which names are "the same apart from case". Pure.
 *
 * A folder is a real directory, and a case-sensitive file system can hold
 * several that fold alike (`Work/`, `WORK/`, `work/`, `WOR\u212A/` with a
 * Kelvin sign). A name given for a folder therefore stands for one of them
 * only when that is unambiguous (`resolveName`): the folder spelt exactly
 * so, else the only one that folds alike, else none.
 */

/** Every run of text that is not a dotless ı (U+0131), which full case folding keeps apart from i. */
const NOT_DOTLESS_I = /[^\u0131]+/gu;

/**
 * The key two names are compared by: equal keys mean the names differ only
 * in case or in Unicode normalisation.
 *
 * Its classes are those of Unicode's canonical caseless match (full case
 * folding, C + F in CaseFolding.txt, without the Turkic T mappings, applied
 * to the NFD form): `Straße` = `STRASSE`, `ﬁle` = `FILE`, `ΣΑΣ` = `σας`,
 * `WOR\u212A` (Kelvin sign) = `work`, `Cafe\u0301` = `Café`; `ı` ≠ `i`.
 * JavaScript has no case folding of its own, so it is built from the case
 * mappings: lower case, then upper case (which expands `ß` to `SS`, `ﬁ` to
 * `FI`, and merges `σ`/`ς`, `ϐ`/`β`, `ſ`/`s`, …), then lower case again, on
 * the NFD form, with the result in NFC. Over every code point this gives
 * exactly the classes of Python's `str.casefold()` (test/storage/names.test.ts
 * checks it against a table made from it); the dotless ı is the one
 * character whose upper case (`I`) would merge it with `i`, so it is left
 * as it is. The key is for comparing, not for showing: `Straße` folds to
 * `strasse`.
 */
export function foldName(name: string): string {
  let capitals = false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0x7f) return foldUnicode(name);
    if (c >= 0x41 && c <= 0x5a) capitals = true;
  }
  // ASCII folds by lower case alone, and is already NFC.
  return capitals ? name.toLowerCase() : name;
}

function foldUnicode(name: string): string {
  return name
    .normalize('NFD')
    .replace(NOT_DOTLESS_I, (run) => run.toLowerCase().toUpperCase().toLowerCase())
    .normalize('NFC');
}

/** Every one of `names` that folds like `name` (`name` itself included when it is one), in their order. */
export function foldMatches(name: string, names: Iterable<string>): string[] {
  const key = foldName(name);
  const matches: string[] = [];
  for (const candidate of names) if (foldName(candidate) === key) matches.push(candidate);
  return matches;
}

/**
 * The one of `names` that `name` stands for: `name` itself when it is one of
 * them, else the only one that folds like it; undefined when none does, or
 * more than one does and none is spelt exactly so (ambiguous).
 */
export function resolveName(name: string, names: Iterable<string>): string | undefined {
  const matches = foldMatches(name, names);
  if (matches.includes(name)) return name;
  return matches.length === 1 ? matches[0] : undefined;
}

/**
 * A set of names that also answers `resolveName` and `foldMatches` in
 * constant time, by keeping the names grouped by their folded key as they are
 * added and deleted. Build it empty and `add` to it.
 */
export class FoldedNameSet extends Set<string> {
  private readonly byKey = new Map<string, string[]>();
  /** Counts additions and removals: what a name resolves to can change only when this does. */
  changes = 0;

  override add(name: string): this {
    if (super.has(name)) return this;
    this.changes++;
    super.add(name);
    const key = foldName(name);
    const group = this.byKey.get(key);
    if (group) group.push(name);
    else this.byKey.set(key, [name]);
    return this;
  }

  override delete(name: string): boolean {
    if (!super.delete(name)) return false;
    this.changes++;
    const key = foldName(name);
    const group = this.byKey.get(key);
    if (group) {
      const at = group.indexOf(name);
      if (at >= 0) group.splice(at, 1);
      if (group.length === 0) this.byKey.delete(key);
    }
    return true;
  }

  override clear(): void {
    if (this.size > 0) this.changes++;
    super.clear();
    this.byKey.clear();
  }

  /** The last name resolved and its key: a boundary is resolved with the same name for every note checked. */
  private last: { name: string; key: string } | undefined;

  /** `resolveName(name, this)`. */
  resolve(name: string): string | undefined {
    if (super.has(name)) return name;
    if (this.last?.name !== name) this.last = { name, key: foldName(name) };
    const group = this.byKey.get(this.last.key);
    return group?.length === 1 ? group[0] : undefined;
  }

  /** `foldMatches(name, this)`, in the order the names were added. */
  matches(name: string): string[] {
    return [...(this.byKey.get(foldName(name)) ?? [])];
  }
}
