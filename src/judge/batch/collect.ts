import type OpenAI from "openai";
import type { JudgeCache } from "../schedule/cache.js";
import { apiCall, callSignal, downloadTimeoutMs, isNotFound, type BatchEndpoint } from "./api.js";
import { addCounts, emptyCounts, ingestLines, parseOutputFile, type IngestCounts } from "./ingest.js";
import type { BatchCounts, BatchStore, Submission } from "./store.js";

/** Batch states after which nothing more happens: results (if any) can be collected. */
export const TERMINAL_STATES: ReadonlySet<string> = new Set(["completed", "failed", "expired", "cancelled"]);

/** The request counts of a batch as the API reports them. */
export function countsOf(b: OpenAI.Batch): BatchCounts | undefined {
  return b.request_counts ? { total: b.request_counts.total, completed: b.request_counts.completed, failed: b.request_counts.failed } : undefined;
}

/** Fetches a batch's current state and records it in the store. */
export async function pollBatch(sdk: OpenAI, ep: BatchEndpoint, store: BatchStore, batchId: string): Promise<OpenAI.Batch> {
  const b = await apiCall(`retrieve batch ${batchId}`, ep, () => sdk.batches.retrieve(batchId, { signal: callSignal(sdk) }));
  store.recordStatus(batchId, b.status, countsOf(b));
  return b;
}

/** What collecting one finished batch did. */
export interface CollectResult {
  batchId: string;
  status: string;
  counts: IngestCounts;
  /** Requests of the batch with no line in its output or error file (never run): back to pending. */
  returned: number;
  /** The batch's own errors (a failed batch: why its input was refused), and result files the server no longer has. */
  batchErrors: string[];
}

/** A result file's text, or `gone` when the server no longer has it (deleted, or past its expiry). */
async function download(sdk: OpenAI, ep: BatchEndpoint, batchId: string, which: "output" | "error", fileId: string | null | undefined): Promise<{ text: string; label: string } | { gone: string } | undefined> {
  if (!fileId) return undefined;
  try {
    const res = await apiCall(`download the ${which} file of batch ${batchId}`, ep, () => sdk.files.content(fileId, { timeout: downloadTimeoutMs(sdk.timeout), signal: callSignal(sdk, downloadTimeoutMs(sdk.timeout)) }));
    const text = await apiCall(`read the ${which} file of batch ${batchId}`, ep, () => res.text());
    return { text, label: `batch ${batchId} ${which} file ${fileId}` };
  } catch (e) {
    if (isNotFound(e)) return { gone: `the ${which} file ${fileId} is no longer on the server` };
    throw e;
  }
}

function batchErrors(b: OpenAI.Batch): string[] {
  return (b.errors?.data ?? []).map((e) => `${e.line ? `line ${e.line}: ` : ""}${e.code ? `${e.code}: ` : ""}${e.message ?? "no message"}`);
}

/**
 * Collects a finished batch: downloads its output and error files (one the
 * server no longer has leaves its requests to return to pending), checks
 * every line (a malformed one fails the batch with its line, storing
 * nothing), then in ONE transaction stores each verdict and error verdict
 * in the cache under its custom_id, returns requests that never ran
 * (expired, cancelled, or absent from both files, as in a failed batch) to
 * pending, and marks the batch collected. A crash before the commit leaves
 * the batch uncollected, to be collected again; nothing is lost.
 *
 * @example
 * const b = await pollBatch(sdk, ep, store, sub.batchId);
 * if (TERMINAL_STATES.has(b.status)) await collectBatch({ sdk, endpoint: ep, cache, store, batch: b });
 */
export async function collectBatch(o: { sdk: OpenAI; endpoint: BatchEndpoint; cache: JudgeCache; store: BatchStore; batch: OpenAI.Batch }): Promise<CollectResult> {
  const b = o.batch;
  if (!TERMINAL_STATES.has(b.status)) throw new Error(`collectBatch: batch ${b.id} is ${b.status}, not finished`);
  const files = [await download(o.sdk, o.endpoint, b.id, "output", b.output_file_id), await download(o.sdk, o.endpoint, b.id, "error", b.error_file_id)];
  const parsed = files.flatMap((f) => (f && "text" in f ? [{ label: f.label, lines: parseOutputFile(f.text, f.label) }] : []));
  const gone = files.flatMap((f) => (f && "gone" in f ? [f.gone] : []));
  const errors = [...batchErrors(b), ...gone];
  return o.store.transaction(() => {
    let counts = emptyCounts();
    for (const p of parsed) counts = addCounts(counts, ingestLines(o.cache, o.store, p.lines, { batchId: b.id, label: p.label }));
    const missing = o.store.inFlight(b.id);
    const why =
      b.status === "failed"
        ? `batch ${b.id} failed${errors.length ? `: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""}` : ""}`
        : `batch ${b.id} ${b.status}: no result for this request${gone.length ? ` (${gone.join("; ")})` : ""}`;
    let returned = 0;
    for (const id of missing) {
      if (o.store.isJudged(id)) o.store.setState(id, "done", undefined, b.id);
      else {
        o.store.setState(id, "pending", why, b.id);
        returned++;
      }
    }
    o.store.recordStatus(b.id, b.status, countsOf(b));
    o.store.markCollected(b.id);
    return { batchId: b.id, status: b.status, counts, returned, batchErrors: errors };
  });
}

/** The submissions to poll: recorded batches at this endpoint not collected yet. */
export function openSubmissions(store: BatchStore, baseURL: string): Submission[] {
  return store.submissions(baseURL).filter((s) => s.batchId && !s.collected);
}
