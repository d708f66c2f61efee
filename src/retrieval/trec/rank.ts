import type { JudgedList } from "../measures/types.js";
import { text } from "./bytes.js";
import type { LineView } from "./lines.js";
import { numRelevant, type QrelsQuery } from "./qrels.js";

/** A docno listed twice for one query of a run (trec_eval refuses such runs). */
export class DuplicateDocError extends Error {
  constructor(readonly qid: string, readonly docno: string) {
    super(`document ${JSON.stringify(docno)} appears twice for query ${JSON.stringify(qid)}`);
    this.name = "DuplicateDocError";
  }
}

/** The docno of line `i` of a {@link LineView} as text. */
export function docnoAt(run: LineView, i: number): string {
  return text(run.arena, run.docStart[i]!, run.docStart[i]! + run.docLen[i]!);
}

/** strcmp of the docnos of run lines a and b (unsigned byte order). */
export function compareDocnos(run: LineView, a: number, b: number): number {
  const { arena, docStart, docLen } = run;
  const sa = docStart[a]!;
  const sb = docStart[b]!;
  const la = docLen[a]!;
  const lb = docLen[b]!;
  const n = la < lb ? la : lb;
  for (let i = 0; i < n; i++) {
    const d = arena[sa + i]! - arena[sb + i]!;
    if (d !== 0) return d;
  }
  return la - lb;
}

/**
 * Reusable scratch space of {@link judgeLines}: typed arrays that grow to
 * the largest query seen, so ranking a query allocates only its result.
 */
export class RankScratch {
  slots = new Int32Array(4096);
  /** Candidate lines (relevant or graded), then their ranks. */
  cand = new Int32Array(256);
  ranks = new Int32Array(256);
  /** Candidate indexes by ascending score, a merge buffer, and their scores in that order. */
  order = new Int32Array(256);
  tmp = new Int32Array(256);
  cs = new Float64Array(256);
  beats = new Int32Array(257);
  ties = new Int32Array(256);
  /** Candidate index by rank - 1 (-1 for the other lines). */
  byRank = new Int32Array(1024);

  /** Makes room for `c` candidates among `n` lines. */
  reserve(c: number, n: number): void {
    if (c > this.cand.length) {
      const cap = Math.max(c, this.cand.length * 2);
      const cand = new Int32Array(cap);
      cand.set(this.cand);
      this.cand = cand;
      this.ranks = new Int32Array(cap);
      this.order = new Int32Array(cap);
      this.tmp = new Int32Array(cap);
      this.cs = new Float64Array(cap);
      this.beats = new Int32Array(cap + 1);
      this.ties = new Int32Array(cap);
    }
    if (n > this.byRank.length) this.byRank = new Int32Array(Math.max(n, this.byRank.length * 2));
  }
}

/** The line of `segs` whose docno repeats an earlier one, or -1 (hash set over the lines' docno hashes). */
function findDuplicate(run: LineView, segs: ArrayLike<number>, numRet: number, scratch: RankScratch): number {
  let size = 16;
  while (size < numRet * 2) size *= 2;
  if (scratch.slots.length < size) scratch.slots = new Int32Array(size);
  const slots = scratch.slots;
  slots.fill(0, 0, size);
  const mask = size - 1;
  const { docLen, hashes } = run;
  for (let s = 0; s < segs.length; s += 2) {
    for (let i = segs[s]!, end = segs[s + 1]!; i < end; i++) {
      const len = docLen[i]!;
      const h = hashes[i]!;
      let slot = h & mask;
      for (;;) {
        const v = slots[slot]!;
        if (v === 0) {
          slots[slot] = i + 1;
          break;
        }
        if (hashes[v - 1] === h && docLen[v - 1] === len && compareDocnos(run, v - 1, i) === 0) return i;
        slot = (slot + 1) & mask;
      }
    }
  }
  return -1;
}

/** Candidate lines of `segs` (a positive grade, or a grade at `level`) into scratch.cand; returns how many. */
function collectCandidates(run: LineView, segs: ArrayLike<number>, level: number, scratch: RankScratch): number {
  const grades = run.grades;
  let c = 0;
  let cand = scratch.cand;
  for (let s = 0; s < segs.length; s += 2) {
    const end = segs[s + 1]!;
    for (let i = segs[s]!; i < end; i++) {
      const g = grades[i]!;
      if (g > 0 || (g >= 0 && g >= level)) {
        if (c === cand.length) {
          scratch.reserve(c + 1, 0);
          cand = scratch.cand;
        }
        cand[c++] = i;
      }
    }
  }
  return c;
}

/**
 * Ranks one query of a run as trec_eval does (score descending, then docno
 * descending by bytes; the rank column and file order play no part) and
 * judges it at a relevance level, returning the sparse {@link JudgedList}
 * the measures read. The query's lines are the [start, end) pairs of `segs`;
 * their grades were looked up while parsing (see scan.ts).
 *
 * Only relevant documents need a rank, so ranks are counted (lines scoring
 * higher, plus ties with a greater docno) instead of sorting the whole list.
 * The work is in small functions over typed scratch arrays, without
 * closures or sort callbacks: V8 compiles them in a few milliseconds, which
 * is most of what a run of some thousand queries costs (see countRanks).
 * Throws {@link DuplicateDocError} for a docno listed twice.
 */
