import { type Db, stmt } from '../catalog/index.js';

/** Monthly usage counters of one key. `cached` hits never count against the quota. */
export interface UsageCounts {
  requests: number;
  cached: number;
  errors: number;
}

export type UsageField = keyof UsageCounts;

export const emptyUsage = (): UsageCounts => ({ requests: 0, cached: 0, errors: 0 });

/**
 * The UTC month holding the moment last asked about: every counted request asks for its
 * month and the time to its end, and nearly all of them fall in the same month.
 */
let known = { start: 0, end: 0, month: '' };

function monthAt(now: number): { start: number; end: number; month: string } {
  if (now >= known.start && now < known.end) return known;
  const d = new Date(now);
  known = {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
    month: d.toISOString().slice(0, 7),
  };
  return known;
}

/** `YYYY-MM` of a moment, in UTC: months are counted in UTC. */
export const monthOf = (now: number): string => monthAt(now).month;

/** Milliseconds from `now` to the start of the next UTC month (the monthly window's end). */
export const msToMonthEnd = (now: number): number => monthAt(now).end - now;

/** One row of the usage report. */
export interface UsageRow extends UsageCounts {
  keyId: string;
  month: string;
}

/**
 * Monthly usage in `access.db` (`usage_monthly`). Local counters add their deltas here; with
 * Redis the servers mirror Redis's totals here, so usage survives restarts either way and
 * `shelf keys usage` can read it without a running server.
 */
export class UsageRepo {
  constructor(private readonly db: Db) {}

  get(keyId: string, month: string): UsageCounts {
    const row = stmt(
      this.db,
      'SELECT requests, cached, errors FROM usage_monthly WHERE key_id = ? AND month = ?',
    ).get(keyId, month) as UsageCounts | undefined;
    return row ? { ...row } : emptyUsage();
  }

  /** Adds deltas (several processes may add to the same row). */
  add(rows: readonly UsageRow[]): void {
    const add = stmt(
      this.db,
      `INSERT INTO usage_monthly (key_id, month, requests, cached, errors) VALUES (?,?,?,?,?)
       ON CONFLICT (key_id, month) DO UPDATE SET requests = requests + excluded.requests,
         cached = cached + excluded.cached, errors = errors + excluded.errors`,
    );
    this.#write(add, rows);
  }

  /** Records totals read from the shared store; never lowers a count (Redis may have lost data). */
  mirror(rows: readonly UsageRow[]): void {
    const put = stmt(
      this.db,
      `INSERT INTO usage_monthly (key_id, month, requests, cached, errors) VALUES (?,?,?,?,?)
       ON CONFLICT (key_id, month) DO UPDATE SET requests = max(requests, excluded.requests),
         cached = max(cached, excluded.cached), errors = max(errors, excluded.errors)`,
    );
    this.#write(put, rows);
  }

  /** Usage rows, newest month first; optionally of one key and/or one month. */
  list(filter: { keyId?: string; month?: string } = {}): UsageRow[] {
    return stmt(
      this.db,
      `SELECT key_id AS keyId, month, requests, cached, errors FROM usage_monthly
       WHERE (@keyId IS NULL OR key_id = @keyId) AND (@month IS NULL OR month = @month)
       ORDER BY month DESC, key_id`,
    ).all({ keyId: filter.keyId ?? null, month: filter.month ?? null }) as UsageRow[];
  }

  #write(statement: ReturnType<typeof stmt>, rows: readonly UsageRow[]): void {
    if (rows.length === 0) return;
    this.db.transaction(() => {
      for (const r of rows) {
        // a usage row for a key deleted meanwhile would break the foreign key; skip it
        try {
          statement.run(r.keyId, r.month, r.requests, r.cached, r.errors);
        } catch (error) {
          if (!String((error as Error).message).includes('FOREIGN KEY')) throw error;
        }
      }
    })();
  }
}
