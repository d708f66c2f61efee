import { InputError, InputErrors } from "../../golden/errors.js";
import { streamLines, text } from "./bytes.js";
import { ByteKeyTable, hashBytes } from "./keytable.js";
import { byteOrder, isBlank, isComment, parseInteger, splitFields } from "./fields.js";

/** One query's judgements: its docnos in a byte-keyed table, grades by table index. */
export interface QrelsQuery {
  qid: string;
  docs: ByteKeyTable;
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
 * on these too); up to 50 are reported at once.
 *
 * @example
 * const qrels = readQrels("qrels.txt"); // qrels.byQid.get("17")?.grades
 */
export function readQrels(file: string): Qrels {
  const problems: InputError[] = [];
  type Building = { qid: string; docs: ByteKeyTable; grades: number[]; lines: number[] };
  const building = new Map<string, Building>();
  let cur: Building | undefined;
  let prevQ = new Uint8Array(64);
  let prevLen = -1;
  const f = new Int32Array(10);
  let lineNo = 0;
  let positive = 0;
  let dataLines = 0;
  const size = streamLines(file, (buf, start, end) => {
    let s = start;
    while (s < end) {
      const e = buf.indexOf(10, s);
      lineNo++;
      if (problems.length < MAX_PROBLEMS && !isBlank(buf, s, e) && !isComment(buf, s, e)) {
        const n = splitFields(buf, s, e, f, 4);
        if (n !== 4) {
          problems.push(
            n < 4
              ? new InputError(file, lineNo, FIELDS[n], `missing (a qrels line has 4 fields: qid iter docno relevance; found ${n})`)
              : new InputError(file, lineNo, undefined, `${n} fields, expected 4 (qid iter docno relevance)`),
          );
        } else {
          const grade = parseInteger(buf, f[6]!, f[7]!);
          if (Number.isNaN(grade)) {
            problems.push(new InputError(file, lineNo, "relevance", `expected a whole number, got ${JSON.stringify(text(buf, f[6]!, f[7]!))}`));
          } else {
            // the previous line's query, unless the qid bytes differ (files are usually grouped)
            const qs = f[0]!;
            const ql = f[1]! - qs;
            let same = cur !== undefined && ql === prevLen;
            for (let i = 0; same && i < ql; i++) if (buf[qs + i] !== prevQ[i]) same = false;
            if (!same) {
              const qid = text(buf, qs, qs + ql);
              cur = building.get(qid);
              if (!cur) building.set(qid, (cur = { qid, docs: new ByteKeyTable(), grades: [], lines: [] }));
              if (ql > prevQ.length) prevQ = new Uint8Array(ql * 2);
              prevQ.set(buf.subarray(qs, qs + ql));
              prevLen = ql;
            }
            const q = cur!;
            const qid = q.qid;
            const id = q.docs.add(buf, f[4]!, f[5]!, hashBytes(buf, f[4]!, f[5]!));
            if (id < 0) {
              const first = q.lines[-id - 1];
              problems.push(new InputError(file, lineNo, "docno", `document ${JSON.stringify(text(buf, f[4]!, f[5]!))} is judged twice for query ${JSON.stringify(qid)} (first on line ${first}); trec_eval refuses this too`));
            } else {
              q.grades.push(grade);
              q.lines.push(lineNo);
            }
            if (grade > 0) positive++;
            dataLines++;
          }
        }
      }
      s = e + 1;
    }
  });
  if (size === 0 || (dataLines === 0 && problems.length === 0)) {
    throw new InputError(file, undefined, undefined, "file is empty (expected qrels lines: qid iter docno relevance)");
  }
  const queries: QrelsQuery[] = [];
  for (const [qid, q] of building) {
    const ideal = Float64Array.from(q.grades.filter((g) => g > 0)).sort().reverse();
    queries.push({ qid, docs: q.docs, grades: Int32Array.from(q.grades), idealGains: ideal });
  }
  if (problems.length) throw new InputErrors(problems);
  queries.sort((a, b) => byteOrder(a.qid, b.qid));
  return { file, queries, byQid: new Map(queries.map((q) => [q.qid, q])), positiveLines: positive, lines: dataLines };
}
