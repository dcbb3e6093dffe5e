/*
 * What the semantic index's vectors and its HNSW graph take in memory,
 * computed from counts, dimensions and the graph's link parameters, not
 * measured: the rest of the process's memory (the model, the full-text
 * index, the store's maps of labels and notes) is not in these figures.
 * The graph's layout is hnswlib's (0.8.0, inside hnswlib-node 3.0.0), which
 * keeps its own copy of every vector beside its links.
 */

/** The float32 vectors the index keeps in JavaScript (ChunkStore). */
export interface StoreShape {
  /** Vectors in the store. */
  chunks: number;
  dimensions: number;
  /**
   * The block a snapshot was read into, when some of its vectors are still
   * in the store: they are views of it, so it stays whole (`floats` long)
   * until the last one of them (`live`) is replaced or removed.
   */
  loadedBlock?: { floats: number; live: number } | undefined;
}

/** An hnswlib graph's size. */
export interface GraphShape {
  /** Slots in use, deleted ones included (hnswlib's getCurrentCount): a deleted slot keeps its vector until a new one takes it. */
  elements: number;
  /** Slots allocated (getMaxElements); only their bookkeeping is touched before they are used. */
  capacity: number;
  dimensions: number;
  /** Links per node above level 0 (hnswlib's maxM, the M it was built with). */
  m: number;
  /** Links per node at level 0 (maxM0, 2 × M). */
  m0: number;
}

export interface GraphBytes {
  /** hnswlib's own copy of the vectors: elements × dimensions × 4. */
  vectors: number;
  /**
   * Level-0 links, elements × (m0 + 1) × 4 (the links and their count), and
   * the upper levels' expected, elements × (m + 1) × 4 / (m − 1): a node
   * reaches level l with probability M^-l, so it has 1 / (M − 1) upper levels
   * on average.
   */
  links: number;
  /**
   * Per slot in use: its label (8 bytes), its pointer to upper links (8) and
   * its entry in the label lookup (about 40); per slot allocated: its lock
   * (40), its level (4) and its mark in the visited list (2); and 65,536
   * label locks (40 each).
   */
  bookkeeping: number;
  total: number;
}

export interface VectorMemory {
  /** Bytes of the store's vectors (storeVectorBytes). */
  vectors: number;
  /** The graph's, when there is one (complete or being built). */
  graph: GraphBytes | undefined;
}

const FLOAT = 4;
const LINK = 4;
const LABEL = 8;
const POINTER = 8;
/** An std::unordered_map<size_t, unsigned> node (24 bytes, 32 as allocated) and its bucket pointer. */
const LOOKUP_ENTRY = 40;
/** sizeof(std::mutex) with glibc on 64-bit Linux. */
const MUTEX = 40;
const LEVEL = 4;
const VISITED_MARK = 2;
const LABEL_LOCKS = 65_536;

/** Bytes of the store's float32 vectors: chunks × dimensions × 4, and the unused rest of a loaded block that some of them keep alive. */
export function storeVectorBytes(shape: StoreShape): number {
  const own = shape.chunks * shape.dimensions * FLOAT;
  const block = shape.loadedBlock;
  if (!block || block.live === 0) return own;
  return own + (block.floats - block.live * shape.dimensions) * FLOAT;
}

/** Bytes an hnswlib graph of this shape takes (GraphBytes says what is counted). */
export function hnswGraphBytes(shape: GraphShape): GraphBytes {
  const { elements, capacity, dimensions, m, m0 } = shape;
  const vectors = elements * dimensions * FLOAT;
  const upperLevels = m > 1 ? elements / (m - 1) : 0;
  const links = Math.round(elements * (m0 + 1) * LINK + upperLevels * (m + 1) * LINK);
  const bookkeeping = elements * (LABEL + POINTER + LOOKUP_ENTRY) + capacity * (MUTEX + LEVEL + VISITED_MARK) + LABEL_LOCKS * MUTEX;
  return { vectors, links, bookkeeping, total: vectors + links + bookkeeping };
}

/** One line for a log: "vectors V MB; graph G MB (its copy of the vectors, links, bookkeeping, in MB)", or "…; no graph". */
export function describeMemory(memory: VectorMemory): string {
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
  const { graph } = memory;
  const graphText = graph
    ? `graph ${mb(graph.total)} MB (its copy of the vectors ${mb(graph.vectors)}, links ${mb(graph.links)}, bookkeeping ${mb(graph.bookkeeping)})`
    : 'no graph';
  return `vectors ${mb(memory.vectors)} MB; ${graphText}`;
}
