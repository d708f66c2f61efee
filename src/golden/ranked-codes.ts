/**
 * Ranked lists sent between threads as numbers. A pipeline output of 50,000
 * questions x 100 retrieved holds 5,000,000 ids but only as many distinct
 * ones as its chunks file has chunks (500,000 in the benchmark): posted as
 * strings, the receiving thread allocates every one of the 5,000,000 again
 * and its young-generation collector copies each of them twice (about 0.8 s
 * of a 50,000-question run was such copying while one block after another
 * arrived). Here the sending thread numbers each id the first time it sends
 * it, and a block carries the ids new since the last block plus one
 * Int32Array of numbers (transferred, not copied); the receiver keeps the
 * table and rebuilds each list from it, so an id seen in many lists is one
 * string there, shared.
 */

/** One block of encoded lists: `fresh` extends the table, `lengths[i]` numbers of `codes` make list i. */
export interface EncodedLists {
  fresh: string[];
  codes: Int32Array<ArrayBuffer>;
  lengths: Int32Array<ArrayBuffer>;
}

/**
 * Chunk ids numbered in the order first seen, in an open-addressing table
 * (a typed array of [hash, number + 1] pairs, linear probing, at most half
 * full) keyed by an FNV-1a hash of the id's UTF-16 code units.
 *
 * Why not a `Map<string, number>`: numbering the 5,000,000 ids of a
 * 50,000-question output took 2.0 s of the worker's 4.5 s with a Map, its
 * time in cache misses (the table of 500,000 entries and the strings are
 * far larger than the caches), one lookup waiting for the last. Here a list
 * is numbered in passes: its hashes, then each id's candidate slot, then the
 * check against the id held there; within a pass no step waits for the one
 * before, so the processor has many of the misses under way at once. On
 * the benchmark's 5,000,000 ids: 1.4 s against 2.6 s for a Map (the lists
 * alone, numbered in one loop); in the worker, profiled, 1.56 s against
 * 2.29 s for the Map and the Set that checked each list for duplicates.
 */
export class IdNumbers {
  /** Slot s holds [hash, number + 1] at 2s and 2s + 1 (number + 1 = 0: empty). */
  private slots: Int32Array;
  /** Number -> id, and its hash (for growing the table). */
  readonly ids: string[] = [];
  private hashes: number[] = [];
  /** Per position of the list being numbered: its hash, and the number of the first id held under that hash (-1: none). */
  private listHashes = new Int32Array(256);
  private candidates = new Int32Array(256);
  /** The last {@link probe}'s sum of its candidates' lengths (see there). */
  private touched = 0;

  /** `expected`: how many ids it will hold, so that the table need not grow on the way. */
  constructor(expected = 0) {
    let slots = 1 << 12;
    while (slots < 2 * expected) slots <<= 1;
    this.slots = new Int32Array(2 * slots);
  }

  /** Writes the number of each id of `list` to `out` from `at`, numbering new ids as they come. */
  numberAll(list: readonly string[], out: Int32Array, at: number): void {
    this.probe(list);
    const { ids, listHashes, candidates } = this;
    for (let j = 0; j < list.length; j++) {
      const id = list[j]!;
      const c = candidates[j]!;
      if (c >= 0 && ids[c] === id) {
        out[at + j] = c;
        continue;
      }
      // a new id, a hash shared with another id, or an id first seen earlier in this list; numbers never change, so a
      // candidate stays right when this grows the table
      out[at + j] = this.numberOf(id, listHashes[j]!);
    }
  }

  /** Whether every id of `list` has a number already (none is given one). */
  hasAll(list: readonly string[]): boolean {
    this.probe(list);
    const { ids, listHashes, candidates } = this;
    for (let j = 0; j < list.length; j++) {
      const c = candidates[j]!;
      if (c < 0) return false; // an empty slot first: no id has this hash
      if (ids[c] !== list[j] && this.find(list[j]!, listHashes[j]!) < 0) return false;
    }
    return true;
  }

  /**
   * The passes both of the above begin with: each id's hash into
   * `listHashes`, then into `candidates` the number held in the first slot
   * with that hash, or -1 at an empty one (an id not matched there is
   * found by the full probe).
   */
  private probe(list: readonly string[]): void {
    const n = list.length;
    if (n > this.listHashes.length) {
      this.listHashes = new Int32Array(2 * n);
      this.candidates = new Int32Array(2 * n);
    }
    const { listHashes, candidates } = this;
    for (let j = 0; j < n; j++) {
      const id = list[j]!;
      let h = 0x811c9dc5 ^ id.length;
      for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
      listHashes[j] = h;
    }
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let j = 0; j < n; j++) {
      const h = listHashes[j]!;
      for (let s = h & mask; ; s = (s + 1) & mask) {
        const v = slots[2 * s + 1]!;
        if (v === 0) {
          candidates[j] = -1;
          break;
        }
        if (slots[2 * s] === h) {
          candidates[j] = v - 1;
          break;
        }
      }
    }
    // Each candidate's id, read once here in a pass of loads that do not wait on one another (its place in `ids`,
    // then its string), so that the comparisons after it find both in the cache: comparing at once, each one waited
    // for its two misses before the next began (numbering the benchmark's 4,850,000 ids: 0.93 s against 1.20 s).
    // The sum is kept so that the loads are not optimised away.
    const ids = this.ids;
    let touched = 0;
    for (let j = 0; j < n; j++) {
      const c = candidates[j]!;
      if (c >= 0) touched += ids[c]!.length;
    }
    this.touched = touched;
  }

  /** The number of `id` (hash `h`), -1 when it has none. */
  private find(id: string, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = slots[2 * s + 1]!;
      if (v === 0) return -1;
      if (slots[2 * s] === h && this.ids[v - 1] === id) return v - 1;
    }
  }

  /** The number of `id` (hash `h`), given it the next one when it is new. */
  private numberOf(id: string, h: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const v = slots[2 * s + 1]!;
      if (v === 0) {
        const n = this.ids.length;
        this.ids.push(id);
        this.hashes.push(h);
        slots[2 * s] = h;
        slots[2 * s + 1] = n + 1;
        if (2 * this.ids.length > slots.length >> 1) this.grow();
        return n;
      }
      if (slots[2 * s] === h && this.ids[v - 1] === id) return v - 1;
    }
  }

  private grow(): void {
    const size = this.slots.length; // slots after growing: twice as many
    const mask = size - 1;
    const slots = new Int32Array(2 * size);
    for (let n = 0; n < this.ids.length; n++) {
      const h = this.hashes[n]!;
      let s = h & mask;
      while (slots[2 * s + 1] !== 0) s = (s + 1) & mask;
      slots[2 * s] = h;
      slots[2 * s + 1] = n + 1;
    }
    this.slots = slots;
  }
}

