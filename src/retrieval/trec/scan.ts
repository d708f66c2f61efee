import { InputError } from "../../golden/errors.js";
import { parseDecimal, skipBlanks, skipField, text } from "./bytes.js";
import { splitFields } from "./fields.js";
import type { LineStore } from "./lines.js";
import type { Qrels, QrelsQuery } from "./qrels.js";

/** Grade of a run line whose docno the qrels do not list (trec_eval's RELVALUE_NONPOOL). */
export const NONPOOL = -1;
/** Grade of a run line whose docno the qrels list with a negative grade (RELVALUE_UNJUDGED). */
export const UNJUDGED = -2;

const FIELDS = ["qid", "iter", "docno", "rank", "score", "run"];
// A local alias: under tsx (tests) an imported binding is read through a getter on every use.
const parseNum: typeof parseDecimal = parseDecimal;
const skipB: typeof skipBlanks = skipBlanks;
const skipF: typeof skipField = skipField;
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** Malformed lines reported at once; the rest are counted, not listed. */
export const MAX_PROBLEMS = 50;

/**
 * Called when the lines of one query end (the next line names another query,
 * or the input ends): they are `store` lines [start, end), the first of them
 * on line `firstLine` of the input. The callback may clear the store.
 */
export type SegmentEnd = (qid: string, start: number, end: number, firstLine: number) => void;

/**
 * The TREC run line parser (`qid iter docno rank score run`, white-space
 * separated): a hand-written byte loop, the hot path of `ragjudge retrieval
 * --trec-run`. Blank and `#` comment lines are skipped as trec_eval skips
 * them; CRLF is accepted; fields after the sixth are ignored and counted. A
 * missing field or a score that is not a number is an error naming file,
 * line and field (up to {@link MAX_PROBLEMS}). The rank column is read but
 * ignored, as trec_eval ignores it. Each line's grade is looked up in the
 * qrels while it is parsed, so no docno is ever hashed into a big table.
 *
 * Consecutive lines of one query form a segment, handed to `onSegmentEnd`.
 * The parser's state lives in fields between chunks and in locals while a
 * chunk is scanned (locals stay in registers; fields and a closure's
 * captured variables would not), which is what makes the loop fast.
 */
export class RunScanner {
  readonly problems: InputError[] = [];
  /** Data lines read (comments and blank lines excluded). */
  dataLines = 0;
  /** Lines of any kind read (the line number of the last one). */
  lineNo: number;
  /** Lines with fields after the run tag. */
  extraFieldLines = 0;
  /** The run tag of the first data line. */
  runTag: string | undefined;

  private cur: QrelsQuery | undefined;
  private qid: string | undefined;
  private segStart = 0;
  private segLine = 0;
  private prevQ = new Uint8Array(64);
  private prevLen = -1;

  /**
   * @param file named in messages
   * @param store receives the lines
   * @param firstLine number of the line before the first one fed (0 at the start of a file)
   */
  constructor(
    private readonly file: string,
    private readonly qrels: Qrels | undefined,
    readonly store: LineStore,
    private readonly onSegmentEnd: SegmentEnd,
    firstLine = 0,
  ) {
    this.lineNo = firstLine;
  }

