import { statSync } from "node:fs";
import { InputError, InputErrors } from "../../golden/errors.js";
import { WS, parseDecimal, streamLines, text } from "./bytes.js";
import type { Qrels, QrelsQuery } from "./qrels.js";
import { isBlank, isComment, splitFields } from "./fields.js";

/** Grade of a run line whose docno the qrels do not list (trec_eval's RELVALUE_NONPOOL). */
export const NONPOOL = -1;
/** Grade of a run line whose docno the qrels list with a negative grade (RELVALUE_UNJUDGED). */
export const UNJUDGED = -2;

/**
 * A parsed TREC run, stored compactly in flat typed arrays: per line its
 * score, its grade (looked up in the qrels while parsing, so no docno is
 * ever hashed into a big table) and its docno bytes in one arena (for the
 * tie-break and duplicate checks). Runs of consecutive lines of one query are
 * segments; a file grouped by query has one segment per query. No per-line
 * object or string is kept: 10 million lines take about 25 bytes each.
 */
export interface TrecRun {
  file: string;
  /** Query ids by query index, in order of first appearance. */
  qids: string[];
  qidIndex: Map<string, number>;
  /** Segment list per query index: flat [start, end) line-index pairs. */
  segmentsOf: Int32Array[];
  scores: Float64Array;
  /** Per line: the qrels grade of its docno, {@link NONPOOL} or {@link UNJUDGED}. */
  grades: Int32Array;
  /** Per line: its docno is arena[docStart[i], docStart[i] + docLen[i]). */
  arena: Uint8Array;
  docStart: Uint32Array;
  docLen: Uint16Array;
  /** Data lines read (comments and blank lines excluded). */
  lines: number;
  /** The run tag of the first line (trec_eval keeps the last one; they are normally all equal). */
  runTag: string;
  /** Lines with fields after the run tag, which trec_eval ignores and so do we (a counted warning). */
  extraFieldLines: number;
  /** The qrels the grades were looked up in (undefined: every grade is NONPOOL). */
  judgedBy: Qrels | undefined;
}

/** The docno of run line `i` as text. */
export function docnoOf(run: TrecRun, i: number): string {
  return text(run.arena, run.docStart[i]!, run.docStart[i]! + run.docLen[i]!);
}

const FIELDS = ["qid", "iter", "docno", "rank", "score", "run"];
// Local aliases: under tsx (tests) an imported binding is read through a getter on every use.
const W: Uint8Array = WS;
const parseNum: typeof parseDecimal = parseDecimal;
const MAX_PROBLEMS = 50;

/**
 * Reads a TREC run file (`qid iter docno rank score run`, white-space
 * separated) with a hand-written streaming byte parser: the hot path of
 * `ragjudge retrieval --trec-run`. Blank and `#` comment lines are skipped as
 * trec_eval skips them; CRLF and a byte-order mark are accepted; fields after
 * the sixth are ignored and counted. A missing field or a score that is not
 * a number is an error naming file, line and field (up to 50 at once). The
 * rank column is read but ignored, as trec_eval ignores it.
 *
 * @example
 * const qrels = readQrels("qrels.txt");
 * const run = readRun("run.txt", qrels); // grades looked up while parsing
 */
export function readRun(file: string, qrels?: Qrels, options: { chunkSize?: number } = {}): TrecRun {
  let fileSize = 0;
  try {
    fileSize = statSync(file).size;
  } catch {
    // streamLines reports a missing or unreadable file properly
  }
  const parser = new RunParser(file, qrels, fileSize);
  const size = streamLines(file, (buf, start, end) => parser.feed(buf, start, end), options.chunkSize);
  return parser.finish(size);
}

/**
 * The parser's state lives in fields between chunks and in locals while a
 * chunk is scanned (locals stay in registers; a closure's captured variables
 * would not), which is what makes the byte loop fast.
 */
class RunParser {
  private problems: InputError[] = [];
  private qids: string[] = [];
  private qidIndex = new Map<string, number>();
  private segs: number[][] = [];
  private cap = 1 << 16;
  private scores = new Float64Array(this.cap);
  private grades = new Int32Array(this.cap);
  private docStart = new Uint32Array(this.cap);
  private docLen = new Uint16Array(this.cap);
  private arena = new Uint8Array(this.cap * 8);
  private used = 0;
  private curQrels: QrelsQuery | undefined;
  private n = 0;
  private lineNo = 0;
  private prevQ = new Uint8Array(64);
  private prevLen = -1;
  private cur = -1; // current query index
  private segStart = 0;
  private runTag: string | undefined;
  private extra = 0;

  private bytesSeen = 0;
  private presized = false;

  constructor(private readonly file: string, private readonly qrels: Qrels | undefined, private readonly fileSize: number) {}

