/**
 * Builds the demo catalog in a process of its own (`buildDemoInChild`): the ingest's memory
 * (≈1.5 GB at 35,000 products) goes back to the system when this process exits, so the server
 * that started it runs at its own size. Arguments: the data folder, optionally a product count.
 */
import { ensureDemoCatalog } from './demo-bootstrap.js';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('demo-child: data folder missing\n');
  process.exit(2);
}
const products = process.argv[3] ? Number.parseInt(process.argv[3], 10) : undefined;
await ensureDemoCatalog(dataDir, (line) => process.stdout.write(`${line}\n`), products);
