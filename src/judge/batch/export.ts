import { statSync } from "node:fs";
import { InputError } from "../../golden/errors.js";
import { writeFileAtomic } from "../../golden/files.js";
import type { ItemKey } from "../../golden/schema/items.js";
import type { OpenAIBackend } from "../judges/llm.js";
import { cacheKey, type CacheKey, type JudgeCache } from "../schedule/cache.js";
import { planCalls } from "../schedule/calls.js";
import type { Item } from "../items/items.js";
import type { RequestBody } from "../transport/request.js";
import { BATCH_LIMITS, BATCH_URL, customIdOf, partName, type BatchLimits } from "./format.js";
import { BatchStore, type NewRequest } from "./store.js";

/** One pending judge call, ready to be written as a batch line. */
export interface ExportRequest {
  customId: string;
  key: CacheKey;
  rubric: string;
  model: string;
  items: ItemKey[];
  /** Exactly the body the online path sends (the backend's own request builder). */
  body: RequestBody;
}

/** The pending calls of a judge run, and what was left out. */
export interface ExportPlan {
  requests: ExportRequest[];
  /** Calls (not items) whose verdict is already in the cache. */
  cached: number;
  /** Calls in a submitted batch not collected yet (collect it first; they are not exported twice). */
  inFlight: number;
  /** Items decided by rule (no call). */
  byRule: number;
}

/**
 * The judge calls a run would make, grouped exactly as `runJudge` groups
 * them ({@link planCalls}: identical evidence under one rubric is one call
 * per repeat), without those already committed in the cache and those in a
 * batch not collected yet. Each call's body comes from the backend's own
 * request builder, so a batch verdict and an online verdict are made from
 * the same bytes and land under the same cache key.
 *
 * @example
 * const plan = planExport({ items, backend, cache, store, repeats: 1 });
 */
export function planExport(o: { items: readonly Item[]; backend: OpenAIBackend; cache: JudgeCache; store: BatchStore; repeats: number }): ExportPlan {
  const plan = planCalls(o.items, Math.max(1, o.repeats));
  const requests: ExportRequest[] = [];
  const registered = new Set<string>();
  let cached = 0;
  let inFlight = 0;
  for (const call of plan.calls) {
    const rubric = call.item.rubric;
    const fp = o.backend.fingerprint(rubric);
    if (!registered.has(fp)) {
      registered.add(fp);
      o.cache.registerFingerprint(fp, rubric.name, o.backend.template(rubric));
    }
    const key = cacheKey(fp, call.item.inputHash, call.repeat);
    const id = customIdOf(key);
    if (o.cache.getDone(key)) cached++;
    else if (o.store.request(id)?.state === "submitted") inFlight++;
    else requests.push({ customId: id, key, rubric: rubric.name, model: o.backend.model!, items: call.slots.map((s) => s.item.key), body: o.backend.request(rubric, call.item.evidence) });
  }
  return { requests, cached, inFlight, byRule: plan.rules.length };
}

/** The batch input line of a request: `custom_id`, `method`, `url`, and the body as the online path serialises it. */
export function batchLine(r: Pick<ExportRequest, "customId" | "body">): string {
  return `{"custom_id":${JSON.stringify(r.customId)},"method":"POST","url":${JSON.stringify(BATCH_URL)},"body":${JSON.stringify(r.body)}}`;
}

/** One written part of an export. */
export interface ExportPart {
  file: string;
  requests: number;
  bytes: number;
}

/**
 * Splits lines into parts that each stay within the limits (request count
 * and bytes, newlines included), in order. A single line over the byte
 * limit cannot be sent at all and is an error naming it.
 */
export function splitParts(lines: readonly { id: string; text: string }[], limits: BatchLimits, file: string): { lines: string[]; bytes: number }[] {
  const parts: { lines: string[]; bytes: number }[] = [];
  let cur: { lines: string[]; bytes: number } = { lines: [], bytes: 0 };
  for (const l of lines) {
    const size = Buffer.byteLength(l.text, "utf8") + 1;
    if (size > limits.maxBytes) throw new InputError(file, undefined, `custom_id ${l.id}`, `this request is ${size} bytes, over the per-file limit of ${limits.maxBytes} bytes: it cannot be sent in a batch (judge it online)`);
    if (cur.lines.length > 0 && (cur.lines.length >= limits.maxRequests || cur.bytes + size > limits.maxBytes)) {
      parts.push(cur);
      cur = { lines: [], bytes: 0 };
    }
    cur.lines.push(l.text);
    cur.bytes += size;
  }
  if (cur.lines.length > 0 || parts.length === 0) parts.push(cur);
  return parts;
}

/** Files of an earlier export beside `file` that this export did not rewrite (`judge.3.jsonl` when only two parts were written now). */
function staleParts(file: string, written: number): string[] {
  const out: string[] = [];
  for (let i = written + 1; ; i++) {
    const f = partName(file, i);
    try {
      statSync(f);
    } catch {
      return out;
    }
    out.push(f);
  }
}

/** What an export wrote. */
export interface ExportResult {
  parts: ExportPart[];
  /** Part files of an earlier, longer export still on disk (not part of this one). */
  stale: string[];
}

/**
 * Writes the requests as Batch API JSONL, split at the per-file limits:
 * `file`, then `file.2.jsonl`, … (see {@link partName}). The custom_id ->
 * item mapping is committed to the store first, so results can be stored
 * whatever happens to the files afterwards. With nothing pending, `file` is
 * written empty (so a stale export is never submitted by mistake). Each part
 * is written atomically.
 *
 * @example
 * writeExport("judge.jsonl", plan.requests, store, { maxRequests: 50_000, maxBytes: 200_000_000 })
 */
export function writeExport(file: string, requests: readonly ExportRequest[], store: BatchStore, limits: BatchLimits = BATCH_LIMITS): ExportResult {
  const lines = requests.map((r) => ({ id: r.customId, text: batchLine(r) }));
  const parts = splitParts(lines, limits, file);
  let next = 0;
  const rows: NewRequest[] = [];
  parts.forEach((p, i) => {
    const name = partName(file, i + 1);
    for (let k = 0; k < p.lines.length; k++, next++) {
      const r = requests[next]!;
      rows.push({ customId: r.customId, fingerprint: r.key.fingerprint, inputHash: r.key.inputHash, repeat: r.key.repeat, rubric: r.rubric, model: r.model, items: r.items, exportFile: name });
    }
  });
  store.recordExport(rows);
  const written: ExportPart[] = [];
  parts.forEach((p, i) => {
    const name = partName(file, i + 1);
    writeFileAtomic(name, p.lines.length ? p.lines.join("\n") + "\n" : "");
    written.push({ file: name, requests: p.lines.length, bytes: p.bytes });
  });
  return { parts: written, stale: staleParts(file, parts.length) };
}

/**
 * `ragjudge judge --batch-export FILE` as one call: plans the pending
 * calls, records the custom_id mapping, writes the parts.
 *
 * @example
 * const { plan, result } = exportBatch({ items, backend, cache, repeats: 1, file: "judge.jsonl" });
 */
export function exportBatch(o: { items: readonly Item[]; backend: OpenAIBackend; cache: JudgeCache; repeats: number; file: string; limits?: BatchLimits }): { plan: ExportPlan; result: ExportResult } {
  const store = BatchStore.open(o.cache);
  const plan = planExport({ ...o, store });
  return { plan, result: writeExport(o.file, plan.requests, store, o.limits) };
}
