/**
 * A binary max-heap: `pop` gives the item pushed with the highest priority,
 * the earliest pushed among equals. O(log n) per push and pop.
 */
export class PriorityQueue<T> {
  private readonly heap: { item: T; priority: number; order: number }[] = [];
  private pushed = 0;

  get size(): number {
    return this.heap.length;
  }

  push(item: T, priority: number): void {
    this.heap.push({ item, priority, order: this.pushed++ });
    let at = this.heap.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(at, parent)) break;
      this.swap(at, parent);
      at = parent;
    }
  }

  pop(): T | undefined {
    const top = this.heap[0];
    if (!top) return undefined;
    const last = this.heap.pop();
    if (this.heap.length > 0 && last) {
      this.heap[0] = last;
      let at = 0;
      for (;;) {
        const left = 2 * at + 1;
        const right = left + 1;
        let first = at;
        if (left < this.heap.length && this.before(left, first)) first = left;
        if (right < this.heap.length && this.before(right, first)) first = right;
        if (first === at) break;
        this.swap(at, first);
        at = first;
      }
    }
    return top.item;
  }

  clear(): void {
    this.heap.length = 0;
  }

  private before(a: number, b: number): boolean {
    const x = this.heap[a];
    const y = this.heap[b];
    if (!x || !y) return false;
    return x.priority > y.priority || (x.priority === y.priority && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const x = this.heap[a];
    const y = this.heap[b];
    if (!x || !y) return;
    this.heap[a] = y;
    this.heap[b] = x;
  }
}
