/**
 * Run lines stored compactly in flat typed arrays: per line its score, its
 * grade (looked up in the qrels while parsing), the FNV-1a hash of its docno
 * and its docno bytes in one arena (for the tie-break and duplicate checks).
 * No per-line object or string is kept: a line takes about 25 bytes.
 *
 * One store holds a whole run (`readRun`) or, when a run is scored as it
 * streams past, only the lines of the query being read (`scoreRange`).
 */
export interface LineView {
  scores: Float64Array;
  /** Per line: the qrels grade of its docno, NONPOOL or UNJUDGED (run.ts). */
  grades: Int32Array;
  /** Per line: FNV-1a of its docno bytes ({@link hashBytes} in keytable.ts). */
  hashes: Int32Array;
  /** Per line: its docno is arena[docStart[i], docStart[i] + docLen[i]). */
  arena: Uint8Array;
  docStart: Uint32Array;
  docLen: Uint16Array;
}

/** A growable {@link LineView}: `n` lines and `used` arena bytes are in use. */
export class LineStore implements LineView {
  n = 0;
  used = 0;
  scores: Float64Array;
  grades: Int32Array;
  hashes: Int32Array;
  docStart: Uint32Array;
  docLen: Uint16Array;
  arena: Uint8Array;

  constructor(lines = 1024, bytes = lines * 8) {
    this.scores = new Float64Array(lines);
    this.grades = new Int32Array(lines);
    this.hashes = new Int32Array(lines);
    this.docStart = new Uint32Array(lines);
    this.docLen = new Uint16Array(lines);
    this.arena = new Uint8Array(bytes);
  }

  /** Makes room for at least `lines` lines and `bytes` arena bytes in all (copying what is stored). */
  reserve(lines: number, bytes: number): void {
    if (lines > this.scores.length) {
      const cap = Math.max(lines, Math.ceil(this.scores.length * 1.5));
      const n = this.n;
      const s = new Float64Array(cap); s.set(this.scores.subarray(0, n)); this.scores = s;
      const g = new Int32Array(cap); g.set(this.grades.subarray(0, n)); this.grades = g;
      const h = new Int32Array(cap); h.set(this.hashes.subarray(0, n)); this.hashes = h;
      const d = new Uint32Array(cap); d.set(this.docStart.subarray(0, n)); this.docStart = d;
      const l = new Uint16Array(cap); l.set(this.docLen.subarray(0, n)); this.docLen = l;
    }
    if (bytes > this.arena.length) {
      let size = Math.ceil(this.arena.length * 1.5);
      while (size < bytes) size *= 2;
      if (size > 0xffffffff) size = 0xffffffff;
      if (size < bytes) throw new RangeError("docnos exceed 4 GiB in total");
      const a = new Uint8Array(size); a.set(this.arena.subarray(0, this.used)); this.arena = a;
    }
  }

  /** Forgets every line, keeping the memory for the next ones. */
  clear(): void {
    this.n = 0;
    this.used = 0;
  }

  /**
   * A store holding the arrays of `v` as they are (not copied), so that
   * code reading lines sees one kind of object whatever made them (V8
   * compiles such code once instead of again for each kind).
   */
  static of(v: LineView): LineStore {
    if (v instanceof LineStore) return v;
    const s = new LineStore(0, 0);
    s.scores = v.scores;
    s.grades = v.grades;
    s.hashes = v.hashes;
    s.docStart = v.docStart;
    s.docLen = v.docLen;
    s.arena = v.arena;
    s.n = v.scores.length;
    s.used = v.arena.length;
    return s;
  }

  /** Lines [start, end) as a standalone view of their own (copied, docno offsets rebased). */
  slice(start: number, end: number): LineView {
    const a0 = start < end ? this.docStart[start]! : 0;
    const a1 = start < end ? this.docStart[end - 1]! + this.docLen[end - 1]! : 0;
    const docStart = this.docStart.slice(start, end);
    for (let i = 0; i < docStart.length; i++) docStart[i] = docStart[i]! - a0;
    return {
      scores: this.scores.slice(start, end),
      grades: this.grades.slice(start, end),
      hashes: this.hashes.slice(start, end),
      docStart,
      docLen: this.docLen.slice(start, end),
      arena: this.arena.slice(a0, a1),
    };
  }
}

/** Lines of `a` then of `b` as one view (docno offsets of `b` shifted past `a`'s arena). */
export function concatLines(a: LineView, b: LineView): LineView {
  const join = <T extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(x: T, y: T, make: new (n: number) => T): T => {
    const out = new make(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  const docStart = join(a.docStart, b.docStart, Uint32Array);
  for (let i = a.docStart.length; i < docStart.length; i++) docStart[i] = docStart[i]! + a.arena.length;
  return {
    scores: join(a.scores, b.scores, Float64Array),
    grades: join(a.grades, b.grades, Int32Array),
    hashes: join(a.hashes, b.hashes, Int32Array),
    docStart,
    docLen: join(a.docLen, b.docLen, Uint16Array),
    arena: join(a.arena, b.arena, Uint8Array),
  };
}
