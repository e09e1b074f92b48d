/**
 * The catalog's light entry point: packing and unpacking stored JSON (document-codec.ts),
 * which loads Node's zlib and nothing of the database. Worker threads that only pack or
 * unpack import this instead of index.ts, which loads every query module (seconds in a fresh
 * worker thread from TypeScript sources, against a fraction of a second for this);
 * index.ts re-exports it.
 */
export {
  documentDictionary,
  packDocument,
  packNumbered,
  packText,
  storeDictionary,
  storedDictionaries,
  storedDictionary,
  storedText,
  unpackDocument,
  unpackNumbered,
} from './document-codec.js';
