import fastJson from 'fast-json-stringify';
import { CHANGE_ASPECTS, type ChangeAspect, ChangeItem } from '../schemas/index.js';
import { encodeCursor, type PageInfo } from './cursor.js';
import { type Db, hasTable, stmt } from './database.js';
import type { DocumentCache } from './document-cache.js';
import { condition, InvalidCursorError, readCursor, readPage } from './page.js';
import { productDocument } from './product-documents.js';

export { CHANGE_ASPECTS };

/**
 * How many publishes the change log keeps (each snapshot carries the last ones forward). A
 * client whose position is older must re-sync from the export. Daily ingests keep a month.
 */
export const CHANGE_RETENTION_PUBLISHES = 30;

/**
 * A change-feed position the log no longer holds: older than its retention, or from a
 * history the catalog left (a rollback, then a new publish). The API answers 410.
 */
export class ExpiredCursorError extends Error {
  override name = 'ExpiredCursorError';
  constructor(
    readonly field: string,
    readonly reason: 'expired' | 'diverged',
    readonly oldestVersion: number | null,
  ) {
    super(
      reason === 'expired'
        ? `is older than the ${CHANGE_RETENTION_PUBLISHES} publishes the change feed keeps`
        : 'is from a catalog history that was rolled back',
    );
  }
}

interface Publish {
  version: number;
  run_id: string;
  head_seq: number;
}

/** A publish's tag in cursors: its version and the start of its run id. */
const tagOf = (p: Publish): string => `${p.version}.${p.run_id.slice(0, 8)}`;

/**
 * A position in the feed: every change up to `seq` has been seen, read at publish `p`.
 * Carried in the catalog's one cursor format, as a keyset cursor of the log (value: the
 * sequence number, id: the publish's tag), so a foreign value is the usual 400.
 */
const positionCursor = (p: Publish, seq: number): string =>
  encodeCursor({ kind: 'keyset', value: seq, id: tagOf(p), offset: 0 });

export interface ChangeListParams {
  /** a nextCursor of an earlier page, `now` (the current end), or nothing (the oldest kept change) */
  since?: string;
  limit: number;
  /** the request field `since` came in, named in errors (default `since`) */
  field?: string;
}

export interface ChangePage {
  changes: ChangeItem[];
  page: PageInfo;
}

/**
 * The changes after a position, oldest first. `nextCursor` is always set: the position after
 * this page, or the feed's end when the page reached it, so a client can come back later
 * with it and see only what was published since.
 */
export function listChanges(db: Db, params: ChangeListParams): ChangePage {
  const field = params.field ?? 'since';
  if (!hasTable(db, 'change_publishes')) throw new Error('this snapshot has no change log');
  const publishes = stmt(
    db,
    'SELECT version, run_id, head_seq FROM change_publishes ORDER BY version',
  ).all() as Publish[];
  const latest = publishes.at(-1);
  const oldest = publishes[0];
  if (!latest || !oldest) throw new Error('the change log has no publish');

  let after: number;
  if (params.since === undefined) after = 0;
  else if (params.since === 'now') after = latest.head_seq;
  else {
    const cursor = readCursor(params.since, field);
    if (cursor?.kind !== 'keyset') throw new InvalidCursorError(field);
    const tag = /^(\d+)\.[0-9a-f]{8}$/.exec(cursor.id);
    const seq = cursor.value;
    if (!tag || typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0)
      throw new InvalidCursorError(field);
    const version = Number(tag[1]);
    const at = publishes.find((p) => p.version === version);
    if (at && tagOf(at) === cursor.id) {
      if (seq > at.head_seq) throw new InvalidCursorError(field);
      after = seq;
    } else if (version < oldest.version) throw new ExpiredCursorError(field, 'expired', oldest.version);
    else throw new ExpiredCursorError(field, 'diverged', oldest.version);
  }

  const { rows, page } = readPage(db, {
    from: 'changes c JOIN change_publishes p ON p.version = c.version',
    columns: 'c.*, p.published_at',
    id: 'c.seq',
    where: [condition('c.seq > ?', after)],
    order: { kind: 'fixed', orderBy: 'c.seq' },
    limit: params.limit,
  });
  const changes = rows.map(
    (r): ChangeItem => ({
      seq: r.seq as number,
      version: r.version as number,
      published_at: r.published_at as string,
      type: r.type as ChangeItem['type'],
      product_id: r.product_id as string,
      slug: r.slug as string,
      name: r.name as string,
      aspects: JSON.parse(r.aspects_json as string) as ChangeAspect[],
      merged_into: (r.merged_into as string | null) ?? null,
    }),
  );
  const last = changes.at(-1);
  const next =
    page.hasMore && last
      ? positionCursor(publishes.find((p) => p.version === last.version) ?? latest, last.seq)
      : positionCursor(latest, latest.head_seq);
  return {
    changes,
    page: { ...page, cursor: params.since ?? null, nextCursor: next, prevCursor: null },
  };
}

/** The feed's current end: the cursor to follow changes from once a copy is taken. */
export function changesHead(db: Db): string | null {
  if (!hasTable(db, 'change_publishes')) return null;
  const latest = stmt(
    db,
    'SELECT version, run_id, head_seq FROM change_publishes ORDER BY version DESC LIMIT 1',
  ).get() as Publish | undefined;
  return latest ? positionCursor(latest, latest.head_seq) : null;
}

const serializeChange: (change: ChangeItem) => string = fastJson(ChangeItem);

/**
 * The serialized changes with each product's current stored document as `product` (null
 * when the product is gone), for `include_product=true`: the documents go in as stored,
 * never parsed and serialized again.
 */
export function changesWithProducts(db: Db, changes: readonly ChangeItem[], kept?: DocumentCache): string[] {
  return changes.map((change) => {
    const json = serializeChange(change);
    const document = change.type === 'removed' ? null : productDocument(db, change.product_id, kept);
    return `${json.slice(0, -1)},"product":${document ? document.json : 'null'}}`;
  });
}
