#!/usr/bin/env node
import { loadConfig } from '../config.js';
import { runStdioServer } from './stdio.js';

runStdioServer(loadConfig()).catch((error: unknown) => {
  process.stderr.write(`shelf-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
