/**
 * A small open-addressing hash table keyed by raw bytes (docnos straight
 * from a file buffer), so lookups allocate no string. One per qrels query:
 * each stays a few hundred bytes, cache-resident while that query's run lines
 * stream past. The tables of one qrels file are views into a few shared
 * arrays (see qrels.ts): thousands of tiny typed arrays of their own would
 * cost more to allocate and collect than the whole parse.
 */
export interface KeyTable {
  /** Bytes of every key: key i is arena[starts[i], starts[i] + lens[i]). */
  arena: Uint8Array;
  starts: Uint32Array;
  lens: Uint32Array;
  hashes: Int32Array;
  /** Entry index + 1 per slot, 0 = empty; the length is a power of two. */
  slots: Int32Array;
  mask: number;
  /** Number of keys. */
  count: number;
}

/** Index of the key `buf[start, end)` with hash `hash` ({@link hashBytes}) in `t`, or -1. The run parser inlines this. */
export function findKey(t: KeyTable, buf: Uint8Array, start: number, end: number, hash: number): number {
  const len = end - start;
  let slot = hash & t.mask;
  for (;;) {
    const v = t.slots[slot]!;
    if (v === 0) return -1;
    const id = v - 1;
    if (t.hashes[id] === hash && t.lens[id] === len) {
      const a = t.starts[id]!;
      let i = 0;
      while (i < len && t.arena[a + i] === buf[start + i]) i++;
      if (i === len) return id;
    }
    slot = (slot + 1) & t.mask;
  }
}

/** Slots for a table of `n` keys: a power of two at least twice `n` (and at least 16). */
export function slotsFor(n: number): number {
  let size = 16;
  while (size < n * 2) size *= 2;
  return size;
}

/** FNV-1a over bytes: the hash {@link KeyTable} keys carry. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h;
}
