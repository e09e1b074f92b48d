import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyStore } from '../src/access/index.js';
import type { RunningServer } from '../src/api/index.js';
import { runIngest } from '../src/ingest/index.js';
import { startTestServer } from './helpers/access-server.js';
import { expectOk } from './helpers/assertions.js';
import { fixtureContent } from './helpers/fixture-catalog.js';
import { get } from './helpers/http.js';

interface Group {
  id: string;
  name: string;
  products: { name: string }[];
}

/**
 * Regression: a variant group whose members' titles share no prefix (a retailer's item group
 * of colors named color first) was named after one of its members.
 */
describe('variant group names', () => {
  let dataDir: string;
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shelf-group-names-'));
    const feed = join(dataDir, 'colorshop.csv');
    const row = (id: string, title: string, gtin: string, color: string) =>
      `${id},${title},Quiet dishwasher,https://colorshop.example/${id},,699.00 USD,in stock,Bosch,${gtin},,Kitchen > Dishwashers,609,${color},DW-300`;
    writeFileSync(
      feed,
      [
        'id,title,description,link,image_link,price,availability,brand,gtin,mpn,product_type,google_product_category,color,item_group_id',
        row('CS-1', 'Black Stainless Bosch 300 Series Dishwasher', '0825225978411', 'Black Stainless'),
        row('CS-2', 'White Bosch 300 Series Dishwasher', '0825225978435', 'White'),
      ].join('\n'),
    );
    await runIngest({
      dataDir,
      feeds: [{ retailer: 'colorshop', path: feed }],
      content: fixtureContent(),
      day: '2026-11-20',
    });
    const store = new KeyStore(dataDir);
    try {
      key = store.create({ plan: 'pro', type: 'secret', env: 'live' }).key;
    } finally {
      store.close();
    }
    server = await startTestServer(dataDir);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('names a group without a shared title prefix from what its members share, not after one of them', async () => {
    const groups = expectOk<Group[]>(await get(server.url, '/v2/product-groups?include_products=true', key));
    expect(groups).toHaveLength(1);
    const [group] = groups as [Group];
    expect(group.products).toHaveLength(2);
    expect(group.products.map((p) => p.name)).not.toContain(group.name);
    expect(group.name).toBe('Bosch 300 Series Dishwasher');
  });
});
