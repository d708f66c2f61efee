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

/** Reusable scratch space for the per-query duplicate check. */
export class RankScratch {
  slots = new Int32Array(4096);
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

/**
 * Ranks one query of a run as trec_eval does (score descending, then docno
 * descending by bytes; the rank column and file order play no part) and
 * judges it at a relevance level, returning the sparse {@link JudgedList}
 * the measures read. The query's lines are the [start, end) pairs of `segs`;
 * their grades were looked up while parsing (see scan.ts).
 *
 * Only relevant documents need a rank, so ranks are counted (lines scoring
 * higher, plus ties with a greater docno) instead of sorting the whole list.
 * Throws {@link DuplicateDocError} for a docno listed twice.
 */
export function judgeLines(run: LineView, segs: ArrayLike<number>, qrels: QrelsQuery, level: number, scratch: RankScratch): JudgedList {
  const grades = run.grades;
  const cand: number[] = [];
  let numRet = 0;
  for (let s = 0; s < segs.length; s += 2) {
    const end = segs[s + 1]!;
    for (let i = segs[s]!; i < end; i++) {
      const g = grades[i]!;
      if (g > 0 || (g >= 0 && g >= level)) cand.push(i);
    }
    numRet += end - segs[s]!;
  }
  const dup = findDuplicate(run, segs, numRet, scratch);
  if (dup >= 0) throw new DuplicateDocError(qrels.qid, docnoAt(run, dup));

  const ranks = countRanks(run, segs, cand);
  const order = cand.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]!);
  const relRanks: number[] = [];
  const gainRanks: number[] = [];
  const gains: number[] = [];
  for (const i of order) {
    const g = grades[cand[i]!]!;
    if (g >= level) relRanks.push(ranks[i]!);
    if (g > 0) {
      gainRanks.push(ranks[i]!);
      gains.push(g);
    }
  }
  return { numRet, numRel: numRelevant(qrels, level), relRanks, gainRanks, gains, idealGains: qrels.idealGains };
}

/**
 * Rank of each candidate line: 1 + the lines trec_eval puts before it. One
 * pass over the query's lines; each line finds, by binary search over the
 * candidates' sorted scores, how many candidates it outscores (O(n log c)).
 * Lines tying with a candidate are ordered by docno, descending.
 */
function countRanks(run: LineView, segs: ArrayLike<number>, cand: number[]): number[] {
  const scores = run.scores;
  const c = cand.length;
  if (c === 0) return [];
  const byScore = cand.map((_, j) => j).sort((a, b) => scores[cand[a]!]! - scores[cand[b]!]!);
  const cs = Float64Array.from(byScore, (j) => scores[cand[j]!]!); // ascending
  const beats = new Int32Array(c + 1); // beats[k]: lines that outscore exactly the k lowest candidates
  const ties = new Int32Array(c);
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
      for (let t = lo; t < c && cs[t] === sc; t++) {
        const j = byScore[t]!;
        if (cand[j] !== i && compareDocnos(run, i, cand[j]!) > 0) ties[j]!++;
      }
    }
  }
  const ranks = new Array<number>(c);
  let above = 0;
  for (let t = c - 1; t >= 0; t--) {
    above += beats[t + 1]!;
    const j = byScore[t]!;
    ranks[j] = 1 + above + ties[j]!;
  }
  return ranks;
}

/** The judged list of a qrels query with no run lines (trec_eval -c scores it 0). */
export function judgeMissing(qrels: QrelsQuery, level: number): JudgedList {
  return { numRet: 0, numRel: numRelevant(qrels, level), relRanks: [], gainRanks: [], gains: [], idealGains: qrels.idealGains };
}
