/**
 * Packed product documents kept in memory as densely as they can be: records written one
 * after the other into a few large Buffers (segments), found through one open-addressing
 * table of numbers keyed by the product id. A document kept so costs its bytes (packed
 * JSON, id, ETag) and about 35 more (a header, its share of the table), and no JavaScript
 * object at all: kept as an LRU of objects (a Buffer view, an entry, the id and ETag
 * strings) each took about 220 bytes more, so the 16 MB of the packed half held 24,000 of the 35k demo's 39,000 documents, a
 * read past them went to SQLite (a row and an inflate: about twice an inflate alone), and
 * the objects made garbage the collector marked on every pass. The demo's documents now take
 * about 20 MB in all (docs/architecture.md, "Read models and speed").
 *
 * Past the budget the oldest segment goes whole (first in, first out, a segment at a time),
 * and only for a document asked for more often (the caller's frequency sketch) than the
 * first one that segment holds; a document held already is never written again (a
 * snapshot's documents never change). A `get` answers a view of the segment: valid until the
 * next `set`, which may reuse that segment.
 */

/** A record: packed length (u32), knowledge number (u16), id length (u8), ETag length (u8); then the id, the ETag and the packed bytes. */
const HEADER = 8;
const NO_KNOWLEDGE = 0xffff;
const MAX_SEGMENT = 256 * 1024;
const MIN_SEGMENT = 1024;
/** table slots to begin with (a power of two); the table doubles when half full */
const FIRST_SLOTS = 16;

/** A packed document read back: its bytes (a view, see the class), its `_knowledge` text and ETag. */
export interface PackedDocument {
  packed: Uint8Array;
  knowledge: string | null;
  etag: string;
}

interface Segment {
  bytes: Buffer;
  /** bytes written */
  used: number;
  /** a number no other segment of the store has had: positions are `serial * segmentBytes + offset` */
  serial: number;
}

/** FNV-1a of a string's char codes, or -1 when one is past U+00FF (kept as latin1 bytes, one a character). */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return -1;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

