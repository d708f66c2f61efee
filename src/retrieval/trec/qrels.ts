import { statSync } from "node:fs";
import { InputError, InputErrors } from "../../golden/errors.js";
import { streamLines, text } from "./bytes.js";
import { hashBytes, slotsFor, type KeyTable } from "./keytable.js";
import { parseInteger, sortByteOrder, splitFields } from "./fields.js";

/** One query's judgements: its docnos in a byte-keyed table, grades by table index. */
export interface QrelsQuery {
  qid: string;
  docs: KeyTable;
  /** Grades by docs index; a negative grade means "in the pool but unjudged". */
  grades: Int32Array;
  /** Positive grades, descending: the ideal ranking's gains for nDCG. */
  idealGains: Float64Array;
}

/** A parsed qrels file. */
export interface Qrels {
  file: string;
  /** Queries in trec_eval's order (query id by byte order). */
  queries: QrelsQuery[];
  byQid: Map<string, QrelsQuery>;
  /** Lines with a positive grade: trec_eval -c's summary num_rel, whatever -l says. */
  positiveLines: number;
  lines: number;
}

const MAX_PROBLEMS = 50;
const FIELDS = ["qid", "iter", "docno", "relevance"];

/** The positive grades of a query, descending: the ideal ranking's gains. */
function idealGains(g: Int32Array): Float64Array {
  let positive = 0;
  for (let k = 0; k < g.length; k++) if (g[k]! > 0) positive++;
  const ideal = new Float64Array(positive);
  if (positive > 32) {
    for (let k = 0, j = 0; k < g.length; k++) if (g[k]! > 0) ideal[j++] = g[k]!;
    return ideal.sort().reverse();
  }
  // a few grades (the usual query): inserted in order, where sort() and reverse() cost a microsecond a query
  for (let k = 0, j = 0; k < g.length; k++) {
    const v = g[k]!;
    if (v <= 0) continue;
    let i = j++;
    while (i > 0 && ideal[i - 1]! < v) {
      ideal[i] = ideal[i - 1]!;
      i--;
    }
    ideal[i] = v;
  }
  return ideal;
}

/** Relevant documents of a query at a relevance level (grade >= level). */
export function numRelevant(q: QrelsQuery, level: number): number {
  let n = 0;
  for (let i = 0; i < q.grades.length; i++) if (q.grades[i]! >= level && q.grades[i]! >= 0) n++;
  return n;
}

/**
 * Reads a TREC qrels file (`qid iter docno relevance`, white-space separated,
 * `#` comment lines and blank lines skipped, CRLF and a byte-order mark
 * accepted). Every malformed line, a non-integer grade and a docno judged
 * twice for one query are errors naming file, line and field (trec_eval stops
 * on these too); up to 50 are reported at once, the first 50 in line order.
 *
 * @example
 * const qrels = readQrels("qrels.txt"); // qrels.byQid.get("17")?.grades
 */
export function readQrels(file: string): Qrels {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // streamLines reports a missing or unreadable file properly
  }
  const reader = new QrelsReader(file, size);
  const read = streamLines(file, (buf, start, end) => reader.feed(buf, start, end));
  if (read === 0 || (reader.dataLines === 0 && reader.problems.length === 0)) {
    throw new InputError(file, undefined, undefined, "file is empty (expected qrels lines: qid iter docno relevance)");
  }
  return reader.finish();
}

/** Growable per-line columns of the qrels lines read so far (one entry per data line). */
class QrelsLines {
  n = 0;
  used = 0;
  query: Int32Array;
  grade: Int32Array;
  line: Int32Array;
  hash: Int32Array;
  start: Uint32Array;
  len: Uint32Array;
  arena: Uint8Array;

  constructor(lines: number, arenaBytes: number) {
    this.arena = new Uint8Array(arenaBytes);
    this.query = new Int32Array(lines);
    this.grade = new Int32Array(lines);
    this.line = new Int32Array(lines);
    this.hash = new Int32Array(lines);
    this.start = new Uint32Array(lines);
    this.len = new Uint32Array(lines);
  }

