import { readBytes } from "../../golden/files.js";
import { basename, resolve } from "node:path";
import OpenAI, { toFile } from "openai";
import { InputError, InputErrors } from "../../golden/errors.js";
import { sha256 } from "../../golden/hash.js";
import { parseJsonl } from "../../golden/jsonl.js";
import { apiCall, callSignal, isNotFound, uploadTimeoutMs, type BatchEndpoint } from "./api.js";
import { countsOf } from "./collect.js";
import { BATCH_LIMITS, BATCH_URL, BatchInputLine, COMPLETION_WINDOW, type BatchLimits } from "./format.js";
import type { BatchStore, Submission } from "./store.js";

/** An export file read and checked for submission. */
export interface ExportFile {
  /** Absolute path. */
  file: string;
  bytes: Buffer;
  sha256: string;
  customIds: string[];
  model?: string;
}

/**
 * Reads an export file and checks it before anything is uploaded: every
 * line a chat-completions batch request, every custom_id exported from this
 * cache (else its results could not be stored) and unique, one model (a
 * batch holds one), and within the per-file limits. All problems are
 * reported at once with file and line.
 */
export function readExportFile(file: string, store: BatchStore, limits: BatchLimits = BATCH_LIMITS): ExportFile {
  const abs = resolve(file);
  const bytes = readBytes(file);
  const text = bytes.toString("utf8");
  const hash = sha256(bytes);
  if (text.trim() === "") return { file: abs, bytes, sha256: hash, customIds: [] };
  const { rows, problems } = parseJsonl(text, file, BatchInputLine);
  const firstLine = new Map<string, number>();
  let model: { name: string; line: number } | undefined;
  for (const { line, value } of rows) {
    const seen = firstLine.get(value.custom_id);
    if (seen !== undefined) problems.push(new InputError(file, line, "custom_id", `duplicate of line ${seen}`));
    else firstLine.set(value.custom_id, line);
    if (!store.request(value.custom_id)) {
      problems.push(new InputError(file, line, "custom_id", `not exported from this cache (${store.cache.file}): export with  ragjudge judge --batch-export FILE  using the same --cache-dir`));
    }
    if (!model) model = { name: value.body.model, line };
    else if (value.body.model !== model.name) problems.push(new InputError(file, line, "body.model", `${JSON.stringify(value.body.model)} differs from ${JSON.stringify(model.name)} on line ${model.line} (a batch holds one model)`));
  }
  if (rows.length > limits.maxRequests) problems.push(new InputError(file, undefined, undefined, `${rows.length} requests, over the per-file limit of ${limits.maxRequests}: export again (the export splits at the limit)`));
  if (bytes.length > limits.maxBytes) problems.push(new InputError(file, undefined, undefined, `${bytes.length} bytes, over the per-file limit of ${limits.maxBytes}: export again (the export splits at the limit)`));
  if (problems.length) throw new InputErrors(problems.slice(0, 50));
  return { file: abs, bytes, sha256: hash, customIds: [...firstLine.keys()], model: model?.name };
}

/** How a submit ended for one file. */
export type SubmitAction =
  /** A new batch was created. */
  | "created"
  /** A crash had left a created batch unrecorded: it was found through the list endpoint and recorded. */
  | "found"
  /** The store already has this file's batch: nothing sent. */
  | "already"
  /** The file holds no requests. */
  | "empty"
  /** Every request of the file is already judged: nothing sent. */
  | "cached";

/** What submitting one file did, for the summary line. */
export interface SubmitResult {
  file: string;
  sha256: string;
  requests: number;
  /** Requests of the file already judged (sent anyway when others are not). */
  alreadyJudged: number;
  action: SubmitAction;
  batchId?: string;
  status?: string;
  /** The input file was found on the server (after a crash) instead of uploaded again. */
  reusedFile?: boolean;
}

/** Steps after which a crash is simulated in tests (the state is on the server, not yet in the store). */
export type SubmitStep = "intent" | "uploaded" | "created";

/** Options of {@link submitExport}. */
export interface SubmitOptions {
  sdk: OpenAI;
  endpoint: BatchEndpoint;
  store: BatchStore;
  file: string;
  limits?: BatchLimits;
  /** Called after each step, before its result is recorded: tests crash here. */
  onStep?: (step: SubmitStep) => void;
}

/** The file name an export is uploaded under: the content hash makes it findable again after a crash. */
export function uploadName(file: string, hash: string): string {
  return `ragjudge-${hash.slice(0, 16)}-${basename(file)}`;
}

/** Batch metadata naming the export (keys at most 64 characters, values at most 512). */
export function batchMetadata(ef: ExportFile): Record<string, string> {
  return { ragjudge_sha256: ef.sha256, ragjudge_export: basename(ef.file).slice(0, 512), ragjudge_requests: String(ef.customIds.length) };
}

/** List searches stop at objects older than the intent minus this margin (clock skew between us and the server). */
const SEARCH_MARGIN_S = 3600;

/** Iterates a newest-first list until it passes `since`; a list not in that order is read to the end. */
async function findNewest<T extends { created_at: number }>(items: AsyncIterable<T>, since: number, match: (t: T) => boolean): Promise<T | undefined> {
  let prev = Infinity;
  let descending = true;
  for await (const it of items) {
    if (match(it)) return it;
    descending &&= it.created_at <= prev;
    prev = it.created_at;
    if (descending && it.created_at < since) return undefined;
  }
  return undefined;
}