function hashBytes(bytes: Buffer, from: number, length: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < from + length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

export class PackedDocuments {
  readonly #maxBytes: number;
  readonly #segmentBytes: number;
  /** oldest first; the last is the one written to */
  readonly #segments: Segment[] = [];
  #serial = 0;
  /** position + 1 of each kept record, 0 where empty (linear probing); made with the first */
  #table = new Float64Array(0);
  #count = 0;
  /** the distinct `_knowledge` texts of kept documents (shared strings), by number */
  readonly #knowledge: string[] = [];
  readonly #knowledgeNumbers = new Map<string, number>();

  /** At most `maxBytes` in all: segments, the table and (below 64 KB) nothing else. */
  constructor(maxBytes: number) {
    this.#maxBytes = Math.max(0, Math.floor(maxBytes));
    this.#segmentBytes = Math.min(MAX_SEGMENT, Math.max(MIN_SEGMENT, Math.floor(this.#maxBytes / 16)));
  }

  /** Documents kept. */
  get count(): number {
    return this.#count;
  }

  /** Bytes taken: the segments (whole, as allocated) and the table. */
  get size(): number {
    return this.#segments.length * this.#segmentBytes + this.#table.byteLength;
  }

  /** The kept document of product `id` (a view into a segment: valid until the next `set`). */
  get(id: string): PackedDocument | undefined {
    const slot = this.#find(id);
    if (slot < 0) return undefined;
    const [segment, at] = this.#locate((this.#table[slot] as number) - 1);
    const bytes = segment.bytes;
    const packedLength = bytes.readUInt32LE(at);
    const knowledge = bytes.readUInt16LE(at + 4);
    const idLength = bytes[at + 6] as number;
    const etagLength = bytes[at + 7] as number;
    const etagAt = at + HEADER + idLength;
    const packedAt = etagAt + etagLength;
    return {
      packed: bytes.subarray(packedAt, packedAt + packedLength),
      knowledge: knowledge === NO_KNOWLEDGE ? null : (this.#knowledge[knowledge] as string),
      etag: bytes.toString('latin1', etagAt, packedAt),
    };
  }

  has(id: string): boolean {
    return this.#find(id) >= 0;
  }

  /**
   * Keeps a document (its bytes copied) unless it is held already, does not fit, or the store
   * is full and `admits(victim)` says no for the first document of the oldest segment.
   * Returns whether it was kept.
   */
  set(id: string, document: PackedDocument, admits: (victim: string) => boolean): boolean {
    const hash = hashText(id);
    const { packed, etag } = document;
    if (hash < 0 || id.length > 0xff || etag.length > 0xff || hashText(etag) < 0) return false;
    const length = HEADER + id.length + etag.length + packed.length;
    if (length > this.#segmentBytes || this.#find(id) >= 0) return false;
    const knowledge = this.#knowledgeNumber(document.knowledge);
    if (knowledge < 0) return false;
    if (this.#table.length === 0) {
      if (FIRST_SLOTS * 8 + this.#segmentBytes > this.#maxBytes) return false;
      this.#table = new Float64Array(FIRST_SLOTS);
    }
    // a table that would pass half full first doubles (and may push segments out)
    if ((this.#count + 1) * 2 > this.#table.length && !this.#grow()) return false;
    let segment = this.#segments.at(-1);
    if (!segment || segment.used + length > this.#segmentBytes) {
      if (this.size + this.#segmentBytes <= this.#maxBytes)
        segment = this.#newSegment(Buffer.allocUnsafeSlow(this.#segmentBytes));
      else {
        const oldest = this.#segments[0];
        if (!oldest || !admits(this.#firstId(oldest))) return false;
        segment = this.#newSegment(this.#drop());
      }
    }
    const at = segment.used;
    const bytes = segment.bytes;
    bytes.writeUInt32LE(packed.length, at);
    bytes.writeUInt16LE(knowledge, at + 4);
    bytes[at + 6] = id.length;
    bytes[at + 7] = etag.length;
    bytes.write(id, at + HEADER, 'latin1');
    bytes.write(etag, at + HEADER + id.length, 'latin1');
    bytes.set(packed, at + HEADER + id.length + etag.length);
    segment.used += length;
    this.#insert(hash, segment.serial * this.#segmentBytes + at);
    return true;
  }

  /** The table slot of `id`, or -1. */
  #find(id: string): number {
    const hash = hashText(id);
    if (hash < 0) return -1;
    const table = this.#table;
    if (table.length === 0) return -1;
    const mask = table.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const value = table[slot] as number;
      if (value === 0) return -1;
      if (this.#idIs(value - 1, id)) return slot;
    }
  }

  #idIs(position: number, id: string): boolean {
    const [segment, at] = this.#locate(position);
    const bytes = segment.bytes;
    if (bytes[at + 6] !== id.length) return false;
    const from = at + HEADER;
    for (let i = 0; i < id.length; i++) if (bytes[from + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  /** The segment and offset of a record position. */
  #locate(position: number): [Segment, number] {
    const serial = Math.floor(position / this.#segmentBytes);
    const segment = this.#segments[serial - (this.#segments[0] as Segment).serial] as Segment;
    return [segment, position - serial * this.#segmentBytes];
  }

  #insert(hash: number, position: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let slot = hash & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = position + 1;
    this.#count++;
  }

  /** The hash of the id of the record at `position`. */
  #hashAt(position: number): number {
    const [segment, at] = this.#locate(position);
    return hashBytes(segment.bytes, at + HEADER, segment.bytes[at + 6] as number);
  }

  /** Doubles the table; false when it cannot fit the budget even with every segment gone. */
  #grow(): boolean {
    const slots = this.#table.length * 2;
    // the new table and the old one exist at once only for the moment of the copy
    while (this.#segments.length > 0 && this.size - this.#table.byteLength + slots * 8 > this.#maxBytes)
      this.#drop();
    if (slots * 8 > this.#maxBytes) return false;
    const old = this.#table;
    this.#table = new Float64Array(slots);
    this.#count = 0;
    for (const value of old) if (value !== 0) this.#insert(this.#hashAt(value - 1), value - 1);
    return true;
  }

  #newSegment(bytes: Buffer): Segment {
    const segment = { bytes, used: 0, serial: this.#serial++ };
    this.#segments.push(segment);
    return segment;
  }

  #firstId(segment: Segment): string {
    return segment.bytes.toString('latin1', HEADER, HEADER + (segment.bytes[6] as number));
  }

  /** Forgets every record of the oldest segment; its bytes, for reuse. */
  #drop(): Buffer {
    const segment = this.#segments[0] as Segment;
    const bytes = segment.bytes;
    for (let at = 0; at < segment.used; ) {
      const position = segment.serial * this.#segmentBytes + at;
      this.#remove(hashBytes(bytes, at + HEADER, bytes[at + 6] as number), position);
      at += HEADER + (bytes[at + 6] as number) + (bytes[at + 7] as number) + bytes.readUInt32LE(at);
    }
    this.#segments.shift();
    return bytes;
  }

  /** Removes a record's slot, shifting back the entries after it that probed past it. */
  #remove(hash: number, position: number): void {
    const table = this.#table;
    const mask = table.length - 1;
    let slot = hash & mask;
    while (table[slot] !== position + 1) slot = (slot + 1) & mask;
    table[slot] = 0;
    this.#count--;
    for (let next = (slot + 1) & mask; table[next] !== 0; next = (next + 1) & mask) {
      const value = table[next] as number;
      const home = this.#hashAt(value - 1) & mask;
      // the entry at `next` may move to the hole unless its home lies cyclically in (slot, next]
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next;
      if (!stays) {
        table[slot] = value;
        table[next] = 0;
        slot = next;
      }
    }
  }

  /** The number of a `_knowledge` text (NO_KNOWLEDGE for none), or -1 when the numbers ran out. */
  #knowledgeNumber(text: string | null): number {
    if (text === null) return NO_KNOWLEDGE;
    const known = this.#knowledgeNumbers.get(text);
    if (known !== undefined) return known;
    const n = this.#knowledge.length;
    if (n >= NO_KNOWLEDGE) return -1;
    this.#knowledge.push(text);
    this.#knowledgeNumbers.set(text, n);
    return n;
  }
}
