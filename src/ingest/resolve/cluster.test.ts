import { describe, expect, it } from 'vitest';
import { clusterRecords as clusterPairs, type Edge, pairsOf } from './cluster.js';

const edge = (i: number, j: number, probability: number, conflict = false): Edge => ({
  i,
  j,
  probability,
  conflict,
});
const clusterRecords = (
  sources: string[],
  sameItem: number[][],
  edges: Edge[],
  threshold: number,
  mutual?: number,
) => clusterPairs(sources, sameItem, pairsOf(edges), threshold, mutual);
const sorted = (clusters: number[][]) => clusters.map((c) => [...c].sort()).sort((a, b) => a[0]! - b[0]!);

describe('clusterRecords', () => {
  it('never puts two records of one source in a cluster', () => {
    // a0 and a1 both match b2 well; only the stronger one may join it.
    const { clusters } = clusterRecords(['a', 'a', 'b'], [], [edge(0, 2, 0.9), edge(1, 2, 0.8)], 0.5);
    expect(sorted(clusters)).toEqual([[0, 2], [1]]);
  });

  it('merges same-item groups even within one source', () => {
    const { clusters, confidence } = clusterRecords(['a', 'a', 'b'], [[0, 1]], [edge(1, 2, 0.9)], 0.5);
    expect(sorted(clusters)).toEqual([[0, 1, 2]]);
    expect(confidence[0]).toBeCloseTo(0.9);
  });

  it('accepts a weak mutual best match but not a weak one-sided match', () => {
    const { clusters } = clusterRecords(['a', 'b', 'b'], [], [edge(0, 1, 0.3), edge(0, 2, 0.35)], 0.5, 0.25);
    expect(sorted(clusters)).toEqual([[0, 2], [1]]);
    const none = clusterRecords(['a', 'b'], [], [edge(0, 1, 0.2)], 0.5, 0.25);
    expect(none.clusters).toHaveLength(2);
  });

  it('refuses a merge that would join scored conflicts through a third record', () => {
    const { clusters } = clusterRecords(
      ['a', 'b', 'c'],
      [],
      [edge(0, 1, 0.9), edge(1, 2, 0.9), edge(0, 2, 0.01, true)],
      0.5,
    );
    expect(clusters).toHaveLength(2);
  });
});