/** The batch a crashed submit created for this export, found by its metadata. */
export async function findBatch(sdk: OpenAI, ep: BatchEndpoint, hash: string, since: number): Promise<OpenAI.Batch | undefined> {
  return apiCall("list batches", ep, () => findNewest(sdk.batches.list({ limit: 100 }, { signal: callSignal(sdk) }), since, (b) => b.metadata?.ragjudge_sha256 === hash && b.endpoint === BATCH_URL));
}

/** The input file a crashed submit uploaded, found by its name and size. */
export async function findFile(sdk: OpenAI, ep: BatchEndpoint, name: string, bytes: number, since: number): Promise<OpenAI.FileObject | undefined> {
  return apiCall("list files", ep, () => findNewest(sdk.files.list({ purpose: "batch", limit: 1000 }, { signal: callSignal(sdk) }), since, (f) => f.filename === name && f.bytes === bytes && f.status !== "error"));
}

/**
 * Submits one export file as a batch, idempotently. The intent is committed
 * first; then the file is uploaded (purpose "batch") and its id recorded;
 * then the batch is created with metadata naming the export (file name and
 * content hash) and its id recorded together with its requests' new state.
 * Run again after a crash at any point, it resumes: an unrecorded batch is
 * found by its metadata and an unrecorded upload by its name through the
 * list endpoints, so no second batch or upload is made. A file whose batch
 * is recorded is never sent again.
 *
 * @example
 * const r = await submitExport({ sdk, endpoint, store, file: "judge.jsonl" });
 * // r.action === "created", r.batchId === "batch_abc"
 */
export async function submitExport(o: SubmitOptions): Promise<SubmitResult> {
  const ef = readExportFile(o.file, o.store, o.limits);
  const baseURL = o.endpoint.baseURL;
  const alreadyJudged = ef.customIds.filter((id) => o.store.isJudged(id)).length;
  const result = (action: SubmitAction, extra: Partial<SubmitResult> = {}): SubmitResult => ({ file: ef.file, sha256: ef.sha256, requests: ef.customIds.length, alreadyJudged, action, ...extra });
  if (ef.customIds.length === 0) return result("empty");
  let sub: Submission | undefined = o.store.submission(ef.sha256, baseURL);
  if (sub?.batchId) return result("already", { batchId: sub.batchId, status: sub.status });
  if (alreadyJudged === ef.customIds.length) return result("cached");

  const resumed = sub !== undefined;
  if (!sub) {
    sub = o.store.recordIntent({ sha256: ef.sha256, baseURL, file: ef.file, uploadName: uploadName(ef.file, ef.sha256), requests: ef.customIds.length, bytes: ef.bytes.length });
    o.onStep?.("intent");
  }
  const since = Math.floor(Date.parse(sub.intent) / 1000) - SEARCH_MARGIN_S;

  if (resumed) {
    const found = await findBatch(o.sdk, o.endpoint, ef.sha256, since);
    if (found) {
      o.store.recordBatch(ef.sha256, baseURL, { id: found.id, fileId: found.input_file_id, status: found.status, counts: countsOf(found) }, ef.customIds);
      return result("found", { batchId: found.id, status: found.status });
    }
  }

  let fileId = sub.fileId;
  if (fileId) {
    const id = fileId;
    try {
      await apiCall("retrieve file", o.endpoint, () => o.sdk.files.retrieve(id, { signal: callSignal(o.sdk) }));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      fileId = undefined; // deleted or expired since: upload again
    }
  }
  let reusedFile = false;
  if (!fileId && resumed) {
    const f = await findFile(o.sdk, o.endpoint, sub.uploadName, ef.bytes.length, since);
    if (f) {
      fileId = f.id;
      reusedFile = true;
    }
  }
  if (!fileId) {
    const upload = await toFile(ef.bytes, sub.uploadName, { type: "application/jsonl" });
    const f = await apiCall("upload", o.endpoint, () => o.sdk.files.create({ file: upload, purpose: "batch" }, { timeout: uploadTimeoutMs(o.sdk.timeout, ef.bytes.length), signal: callSignal(o.sdk, uploadTimeoutMs(o.sdk.timeout, ef.bytes.length)) }));
    o.onStep?.("uploaded");
    fileId = f.id;
  }
  o.store.recordFile(ef.sha256, baseURL, fileId);

  const inputFileId = fileId;
  const batch = await apiCall("create batch", o.endpoint, () =>
    // never retried: a create that timed out may have made the batch, and a retry would make a second, billed one;
    // the rerun finds a made one by its metadata (findBatch)
    o.sdk.batches.create({ input_file_id: inputFileId, endpoint: BATCH_URL, completion_window: COMPLETION_WINDOW, metadata: batchMetadata(ef) }, { maxRetries: 0, signal: callSignal(o.sdk, o.sdk.timeout, 0) }),
  );
  o.onStep?.("created");
  o.store.recordBatch(ef.sha256, baseURL, { id: batch.id, fileId: inputFileId, status: batch.status, counts: countsOf(batch) }, ef.customIds);
  return result("created", { batchId: batch.id, status: batch.status, reusedFile });
}
