/**
 * MiniSearch's radix tree (its SearchableMap's `_tree`), made in one pass
 * from words in ascending order: a node is a Map from the labels of its
 * branches (no two starting with the same character) to the nodes below,
 * and the empty label holds the value of the word that ends there.
 * Inserting words one by one looks for each word's branch among all a
 * node's branches, which costs time in proportion to the branches at every
 * level; here each word is looked at once per level it runs through.
 */
export type TreeNode<T> = Map<string, T | TreeNode<T>>;

const LEAF = '';

/** The tree of `entries`, whose words must ascend (by UTF-16 code units, as `<` compares) and differ. */
export function radixTreeOf<T>(entries: readonly (readonly [string, T])[]): TreeNode<T> {
  return build(entries, 0, entries.length, 0);
}

function build<T>(entries: readonly (readonly [string, T])[], from: number, to: number, depth: number): TreeNode<T> {
  const node: TreeNode<T> = new Map();
  let at = from;
  const first = entries[at];
  // In ascending order the word that ends here comes first.
  if (first !== undefined && at < to && first[0].length === depth) {
    node.set(LEAF, first[1]);
    at++;
  }
  while (at < to) {
    const key = (entries[at] as readonly [string, T])[0];
    const unit = key.charCodeAt(depth);
    let end = at + 1;
    while (end < to && (entries[end] as readonly [string, T])[0].charCodeAt(depth) === unit) end++;
    // The group's common prefix is that of its first and last words.
    const last = (entries[end - 1] as readonly [string, T])[0];
    let common = depth + 1;
    while (common < key.length && common < last.length && key.charCodeAt(common) === last.charCodeAt(common)) common++;
    node.set(key.slice(depth, common), build(entries, at, end, common));
    at = end;
  }
  return node;
}
