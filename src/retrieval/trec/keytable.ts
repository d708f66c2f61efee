/**
 * A small open-addressing hash table keyed by raw bytes (docnos straight
 * from a file buffer), so lookups allocate no string. One per qrels query:
 * each stays a few hundred bytes, cache-resident while that query's run lines
 * stream past.
 */
export class ByteKeyTable {
  // Public for the run parser, which inlines `get` in its byte loop; never write them from outside.
  arena: Uint8Array;
  private used = 0;
  starts: Uint32Array;
  lens: Uint32Array;
  hashes: Int32Array;
  /** Entry index + 1 per slot, 0 = empty. */
  slots: Int32Array;
  mask: number;
  /** Number of distinct keys. */
  count = 0;

  constructor(expected = 8) {
    let size = 16;
    while (size < expected * 2) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.starts = new Uint32Array(Math.max(8, expected));
    this.lens = new Uint32Array(this.starts.length);
    this.hashes = new Int32Array(this.starts.length);
    this.arena = new Uint8Array(Math.max(64, expected * 12));
  }

  /** Index of the key `buf[start, end)` with hash `hash` ({@link hashBytes}), or -1. */
  get(buf: Uint8Array, start: number, end: number, hash: number): number {
    const len = end - start;
    let slot = hash & this.mask;
    for (;;) {
      const v = this.slots[slot]!;
      if (v === 0) return -1;
      const id = v - 1;
      if (this.hashes[id] === hash && this.lens[id] === len) {
        const a = this.starts[id]!;
        let i = 0;
        while (i < len && this.arena[a + i] === buf[start + i]) i++;
        if (i === len) return id;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** Adds a key; returns its new index, or `-(existing index) - 1` when it was already there. */
  add(buf: Uint8Array, start: number, end: number, hash: number): number {
    const found = this.get(buf, start, end, hash);
    if (found >= 0) return -found - 1;
    const len = end - start;
    const id = this.count++;
    if (id >= this.starts.length) {
      const n = this.starts.length * 2;
      const s = new Uint32Array(n); s.set(this.starts); this.starts = s;
      const l = new Uint32Array(n); l.set(this.lens); this.lens = l;
      const h = new Int32Array(n); h.set(this.hashes); this.hashes = h;
    }
    if (this.used + len > this.arena.length) {
      let n = this.arena.length * 2;
      while (n < this.used + len) n *= 2;
      const a = new Uint8Array(n); a.set(this.arena.subarray(0, this.used)); this.arena = a;
    }
    this.arena.set(buf.subarray(start, end), this.used);
    this.starts[id] = this.used;
    this.lens[id] = len;
    this.hashes[id] = hash;
    this.used += len;
    if (this.count * 2 > this.slots.length) this.rehash();
    else {
      let slot = hash & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = id + 1;
    }
    return id;
  }

  private rehash(): void {
    const size = this.slots.length * 2;
    const slots = new Int32Array(size);
    const mask = size - 1;
    for (let id = 0; id < this.count; id++) {
      let s = this.hashes[id]! & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** FNV-1a over bytes: the hash {@link ByteKeyTable} keys carry. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i]!, 0x01000193);
  return h;
}