  /** Parses the whole lines `buf[start, end)` (the range ends just after a newline). */
  feed(buf: Uint8Array, start: number, end: number): void {
    const st = this.store;
    let n = st.n;
    let used = st.used;
    let scores = st.scores;
    let grades = st.grades;
    let hashes = st.hashes;
    let docStart = st.docStart;
    let docLen = st.docLen;
    let arena = st.arena;
    let q = this.cur;
    let tSlots = q?.docs.slots;
    let tHashes = q?.docs.hashes;
    let tLens = q?.docs.lens;
    let tStarts = q?.docs.starts;
    let tArena = q?.docs.arena;
    let tMask = q?.docs.mask ?? 0;
    let qGrades = q?.grades;
    let prevQ = this.prevQ;
    let prevLen = this.prevLen;
    let lineNo = this.lineNo;
    let data = this.dataLines;
    let p = start;
    // White space is C's isspace(): \t \n \v \f \r and space (skipBlanks and skipField in bytes.ts,
    // which V8 inlines); `c` is always buf[p].
    while (p < end) {
      lineNo++;
      const ls = p;
      let c = buf[p]!;
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p++; continue; }
      if (c === 35) { p = buf.indexOf(10, p) + 1; continue; }
      // qid
      const qs = p;
      c = buf[(p = skipF(buf, p))]!;
      const qe = p;
      // iter
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 1); continue; }
      c = buf[(p = skipF(buf, p))]!;
      // docno, hashed while scanned
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 2); continue; }
      const ds = p;
      let h = 0x811c9dc5 | 0;
      while ((c = buf[p]!) > 32 || (c !== 32 && (c < 9 || c > 13))) { h = Math.imul(h ^ c, 0x01000193); p++; }
      const len = p - ds;
      // rank (ignored)
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 3); continue; }
      c = buf[(p = skipF(buf, p))]!;
      // score: plain decimals (up to 15 digits) are read here, exactly as parseDecimal reads them; others go to it
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 4); continue; }
      const ss = p;
      const neg = c === 45;
      if (neg) c = buf[++p]!;
      let mant = 0;
      let digits = 0;
      while (c >= 48 && c <= 57) { mant = mant * 10 + (c - 48); digits++; c = buf[++p]!; }
      let scale = 0;
      if (c === 46) {
        c = buf[++p]!;
        while (c >= 48 && c <= 57) { mant = mant * 10 + (c - 48); scale++; c = buf[++p]!; }
      }
      let score: number;
      if (digits + scale > 0 && digits + scale <= 15 && (c === 32 || (c >= 9 && c <= 13))) {
        const v = scale === 0 ? mant : mant / POW10[scale]!;
        score = neg ? 0 - v : v; // 0 - 0 is +0, as in parseDecimal
      } else {
        c = buf[(p = skipF(buf, p))]!;
        score = parseNum(buf, ss, p);
        if (score !== score) {
          p = this.fail(buf, ls, lineNo, "score", `expected a number, got ${JSON.stringify(text(buf, ss, p))}`);
          continue;
        }
      }
      // run tag
      c = buf[(p = skipB(buf, p))]!;
      if (c === 10) { p = this.fail(buf, ls, lineNo, 5); continue; }
      const ts = p;
      c = buf[(p = skipF(buf, p))]!;
      if (data === 0) this.runTag = text(buf, ts, p);
      c = buf[(p = skipB(buf, p))]!;
      if (c !== 10) {
        this.extraFieldLines++;
        p = buf.indexOf(10, p);
      }
      p++;
      data++;

      // query: compare bytes with the previous line's qid before touching strings
      const ql = qe - qs;
      let same = ql === prevLen;
      if (same) {
        for (let i = 0; i < ql; i++) {
          if (buf[qs + i] !== prevQ[i]) { same = false; break; }
        }
      }
      if (!same) {
        st.n = n;
        st.used = used;
        this.startQuery(text(buf, qs, qe), lineNo);
        n = st.n;
        used = st.used;
        q = this.cur;
        tSlots = q?.docs.slots; tHashes = q?.docs.hashes; tLens = q?.docs.lens; tStarts = q?.docs.starts; tArena = q?.docs.arena; tMask = q?.docs.mask ?? 0;
        qGrades = q?.grades;
        if (ql > prevQ.length) prevQ = this.prevQ = new Uint8Array(ql * 2);
        prevQ.set(buf.subarray(qs, qe));
        prevLen = this.prevLen = ql;
      }
      if (n === scores.length || used + len > arena.length) {
        st.n = n;
        st.used = used;
        try {
          st.reserve(n + 1, used + len);
        } catch {
          throw new InputError(this.file, undefined, undefined, "docnos exceed 4 GiB in total; split the run");
        }
        scores = st.scores; grades = st.grades; hashes = st.hashes; docStart = st.docStart; docLen = st.docLen; arena = st.arena;
      }
      if (len > 65535) { data--; p = this.fail(buf, ls, lineNo, "docno", "longer than 65535 bytes"); continue; }
      scores[n] = score;
      hashes[n] = h;
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
              const gr = qGrades![id]!;
              g = gr < 0 ? UNJUDGED : gr;
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
    st.n = n;
    st.used = used;
    this.lineNo = lineNo;
    this.dataLines = data;
  }

  /** Ends the input: the last query's segment is handed over. */
  finish(): void {
    this.endSegment();
    this.qid = undefined;
  }

  private startQuery(qid: string, lineNo: number): void {
    this.endSegment();
    this.qid = qid;
    this.segStart = this.store.n;
    this.segLine = lineNo;
    this.cur = this.qrels?.byQid.get(qid);
  }

  private endSegment(): void {
    if (this.qid !== undefined && this.store.n > this.segStart) this.onSegmentEnd(this.qid, this.segStart, this.store.n, this.segLine);
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
}
