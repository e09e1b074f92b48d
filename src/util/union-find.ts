/**
 * Disjoint sets over 0..n-1 (union-find with path compression): the one implementation that
 * entity resolution, variant grouping and the baseline resolver share.
 */
export class DisjointSets {
  /** parent of each element; a root is its own parent. Callers that weigh their unions set it directly. */
  readonly parent: Int32Array;
  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
  }
  /** The root of x's set. */
  find(x: number): number {
    let root = x;
    while (this.parent[root] !== root) root = this.parent[root]!;
    while (this.parent[x] !== root) {
      const next = this.parent[x]!;
      this.parent[x] = root;
      x = next;
    }
    return root;
  }
  /** Joins the sets of a and b; the root of b's set becomes the root of both. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[ra] = rb;
  }
}