  reserve(bytes: number): void {
    if (this.n === this.query.length) {
      const cap = this.n * 2;
      const grow = <T extends Int32Array | Uint32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(cap);
        b.set(a);
        return b;
      };
      this.query = grow(this.query); this.grade = grow(this.grade); this.line = grow(this.line);
      this.hash = grow(this.hash); this.start = grow(this.start); this.len = grow(this.len);
    }
    if (this.used + bytes > this.arena.length) {
      let size = this.arena.length * 2;
      while (size < this.used + bytes) size *= 2;
      const b = new Uint8Array(size);
      b.set(this.arena.subarray(0, this.used));
      this.arena = b;
    }
  }
}

/**
 * The qrels line parser. A byte loop reads well-formed lines (4 fields, an
 * integer grade) into flat columns, with its state in locals while a chunk
 * is scanned; any other line goes through {@link QrelsReader.slowLine},
 * which names the problem exactly. {@link QrelsReader.finish} then groups
 * the lines by query and builds every query's docno table in shared arrays
 * (finding docnos judged twice on the way).
 */
class QrelsReader {
  /** Malformed lines, in line order (duplicates are found by finish). */
  readonly problems: InputError[] = [];
  private readonly rows: QrelsLines;
  private readonly qids: string[] = [];
  private readonly qidIndex = new Map<string, number>();
  // counted apart so that slowLine changes nothing feed keeps in locals
  private positive = 0;
  private slowPositive = 0;
  private lineNo = 0;
  private cur = -1;
  private prevQ = new Uint8Array(64);
  private prevLen = -1;
  private readonly f = new Int32Array(10);

  /**
   * @param sizeHint the file's size, to size the columns once: qrels lines are some 12 to 20 bytes, half of them
   * the docno (growing a 30 MB file's columns and docno bytes by doubling took a tenth of its parse)
   */
  constructor(private readonly file: string, sizeHint: number) {
    this.rows = new QrelsLines(Math.max(1024, Math.ceil(sizeHint / 12)), Math.max(8192, Math.ceil(sizeHint / 2)));
  }

  /** Data lines read (blank and comment lines excluded). */
  get dataLines(): number {
    return this.rows.n;
  }

