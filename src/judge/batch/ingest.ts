import { displayPath, InputErrors } from "../../golden/errors.js";
import { parseJsonl, type Located } from "../../golden/jsonl.js";
import { cacheKey, type CachedVerdict, type JudgeCache } from "../schedule/cache.js";
import { BatchOutputLine } from "./format.js";
import { interpretLine } from "./read-output.js";
import type { BatchStore } from "./store.js";

/** What storing one output (or error) file did. */
export interface IngestCounts {
  /** Lines read. */
  lines: number;
  /** yes/no verdicts stored (or already there). */
  verdicts: number;
  /** Error verdicts stored (the next export or online run asks again). */
  errors: number;
  /** Requests that never ran (expired, cancelled), back to pending. */
  pending: number;
  /** Lines whose custom_id this cache never exported: skipped, counted, a few named. */
  unknown: number;
  /** The first few unknown custom_ids, with file and line. */
  unknownIds: string[];
  /** Lines repeating another line's custom_id in the same file: skipped (the best line counts: a yes/no over an error, the first of equals), counted, a few named. */
  repeated: number;
  repeatedIds: string[];
  /** Distinct error causes with their counts, most frequent first (for the summary). */
  causes: [string, number][];
}

/** Counts of nothing yet, to add files' counts into. */
export function emptyCounts(): IngestCounts {
  return { lines: 0, verdicts: 0, errors: 0, pending: 0, unknown: 0, unknownIds: [], repeated: 0, repeatedIds: [], causes: [] };
}

/** Adds `b` into `a` (the summary of several files). */
export function addCounts(a: IngestCounts, b: IngestCounts): IngestCounts {
  const causes = new Map(a.causes);
  for (const [c, n] of b.causes) causes.set(c, (causes.get(c) ?? 0) + n);
  return {
    lines: a.lines + b.lines,
    verdicts: a.verdicts + b.verdicts,
    errors: a.errors + b.errors,
    pending: a.pending + b.pending,
    unknown: a.unknown + b.unknown,
    unknownIds: [...a.unknownIds, ...b.unknownIds].slice(0, 5),
    repeated: a.repeated + b.repeated,
    repeatedIds: [...a.repeatedIds, ...b.repeatedIds].slice(0, 5),
    causes: [...causes].sort((x, y) => y[1] - x[1]),
  };
}

/**
 * Parses a batch output or error file: every line must be JSON of the
 * Batch API output shape. Any malformed line fails the whole file with
 * `file:line` problems, before anything is stored. `label` names the file in
 * messages (a path, or "batch X output" for a download).
 */
export function parseOutputFile(text: string, label: string): Located<BatchOutputLine>[] {
  const { rows, problems } = parseJsonl(text, label, BatchOutputLine);
  if (problems.length) {
    if (rows.length === 0 && problems.length === 1 && /file is empty/.test(problems[0]!.message)) return [];
    throw new InputErrors(problems);
  }
  return rows;
}

/** Counts a cause under its head (`batch: http-500`), so the summary groups alike failures. */
function tally(causes: Map<string, number>, cause: string): void {
  const head = cause.split(": ").slice(0, 2).join(": ");
  causes.set(head, (causes.get(head) ?? 0) + 1);
}

/**
 * Stores the results of output lines in the cache under their custom_id, in
 * one transaction with the requests' new states (so a crash stores all of a
 * file or none of it, and a rerun is harmless: a committed verdict is never
 * replaced). Inside a caller's transaction it becomes part of that one. yes/no replies become verdicts; failed lines error verdicts with
 * their cause; requests that never ran return to pending. Lines whose
 * custom_id this cache never exported are counted, not stored.
 *
 * @example
 * const counts = ingestLines(cache, store, parseOutputFile(text, "out.jsonl"), { batchId: "batch_1" });
 */
export function ingestLines(cache: JudgeCache, store: BatchStore, lines: readonly Located<BatchOutputLine>[], opts: { batchId?: string; label?: string } = {}): IngestCounts {
  const counts = emptyCounts();
  const causes = new Map<string, number>();
  const time = new Date().toISOString();
  // A request answered twice in one file (a runner retried, files concatenated) is one result, counted once:
  // its best line (a yes/no over an error over "never ran", as the cache keeps a verdict over a later error), the
  // first of equals.
  const outcomes = lines.map(({ value }) => interpretLine(value));
  const rank = { verdict: 2, error: 1, pending: 0 } as const;
  const best = new Map<string, number>();
  lines.forEach(({ value }, i) => {
    const b = best.get(value.custom_id);
    if (b === undefined || rank[outcomes[i]!.kind] > rank[outcomes[b]!.kind]) best.set(value.custom_id, i);
  });
  const where = (line: number) => (opts.label ? `${displayPath(opts.label)}:${line}` : `line ${line}`);
  store.transaction(() => {
    for (const [i, { line, value }] of lines.entries()) {
      counts.lines++;
      const chosen = best.get(value.custom_id)!;
      if (chosen !== i) {
        counts.repeated++;
        if (counts.repeatedIds.length < 5) counts.repeatedIds.push(`${value.custom_id} (${where(line)}; the result of line ${lines[chosen]!.line} counts)`);
        continue;
      }
      const row = store.request(value.custom_id);
      if (!row) {
        counts.unknown++;
        if (counts.unknownIds.length < 5) counts.unknownIds.push(opts.label ? `${value.custom_id} (${where(line)})` : value.custom_id);
        continue;
      }
      const key = cacheKey(row.fingerprint, row.inputHash, row.repeat);
      const o = outcomes[i]!;
      if (o.kind === "pending") {
        if (cache.getDone(key)) store.setState(row.customId, "done", undefined, opts.batchId);
        else {
          store.setState(row.customId, "pending", o.cause, opts.batchId);
          counts.pending++;
        }
        continue;
      }
      const base = { judge: "llm" as const, rubric: row.rubric, model: row.model, servedModel: o.servedModel, usage: o.usage, attempts: 1, raw: o.raw, time };
      const v: CachedVerdict =
        o.kind === "verdict"
          ? { ...base, status: "done", verdict: o.reply.verdict, reason: o.reply.reason, ...(o.pYes === undefined ? {} : { pYes: o.pYes }) }
          : { ...base, status: "error", verdict: "error", reason: "", error: o.cause };
      const kept = cache.put(key, v).verdict;
      if (kept.status === "done") {
        // A yes/no stored now, or an earlier one that a late error does not replace.
        store.setState(row.customId, "done", undefined, opts.batchId);
        counts.verdicts++;
      } else {
        store.setState(row.customId, "error", o.kind === "error" ? o.cause : undefined, opts.batchId);
        counts.errors++;
        if (o.kind === "error") tally(causes, o.cause);
      }
    }
  });
  counts.causes = [...causes].sort((a, b) => b[1] - a[1]);
  return counts;
}