export function judgeLines(run: LineView, segs: ArrayLike<number>, qrels: QrelsQuery, level: number, scratch: RankScratch): JudgedList {
  let numRet = 0;
  for (let s = 0; s < segs.length; s += 2) numRet += segs[s + 1]! - segs[s]!;
  const dup = findDuplicate(run, segs, numRet, scratch);
  if (dup >= 0) throw new DuplicateDocError(qrels.qid, docnoAt(run, dup));
  const c = collectCandidates(run, segs, level, scratch);
  scratch.reserve(c, numRet);
  countRanks(run, segs, c, scratch);
  // candidates in rank order: ranks are distinct and at most numRet, so a table by rank sorts them
  const { cand, ranks, byRank } = scratch;
  const grades = run.grades;
  const relRanks: number[] = [];
  const gainRanks: number[] = [];
  const gains: number[] = [];
  if (c > 0) {
    byRank.fill(-1, 0, numRet);
    for (let j = 0; j < c; j++) byRank[ranks[j]! - 1] = j;
    for (let r = 0; r < numRet; r++) {
      const j = byRank[r]!;
      if (j < 0) continue;
      const g = grades[cand[j]!]!;
      if (g >= level) relRanks.push(r + 1);
      if (g > 0) {
        gainRanks.push(r + 1);
        gains.push(g);
      }
    }
  }
  return { numRet, numRel: numRelevant(qrels, level), relRanks, gainRanks, gains, idealGains: qrels.idealGains };
}

/** Sorts `idx[0, n)` by ascending `key[idx[i]]` (a stable bottom-up merge sort; insertion sort for short runs). */
function sortByKey(idx: Int32Array, key: Float64Array, tmp: Int32Array, n: number): void {
  const RUN = 16;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = lo + RUN < n ? lo + RUN : n;
    for (let i = lo + 1; i < hi; i++) {
      const v = idx[i]!;
      const k = key[v]!;
      let j = i - 1;
      while (j >= lo && key[idx[j]!]! > k) {
        idx[j + 1] = idx[j]!;
        j--;
      }
      idx[j + 1] = v;
    }
  }
  let src = idx;
  let dst = tmp;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = lo + width < n ? lo + width : n;
      const hi = lo + 2 * width < n ? lo + 2 * width : n;
      let a = lo;
      let b = mid;
      let o = lo;
      while (a < mid && b < hi) dst[o++] = key[src[b]!]! < key[src[a]!]! ? src[b++]! : src[a++]!;
      while (a < mid) dst[o++] = src[a++]!;
      while (b < hi) dst[o++] = src[b++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== idx) idx.set(src.subarray(0, n));
}

/**
 * Rank of each of the `c` candidates in scratch.cand, into scratch.ranks:
 * 1 + the lines trec_eval puts before it. One pass over the query's lines;
 * each line finds, by binary search over the candidates' sorted scores, how
 * many candidates it outscores (O(n log c)). Lines tying with a candidate
 * are ordered by docno, descending.
 */
function countRanks(run: LineView, segs: ArrayLike<number>, c: number, scratch: RankScratch): void {
  if (c === 0) return;
  const scores = run.scores;
  const { cand, order, cs, beats, ties, ranks } = scratch;
  // cs doubles as the key array while sorting: the candidates' scores by candidate index
  for (let j = 0; j < c; j++) {
    order[j] = j;
    cs[j] = scores[cand[j]!]!;
  }
  sortByKey(order, cs, scratch.tmp, c);
  for (let t = 0; t < c; t++) cs[t] = scores[cand[order[t]!]!]!; // ascending
  beats.fill(0, 0, c + 1); // beats[k]: lines that outscore exactly the k lowest candidates
  ties.fill(0, 0, c);
  for (let s = 0; s < segs.length; s += 2) {
    const end = segs[s + 1]!;
    for (let i = segs[s]!; i < end; i++) {
      const sc = scores[i]!;
      let lo = 0;
      let hi = c;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cs[mid]! < sc) lo = mid + 1;
        else hi = mid;
      }
      beats[lo]!++;
      if (lo < c && cs[lo] === sc) countTies(run, i, lo, c, scratch);
    }
  }
  let above = 0;
  for (let t = c - 1; t >= 0; t--) {
    above += beats[t + 1]!;
    const j = order[t]!;
    ranks[j] = 1 + above + ties[j]!;
  }
}

/** Line `i` ties in score with the candidates from sorted position `lo`: it goes before those with a smaller docno. */
function countTies(run: LineView, i: number, lo: number, c: number, scratch: RankScratch): void {
  const { cand, order, cs, ties } = scratch;
  const sc = cs[lo]!;
  for (let t = lo; t < c && cs[t] === sc; t++) {
    const j = order[t]!;
    if (cand[j] !== i && compareDocnos(run, i, cand[j]!) > 0) ties[j]!++;
  }
}

/** The judged list of a qrels query with no run lines (trec_eval -c scores it 0). */
export function judgeMissing(qrels: QrelsQuery, level: number): JudgedList {
  return { numRet: 0, numRel: numRelevant(qrels, level), relRanks: [], gainRanks: [], gains: [], idealGains: qrels.idealGains };
}