  /**
   * After the first chunk, sizes the arrays for the whole file from the
   * average line length seen so far, so they are copied once or never
   * instead of at every 1.5x growth step.
   */
  private presize(): void {
    this.presized = true;
    if (this.n < 1000 || this.bytesSeen >= this.fileSize) return;
    const lines = Math.ceil((this.fileSize / this.bytesSeen) * this.n * 1.03) + 1024;
    const arena = Math.ceil((this.used / this.n) * lines * 1.03) + 4096;
    if (lines > this.scores.length) {
      const s2 = new Float64Array(lines); s2.set(this.scores.subarray(0, this.n)); this.scores = s2;
      const g2 = new Int32Array(lines); g2.set(this.grades.subarray(0, this.n)); this.grades = g2;
      const d2 = new Uint32Array(lines); d2.set(this.docStart.subarray(0, this.n)); this.docStart = d2;
      const l2 = new Uint16Array(lines); l2.set(this.docLen.subarray(0, this.n)); this.docLen = l2;
    }
    if (arena > this.arena.length && arena <= 0xffffffff) {
      const a2 = new Uint8Array(arena); a2.set(this.arena.subarray(0, this.used)); this.arena = a2;
    }
  }

  feed(buf: Uint8Array, start: number, end: number): void {
    let n = this.n;
    let lineNo = this.lineNo;
    let scores = this.scores;
    let grades = this.grades;
    let docStart = this.docStart;
    let docLen = this.docLen;
    let arena = this.arena;
    let used = this.used;
    let tSlots: Int32Array | undefined, tHashes: Int32Array | undefined, tLens: Uint32Array | undefined, tStarts: Uint32Array | undefined, tArena: Uint8Array | undefined, tMask = 0;
    let qGrades: Int32Array | undefined;
    const useTable = (q: QrelsQuery | undefined) => {
      const t = q?.docs;
      tSlots = t?.slots; tHashes = t?.hashes; tLens = t?.lens; tStarts = t?.starts; tArena = t?.arena; tMask = t?.mask ?? 0;
      qGrades = q?.grades;
    };
    useTable(this.curQrels);
    let prevQ = this.prevQ;
    let prevLen = this.prevLen;
    let p = start;
    while (p < end) {
      lineNo++;
      const ls = p;
      let c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p++; continue; }
      if (c === 35) { p = buf.indexOf(10, p) + 1; continue; }
      // qid
      const qs = p;
      while (W[buf[p]!] === 0) p++;
      const qe = p;
      // iter
      c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 1); continue; }
      while (W[buf[p]!] === 0) p++;
      // docno, hashed while scanned
      c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 2); continue; }
      const ds = p;
      let h = 0x811c9dc5 | 0;
      while (W[(c = buf[p]!)] === 0) { h = Math.imul(h ^ c, 0x01000193); p++; }
      const de = p;
      // rank (ignored)
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 3); continue; }
      while (W[buf[p]!] === 0) p++;
      // score
      c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 4); continue; }
      const len = de - ds;
      const ss = p;
      while (W[buf[p]!] === 0) p++;
      const score = parseNum(buf, ss, p);
      if (score !== score) {
        p = this.fail(buf, ls, lineNo, "score", `expected a number, got ${JSON.stringify(text(buf, ss, p))}`);
        continue;
      }
      // run tag
      c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 5); continue; }
      const ts = p;
      while (W[buf[p]!] === 0) p++;
      if (this.runTag === undefined) this.runTag = text(buf, ts, p);
      c = buf[p]!;
      while (c !== 10 && W[c] === 1) c = buf[++p]!;
      if (c !== 10) {
        this.extra++;
        p = buf.indexOf(10, p);
      }
      p++;

      // query: compare bytes with the previous line's qid before touching strings
      const ql = qe - qs;
      let same = ql === prevLen;
      if (same) {
        for (let i = 0; i < ql; i++) {
          if (buf[qs + i] !== prevQ[i]) { same = false; break; }
        }
      }
      if (!same) {
        this.n = n;
        this.startQuery(text(buf, qs, qe));
        useTable(this.curQrels);
        if (ql > prevQ.length) prevQ = this.prevQ = new Uint8Array(ql * 2);
        prevQ.set(buf.subarray(qs, qe));
        prevLen = this.prevLen = ql;
      }
      if (n === scores.length || used + len > arena.length) {
        this.n = n;
        this.used = used;
        this.grow(len);
        scores = this.scores;
        grades = this.grades;
        docStart = this.docStart;
        docLen = this.docLen;
        arena = this.arena;
      }
      if (len > 65535) { p = this.fail(buf, ls, lineNo, "docno", `longer than 65535 bytes`); continue; }
      scores[n] = score;
      // the grade: ByteKeyTable.get inlined (a call here costs a third of the parse)
      let g = NONPOOL;
      if (tSlots !== undefined) {
        let slot = h & tMask;
        for (;;) {
          const v = tSlots[slot]!;
          if (v === 0) break;
          const id = v - 1;
          if (tHashes![id] === h && tLens![id] === len) {
            const a = tStarts![id]!;
            let k = 0;
            while (k < len && tArena![a + k] === buf[ds + k]) k++;
            if (k === len) {
              g = qGrades![id]! < 0 ? UNJUDGED : qGrades![id]!;
              break;
            }
          }
          slot = (slot + 1) & tMask;
        }
      }
      grades[n] = g;
      docStart[n] = used;
      docLen[n] = len;
      for (let i = 0; i < len; i++) arena[used + i] = buf[ds + i]!;
      used += len;
      n++;
    }
    this.n = n;
    this.used = used;
    this.lineNo = lineNo;
    this.bytesSeen += end - start;
    if (!this.presized) this.presize();
  }

  private startQuery(qid: string): void {
    this.closeSegment();
    let qi = this.qidIndex.get(qid);
    if (qi === undefined) {
      qi = this.qids.length;
      this.qids.push(qid);
      this.qidIndex.set(qid, qi);
      this.segs.push([]);
    }
    this.cur = qi;
    this.segStart = this.n;
    this.curQrels = this.qrels?.byQid.get(qid);
  }

  private closeSegment(): void {
    if (this.cur >= 0 && this.n > this.segStart) this.segs[this.cur]!.push(this.segStart, this.n);
  }

  private grow(need: number): void {
    if (this.n === this.scores.length) {
      const cap = Math.ceil(this.scores.length * 1.5);
      const s2 = new Float64Array(cap); s2.set(this.scores); this.scores = s2;
      const g2 = new Int32Array(cap); g2.set(this.grades); this.grades = g2;
      const d2 = new Uint32Array(cap); d2.set(this.docStart); this.docStart = d2;
      const l2 = new Uint16Array(cap); l2.set(this.docLen); this.docLen = l2;
    }
    if (this.used + need > this.arena.length) {
      let size = Math.ceil(this.arena.length * 1.5);
      while (size < this.used + need) size *= 2;
      if (size > 0xffffffff) throw new InputError(this.file, undefined, undefined, "docnos exceed 4 GiB in total; split the run");
      const a2 = new Uint8Array(size); a2.set(this.arena.subarray(0, this.used)); this.arena = a2;
    }
  }

  /** Records a malformed line and returns the offset of the next line. */
  private fail(buf: Uint8Array, s: number, lineNo: number, field: number | string, message?: string): number {
    const e = buf.indexOf(10, s);
    if (this.problems.length < MAX_PROBLEMS) {
      if (typeof field === "number") {
        const f = new Int32Array(14);
        const got = splitFields(buf, s, e, f, 6);
        const name = FIELDS[Math.min(field, got)]!;
        this.problems.push(new InputError(this.file, lineNo, name, message ?? `missing (a run line has 6 fields: qid iter docno rank score run; found ${got})`));
      } else this.problems.push(new InputError(this.file, lineNo, field, message ?? "malformed"));
    }
    return e + 1;
  }

  finish(size: number): TrecRun {
    this.closeSegment();
    if (this.problems.length) throw new InputErrors(this.problems);
    const n = this.n;
    if (size === 0 || n === 0) throw new InputError(this.file, undefined, undefined, "file is empty (expected run lines: qid iter docno rank score run)");
    return {
      file: this.file,
      qids: this.qids,
      qidIndex: this.qidIndex,
      segmentsOf: this.segs.map((s) => Int32Array.from(s)),
      scores: this.scores.subarray(0, n),
      grades: this.grades.subarray(0, n),
      arena: this.arena.subarray(0, this.used),
      docStart: this.docStart.subarray(0, n),
      docLen: this.docLen.subarray(0, n),
      lines: n,
      runTag: this.runTag ?? "",
      extraFieldLines: this.extra,
      judgedBy: this.qrels,
    };
  }
}

/**
 * Finds the lines of a query that name a docno, for error messages only
 * (a slow second pass, run when a duplicate has been found).
 */
export function locateDocLines(file: string, qid: string, docno: string): number[] {
  const out: number[] = [];
  const f = new Int32Array(12);
  let lineNo = 0;
  streamLines(file, (buf, start, end) => {
    let s = start;
    while (s < end) {
      const e = buf.indexOf(10, s);
      lineNo++;
      if (!isBlank(buf, s, e) && !isComment(buf, s, e) && splitFields(buf, s, e, f, 3) >= 3) {
        if (text(buf, f[0]!, f[1]!) === qid && text(buf, f[4]!, f[5]!) === docno) out.push(lineNo);
      }
      s = e + 1;
    }
  });
  return out;
}