/**
 * {@link IdNumbers} holding `ids` (numbered in order), for checking many ids
 * against them at once with {@link IdNumbers.hasAll}: the loader checks the
 * 500,000 distinct ids of a 50,000-question output against 500,000 chunk
 * ids so, in passes that keep many cache misses under way, where
 * `Map.has` took one miss after another (in isolation: 0.19 s with the
 * table's building against 0.37 s).
 *
 * @example
 * const known = idNumbersOf(["c1", "c2"]);
 * known.hasAll(["c2", "c1"]) // true
 * known.hasAll(["c3"]) // false
 */
export function idNumbersOf(ids: Iterable<string>, expected = 0): IdNumbers {
  const numbers = new IdNumbers(expected);
  const batch: string[] = [];
  const out = new Int32Array(4096);
  for (const id of ids) {
    batch.push(id);
    if (batch.length === out.length) {
      numbers.numberAll(batch, out, 0);
      batch.length = 0;
    }
  }
  if (batch.length) numbers.numberAll(batch, out, 0);
  return numbers;
}

/**
 * The sending side, one list at a time: `add(list)` numbers a list's ids (a
 * table kept across blocks) and tells whether none is in it twice, so that
 * the loader's duplicate check (dataset.ts, duplicatesInList) costs no
 * second hash lookup per id; `take()` gives the lists added since the last
 * take as a block for the receiver's {@link listDecoder}.
 *
 * @example
 * const enc = new ListEncoder();
 * enc.add(["c1", "c2"]); // true
 * enc.add(["c2", "c2"]); // false: c2 twice
 * const block = enc.take();
 * // block.fresh: ["c1", "c2"]; block.codes: [0, 1, 1, 1]; block.lengths: [2, 2]
 */
export class ListEncoder {
  private readonly numbers = new IdNumbers();
  /** Ids numbered before the lists not yet taken. */
  private sent = 0;
  private codes = new Int32Array(1 << 12);
  private used = 0;
  private lengths: number[] = [];
  /** Number -> the serial of the last list it was in (duplicates within a list). */
  private lastList = new Int32Array(1 << 12);
  private serial = 0;

  add(list: readonly string[]): boolean {
    if (this.used + list.length > this.codes.length) {
      const codes = new Int32Array(Math.max(2 * this.codes.length, this.used + list.length));
      codes.set(this.codes.subarray(0, this.used));
      this.codes = codes;
    }
    const at = this.used;
    this.numbers.numberAll(list, this.codes, at);
    this.used += list.length;
    this.lengths.push(list.length);
    if (this.numbers.ids.length > this.lastList.length) {
      const grown = new Int32Array(Math.max(2 * this.lastList.length, this.numbers.ids.length));
      grown.set(this.lastList);
      this.lastList = grown;
    }
    const serial = ++this.serial;
    const { codes, lastList } = this;
    let unique = true;
    for (let i = at; i < this.used; i++) {
      const n = codes[i]!;
      if (lastList[n] === serial) unique = false;
      lastList[n] = serial;
    }
    return unique;
  }

  take(): EncodedLists {
    const { ids } = this.numbers;
    const block: EncodedLists = { fresh: ids.slice(this.sent), codes: this.codes.slice(0, this.used), lengths: Int32Array.from(this.lengths) };
    this.sent = ids.length;
    this.used = 0;
    this.lengths = [];
    return block;
  }
}

/**
 * The receiving side of {@link ListEncoder}: each call takes the blocks in
 * the order they were encoded and gives back the lists.
 */
export function listDecoder(): (block: EncodedLists) => string[][] {
  const table: string[] = [];
  return ({ fresh, codes, lengths }) => {
    for (const id of fresh) table.push(id);
    const out: string[][] = new Array(lengths.length);
    let k = 0;
    for (let i = 0; i < lengths.length; i++) {
      const n = lengths[i]!;
      const list: string[] = new Array(n);
      for (let j = 0; j < n; j++) {
        const id = table[codes[k++]!];
        if (id === undefined) throw new Error("ranked-list block out of order: a number not yet in the table");
        list[j] = id;
      }
      out[i] = list;
    }
    return out;
  };
}