  feed(buf: Uint8Array, start: number, end: number): void {
    const rows = this.rows;
    let n = rows.n;
    let used = rows.used;
    let { query, grade: grades, line, hash, start: starts, len: lens, arena } = rows;
    let lineNo = this.lineNo;
    let cur = this.cur;
    let prevQ = this.prevQ;
    let prevLen = this.prevLen;
    let positive = this.positive;
    let p = start;
    // White space is C's isspace() (\t \n \v \f \r, space), tested by comparisons as in scan.ts.
    while (p < end) {
      lineNo++;
      const ls = p;
      let c = buf[p]!;
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
      if (c === 10) { p++; continue; }
      if (c === 35) { p = buf.indexOf(10, p) + 1; continue; }
      const qs = p;
      while ((c = buf[p]!) > 32 || (c !== 32 && (c < 9 || c > 13))) p++;
      const qe = p;
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
      if (c === 10) { p = this.slow(buf, ls, lineNo, n, used); n = rows.n; used = rows.used; ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows); continue; }
      while ((c = buf[p]!) > 32 || (c !== 32 && (c < 9 || c > 13))) p++; // iter
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
      if (c === 10) { p = this.slow(buf, ls, lineNo, n, used); n = rows.n; used = rows.used; ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows); continue; }
      const ds = p;
      let h = 0x811c9dc5 | 0;
      while ((c = buf[p]!) > 32 || (c !== 32 && (c < 9 || c > 13))) { h = Math.imul(h ^ c, 0x01000193); p++; }
      const de = p;
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
      if (c === 10) { p = this.slow(buf, ls, lineNo, n, used); n = rows.n; used = rows.used; ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows); continue; }
      // grade: an optional sign and up to 9 digits, then only white space to the end of the line
      let neg = false;
      if (c === 45 || c === 43) { neg = c === 45; c = buf[++p]!; }
      let grade = 0;
      let digits = 0;
      while (c >= 48 && c <= 57) { grade = grade * 10 + (c - 48); digits++; c = buf[++p]!; }
      if (digits === 0 || digits > 9 || !(c === 32 || (c >= 9 && c <= 13))) { p = this.slow(buf, ls, lineNo, n, used); n = rows.n; used = rows.used; ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows); continue; }
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p]!;
      if (c !== 10) { p = this.slow(buf, ls, lineNo, n, used); n = rows.n; used = rows.used; ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows); continue; }
      p++;
      if (neg) grade = 0 - grade;
      // the previous line's query, unless the qid bytes differ (files are usually grouped)
      const ql = qe - qs;
      let same = cur >= 0 && ql === prevLen;
      for (let i = 0; same && i < ql; i++) if (buf[qs + i] !== prevQ[i]) same = false;
      if (!same) {
        cur = this.queryIndex(text(buf, qs, qe));
        if (ql > prevQ.length) prevQ = this.prevQ = new Uint8Array(ql * 2);
        for (let i = 0; i < ql; i++) prevQ[i] = buf[qs + i]!;
        prevLen = this.prevLen = ql;
      }
      // the row, written in place (QrelsLines.reserve only when full)
      const len = de - ds;
      if (n === query.length || used + len > arena.length) {
        rows.n = n;
        rows.used = used;
        rows.reserve(len);
        ({ query, grade: grades, line, hash, start: starts, len: lens, arena } = rows);
      }
      query[n] = cur;
      grades[n] = grade;
      line[n] = lineNo;
      hash[n] = h;
      starts[n] = used;
      lens[n] = len;
      for (let k = 0; k < len; k++) arena[used + k] = buf[ds + k]!;
      used += len;
      n++;
      if (grade > 0) positive++;
    }
    rows.n = n;
    rows.used = used;
    this.lineNo = lineNo;
    this.cur = cur;
    this.positive = positive;
  }

  /** {@link QrelsReader.slowLine} with the rows feed holds in locals written back first. */
  private slow(buf: Uint8Array, s: number, lineNo: number, n: number, used: number): number {
    this.rows.n = n;
    this.rows.used = used;
    return this.slowLine(buf, s, lineNo);
  }

  private queryIndex(qid: string): number {
    let qi = this.qidIndex.get(qid);
    if (qi === undefined) {
      this.qidIndex.set(qid, (qi = this.qids.length));
      this.qids.push(qid);
    }
    return qi;
  }

  private add(buf: Uint8Array, qi: number, ds: number, de: number, h: number, grade: number, lineNo: number): void {
    const rows = this.rows;
    const len = de - ds;
    rows.reserve(len);
    const i = rows.n++;
    rows.query[i] = qi;
    rows.grade[i] = grade;
    rows.line[i] = lineNo;
    rows.hash[i] = h;
    rows.start[i] = rows.used;
    rows.len[i] = len;
    const arena = rows.arena;
    for (let k = 0, a = rows.used; k < len; k++) arena[a + k] = buf[ds + k]!;
    rows.used += len;
  }

  /**
   * A line the byte loop did not take: checked field by field, and either
   * stored (a grade with more digits than the loop reads) or reported.
   * Returns the offset of the next line.
   */
  private slowLine(buf: Uint8Array, s: number, lineNo: number): number {
    const e = buf.indexOf(10, s);
    const f = this.f;
    const n = splitFields(buf, s, e, f, 4);
    if (n !== 4) {
      this.problem(
        n < 4
          ? new InputError(this.file, lineNo, FIELDS[n], `missing (a qrels line has 4 fields: qid iter docno relevance; found ${n})`)
          : new InputError(this.file, lineNo, undefined, `${n} fields, expected 4 (qid iter docno relevance)`),
      );
      return e + 1;
    }
    const grade = parseInteger(buf, f[6]!, f[7]!);
    if (Number.isNaN(grade)) {
      this.problem(new InputError(this.file, lineNo, "relevance", `expected a whole number, got ${JSON.stringify(text(buf, f[6]!, f[7]!))}`));
      return e + 1;
    }
    this.add(buf, this.queryIndex(text(buf, f[0]!, f[1]!)), f[4]!, f[5]!, hashBytes(buf, f[4]!, f[5]!), grade, lineNo);
    if (grade > 0) this.slowPositive++;
    return e + 1;
  }

  private problem(e: InputError): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(e);
  }

  /**
   * Groups the lines by query (keeping line order within each) into shared
   * arrays and builds each query's table as views of them. A docno judged
   * twice for a query is a problem (the first 50 problems by line are
   * thrown); otherwise the queries come in trec_eval's order.
   */
  finish(): Qrels {
    const rows = this.rows;
    const nq = this.qids.length;
    const at = new Int32Array(nq + 1);
    for (let i = 0; i < rows.n; i++) at[rows.query[i]! + 1]!++;
    for (let q = 0; q < nq; q++) at[q + 1]! += at[q]!;
    let slotTotal = 0;
    for (let q = 0; q < nq; q++) slotTotal += slotsFor(at[q + 1]! - at[q]!);
    // columns in query order; duplicates are dropped as they are found, so each query's part may end early
    const hashes = new Int32Array(rows.n);
    const starts = new Uint32Array(rows.n);
    const lens = new Uint32Array(rows.n);
    const grades = new Int32Array(rows.n);
    const lines = new Int32Array(rows.n);
    const slots = new Int32Array(slotTotal);
    const fill = at.slice(0, nq);
    const count = new Int32Array(nq);
    const slotAt = new Int32Array(nq + 1);
    for (let q = 0; q < nq; q++) slotAt[q + 1] = slotAt[q]! + slotsFor(at[q + 1]! - at[q]!);
    const duplicates: InputError[] = [];
    // the columns in locals: read once per line, each a field load in the loop otherwise
    const { arena, query: rowQuery, hash: rowHash, start: rowStart, len: rowLen, grade: rowGrade, line: rowLine } = rows;
    for (let i = 0; i < rows.n; i++) {
      const q = rowQuery[i]!;
      const base = at[q]!;
      const s0 = slotAt[q]!;
      const mask = slotAt[q + 1]! - s0 - 1;
      const h = rowHash[i]!;
      const a = rowStart[i]!;
      const len = rowLen[i]!;
      let slot = h & mask;
      let dup = -1;
      for (;;) {
        const v = slots[s0 + slot]!;
        if (v === 0) break;
        const id = base + v - 1;
        if (hashes[id] === h && lens[id] === len) {
          const b = starts[id]!;
          let k = 0;
          while (k < len && arena[b + k] === arena[a + k]) k++;
          if (k === len) { dup = id; break; }
        }
        slot = (slot + 1) & mask;
      }
      if (dup >= 0) {
        if (duplicates.length < MAX_PROBLEMS) {
          duplicates.push(new InputError(this.file, rowLine[i]!, "docno", `document ${JSON.stringify(text(arena, a, a + len))} is judged twice for query ${JSON.stringify(this.qids[q])} (first on line ${lines[dup]}); trec_eval refuses this too`));
        }
        continue;
      }
      const id = fill[q]!++;
      hashes[id] = h;
      starts[id] = a;
      lens[id] = len;
      grades[id] = rowGrade[i]!;
      lines[id] = rowLine[i]!;
      slots[s0 + slot] = id - base + 1;
      count[q]!++;
    }
    if (this.problems.length || duplicates.length) {
      const all = [...this.problems, ...duplicates].sort((x, y) => x.line! - y.line!);
      throw new InputErrors(all.slice(0, MAX_PROBLEMS));
    }
    const queries: QrelsQuery[] = this.qids.map((qid, q) => {
      const b = at[q]!;
      const e = b + count[q]!;
      const g = grades.subarray(b, e);
      const docs: KeyTable = { arena, starts: starts.subarray(b, e), lens: lens.subarray(b, e), hashes: hashes.subarray(b, e), slots: slots.subarray(slotAt[q]!, slotAt[q + 1]!), mask: slotAt[q + 1]! - slotAt[q]! - 1, count: e - b };
      return { qid, docs, grades: g, idealGains: idealGains(g) };
    });
    sortByteOrder(queries, (q) => q.qid);
    return { file: this.file, queries, byQid: new Map(queries.map((q) => [q.qid, q])), positiveLines: this.positive + this.slowPositive, lines: rows.n };
  }
}
