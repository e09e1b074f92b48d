/** Worker thread entry of `readFeeds` (read-feeds.ts): reads each feed it is sent, posts the result. */
import { parentPort } from 'node:worker_threads';
import type { FeedSource } from './feeds/index.js';
import { readOneFeed } from './read-feeds.js';

parentPort?.on('message', async (feed: FeedSource) => {
  parentPort?.postMessage(await readOneFeed(feed));
});
