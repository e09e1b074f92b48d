import { emptyUsage, type UsageCounts, type UsageRow } from '../usage.js';
import type { UsageSink } from './counter-store.js';

/**
 * Usage totals kept in memory: the last totals a replica read from Redis. With Redis, the
 * month's totals live there; this copy seeds the replica's own counting while Redis is away,
 * and Redis's months if Redis comes back without its data.
 */
export class MemoryUsageSink implements UsageSink {
  readonly #rows = new Map<string, UsageRow>();

  get(keyId: string, month: string): UsageCounts {
    const r = this.#rows.get(`${keyId}|${month}`);
    return r ? { requests: r.requests, cached: r.cached, errors: r.errors } : emptyUsage();
  }

  add(rows: readonly UsageRow[]): void {
    for (const a of rows) {
      const r = this.#row(a.keyId, a.month);
      r.requests += a.requests;
      r.cached += a.cached;
      r.errors += a.errors;
    }
  }

  mirror(rows: readonly UsageRow[]): void {
    for (const a of rows) {
      const r = this.#row(a.keyId, a.month);
      r.requests = Math.max(r.requests, a.requests);
      r.cached = Math.max(r.cached, a.cached);
      r.errors = Math.max(r.errors, a.errors);
    }
  }

  #row(keyId: string, month: string): UsageRow {
    const id = `${keyId}|${month}`;
    let r = this.#rows.get(id);
    if (!r) {
      r = { keyId, month, ...emptyUsage() };
      this.#rows.set(id, r);
    }
    return r;
  }
}
