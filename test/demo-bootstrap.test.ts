import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentSnapshotPath } from '../src/catalog/index.js';
import { buildDemoInChild } from '../src/cli/demo-bootstrap.js';

describe('first-run demo build', () => {
  it('regression: builds the demo catalog in a child process, so the server keeps none of the ingest memory (1.5 GB RSS)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shelf-demo-child-'));
    try {
      const lines: string[] = [];
      const before = process.memoryUsage().rss;
      expect(await buildDemoInChild(dataDir, (l) => lines.push(l), 300)).toBe(true);
      expect(currentSnapshotPath(dataDir)).not.toBeNull();
      expect(lines.join('\n')).toContain('separate process');
      // the ingest ran elsewhere: this process grew by far less than an ingest needs
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 2 ** 20);
      expect(await buildDemoInChild(dataDir, () => {}, 300)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
