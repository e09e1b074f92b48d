import { type Cursor, decodeCursor, type PageInfo, pageInfo } from './cursor.js';
import { type Db, stmt } from './database.js';

/**
 * A cursor that no page of ours returned. Lists throw it and the API's error mapper turns
 * it into the 400 on `field`: the one place cursor errors are translated.
 */
export class InvalidCursorError extends Error {
  override name = 'InvalidCursorError';
  constructor(readonly field = 'cursor') {
    super('is not a value returned by a previous page');
  }
}

/** Decodes a request's cursor, or throws InvalidCursorError naming the field it came in. */
export function readCursor(text: string | undefined, field = 'cursor'): Cursor | null {
  if (text === undefined) return null;
  const cursor = decodeCursor(text);
  if (!cursor) throw new InvalidCursorError(field);
  return cursor;
}

/** One condition of a list with its bound values: values never go into SQL text. */
export interface Condition {
  sql: string;
  args: readonly unknown[];
}
export const condition = (sql: string, ...args: unknown[]): Condition => ({ sql, args });

/** How a list is ordered, which decides how its pages are cut. */
export type PageOrder =
  /** by a sort expression, ties by id; next pages by keyset (stable and cheap at any depth) */
  | { kind: 'sort'; expr: string; desc: boolean }
  /** by a fixed ORDER BY of the list (ending with a unique column); pages by offset */
  | { kind: 'fixed'; orderBy: string }
  /** by the position of each row's rowid in a ranked list (search relevance); pages by offset */
  | { kind: 'ranked'; rowids: readonly number[] };

export interface PageQuery {
  /** the table and its alias, with any joins the conditions need, e.g. `brands b` */
  from: string;
  /** the columns to read for each row, e.g. `b.*` */
  columns: string;
  /** the unique key of a row (keyset tie-break), e.g. `b.id` */
  id: string;
  /** the rowid of a row, for `ranked` orders, e.g. `p.rowid` */
  rowid?: string;
  where: readonly Condition[];
  order: PageOrder;
  limit: number;
  /** nextCursor or prevCursor of an earlier page of the same list */
  cursor?: string;
  /** the request field the cursor came in, named in the 400 (default `cursor`) */
  cursorField?: string;
}

export type PageRow = Record<string, unknown>;

/**
 * The one filter-and-page primitive of the catalog's lists: conditions with bound values,
 * a count of the whole list, and the rows of one page plus its eight pagination fields.
 * Every list accepts both cursors it hands out: nextCursor (keyset where the list is
 * sorted by a column, else an offset) and prevCursor (an offset, since a snapshot never
 * changes under it). Each row carries `_sort` (its sort value) when sorted by an expression.
 */
export function readPage(db: Db, query: PageQuery): { rows: PageRow[]; page: PageInfo } {
  const cursor = readCursor(query.cursor, query.cursorField);
  const { order, limit } = query;
  // a fixed order only ever hands out offset cursors
  if (order.kind === 'fixed' && cursor?.kind === 'keyset') throw new InvalidCursorError(query.cursorField);
  const where = [...query.where];
  const head: unknown[] = [];
  let from = query.from;
  let orderBy: string;
  let sortColumn = '';
  if (order.kind === 'ranked') {
    if (!query.rowid) throw new Error('a ranked page needs the rowid column');
    // the ranked ids go in as one JSON parameter: the SQL text stays the same for every query
    from = `json_each(?) ranked JOIN ${query.from} ON ${query.rowid} = ranked.value`;
    head.push(JSON.stringify(order.rowids));
    orderBy = 'ranked.key';
  } else if (order.kind === 'fixed') {
    orderBy = order.orderBy;
  } else {
    const dir = order.desc ? 'DESC' : 'ASC';
    orderBy = `${order.expr} ${dir}, ${query.id} ${dir}`;
    sortColumn = `${order.expr} AS _sort, ${query.id} AS _id, `;
  }
  const sqlOf = (conditions: readonly Condition[]) =>
    conditions.length ? `WHERE ${conditions.map((c) => c.sql).join(' AND ')}` : '';
  const argsOf = (conditions: readonly Condition[]) => [...head, ...conditions.flatMap((c) => c.args)];
  const total = (
    stmt(db, `SELECT count(*) AS n FROM ${from} ${sqlOf(where)}`).get(...argsOf(where)) as { n: number }
  ).n;

  const offset = cursor?.offset ?? 0;
  const seek = order.kind === 'sort' && cursor?.kind === 'keyset';
  if (seek) {
    const op = order.desc ? '<' : '>';
    where.push(
      condition(
        `(${order.expr} ${op} ? OR (${order.expr} = ? AND ${query.id} ${op} ?))`,
        cursor.value,
        cursor.value,
        cursor.id,
      ),
    );
  }
  const rows = stmt(
    db,
    `SELECT ${sortColumn}${query.columns} FROM ${from} ${sqlOf(where)} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
  ).all(...argsOf(where), limit + 1, seek ? 0 : offset) as PageRow[];

  let next: Cursor | null = null;
  const last = rows[limit - 1];
  if (rows.length > limit && last)
    next =
      order.kind === 'sort'
        ? {
            kind: 'keyset',
            value: last._sort as string | number | null,
            id: String(last._id),
            offset: offset + limit,
          }
        : { kind: 'offset', offset: offset + limit };
  return {
    rows: rows.slice(0, limit),
    page: pageInfo({ total, limit, offset, cursor: query.cursor ?? null, next }),
  };
}

/** `column LIKE %text%` for a user's text, with LIKE's wildcards escaped. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
