import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../../golden/config.js";
import { displayPath, InputError } from "../../golden/errors.js";
import { readText } from "../../golden/files.js";
import { projectArgs, shellArg } from "../../golden/project-args.js";
import { checkFolder } from "../../golden/paths.js";
import { batchClient, BatchApiError, batchDeadlines, resolveBatchEndpoint, type BatchEndpoint } from "../../judge/batch/api.js";
import { collectBatch, openSubmissions, pollBatch, TERMINAL_STATES } from "../../judge/batch/collect.js";
import { BATCH_LIMITS } from "../../judge/batch/format.js";
import { ingestLines, parseOutputFile } from "../../judge/batch/ingest.js";
import { formatCollect, formatImport, formatStates, formatStatusLine, formatSubmit } from "../../judge/batch/report.js";
import { BatchStore } from "../../judge/batch/store.js";
import { submitExport, type SubmitStep } from "../../judge/batch/submit.js";
import { CACHE_FILE, JudgeCache } from "../../judge/schedule/cache.js";
import { EXIT, UsageError } from "../errors.js";

export interface CommonFlags {
  config?: string;
  cacheDir?: string;
  baseUrl?: string;
}

/** The config and the cache folder a batch command uses: --cache-dir, else the config's cacheDir. */
function cacheFolder(flags: CommonFlags): { config: ReturnType<typeof loadConfig>; dir: string } {
  const config = loadConfig(flags.config);
  return { config, dir: flags.cacheDir ? resolve(flags.cacheDir) : config.outPath(config.config.cacheDir) };
}

/**
 * Opens the cache (and its batch tables) of the config, or of --cache-dir,
 * holding the cache's lease (one run per cache folder: an online judge run
 * and a collect or import never store into it at once). `close` releases
 * the lease and closes the cache.
 */
function openStore(flags: CommonFlags, holder: string, where = cacheFolder(flags)): { cache: JudgeCache; store: BatchStore; config: ReturnType<typeof loadConfig>; close: () => void } {
  const { config, dir } = where;
  const { cache, close } = JudgeCache.openLeased(dir, holder);
  try {
    return { cache, store: BatchStore.open(cache), config, close };
  } catch (e) {
    close();
    throw e;
  }
}

/**
 * The flags that make a later batch command find what this one used: the
 * project, the cache folder and the endpoint when given as flags, quoted for
 * a shell (a bare `batch status` polled the config's endpoint, or OpenAI's,
 * and found none of the batches just submitted elsewhere).
 */
function batchArgs(config: ReturnType<typeof loadConfig>, flags: CommonFlags): string {
  const args = [...projectArgs(config), ...(flags.cacheDir ? ["--cache-dir", flags.cacheDir] : []), ...(flags.baseUrl !== undefined ? ["--base-url", flags.baseUrl] : [])];
  return ` ${args.map(shellArg).join(" ")}`;
}

function endpointOf(config: ReturnType<typeof loadConfig>, flags: CommonFlags, opts: { keyless?: boolean } = {}): BatchEndpoint {
  return resolveBatchEndpoint(config.config, flags, process.env, opts);
}

/**
 * API failures, one line each and never the key: a refused request (key,
 * URL) is the user's to fix, exit 2; an endpoint that cannot serve now
 * (unreachable, 5xx, 429) means the judge could not finish, exit 4: rerun later.
 */
async function guarded(f: () => Promise<void>): Promise<void> {
  try {
    await f();
  } catch (e) {
    if (e instanceof BatchApiError && e.unavailable) {
      process.stderr.write(`ragjudge: error: ${e.message} (the endpoint cannot serve this now; rerun later: every step resumes where it stopped)\n`);
      process.exitCode = EXIT.judgeUnfinished;
      return;
    }
    if (e instanceof BatchApiError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * Test hook: `RAGJUDGE_TEST_CRASH_AT=intent|uploaded|created` kills the
 * process right after that step of a submit, before its result is recorded,
 * so tests can prove a rerun resumes without a second upload or batch.
 */
function crashHook(step: SubmitStep): void {
  if (process.env.RAGJUDGE_TEST_CRASH_AT === step) process.kill(process.pid, "SIGKILL");
}

const out = (s: string) => process.stdout.write(s);
const err = (s: string) => process.stderr.write(s);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `ragjudge batch submit`'s action (see commands/batch.ts). */
export async function batchSubmit(files: string[], flags: CommonFlags & { maxRequests?: number; maxBytes?: number }): Promise<void> {
  const { store, config, close } = openStore(flags, "ragjudge batch submit");
  try {
    const endpoint = endpointOf(config, flags);
    const sdk = batchClient(endpoint, batchDeadlines(config.config));
    const limits = { maxRequests: flags.maxRequests ?? BATCH_LIMITS.maxRequests, maxBytes: flags.maxBytes ?? BATCH_LIMITS.maxBytes };
    await guarded(async () => {
      for (const file of files) out(formatSubmit(await submitExport({ sdk, endpoint, store, file, limits, onStep: crashHook })));
    });
    const again = batchArgs(config, flags);
    out(`next: ragjudge batch status${again}, then ragjudge batch collect${again} (--wait to poll until every batch has finished)\n`);
  } finally {
    close();
  }
}

/** `ragjudge batch status`'s action (see commands/batch.ts). */
export async function batchStatus(flags: CommonFlags & { all?: boolean }): Promise<void> {
  const { store, config, close } = openStore(flags, "ragjudge batch status");
  try {
    // The key is needed only to poll: with nothing submitted, status answers without one.
    const where = endpointOf(config, flags, { keyless: true });
    const open = openSubmissions(store, where.baseURL);
    const endpoint = open.length ? endpointOf(config, flags) : where;
    const sdk = batchClient(endpoint, batchDeadlines(config.config));
    await guarded(async () => {
      for (const s of open) await pollBatch(sdk, endpoint, store, s.batchId!);
    });
    store.reconcile();
    const subs = store.submissions(endpoint.baseURL).filter((s) => flags.all || !s.collected);
    if (subs.length === 0) out(`no batches ${flags.all ? "" : "waiting to be collected "}at ${endpoint.baseURL}\n`);
    for (const s of subs) out(formatStatusLine(s));
    const elsewhere = store.submissions().filter((s) => s.baseURL !== endpoint.baseURL && !s.collected).length;
    if (elsewhere) out(`(${elsewhere} more not collected at other endpoints: pass their --base-url)\n`);
    out(formatStates(store.stateCounts()));
  } finally {
    close();
  }
}

/** `ragjudge batch collect`'s action (see commands/batch.ts). */
export async function batchCollect(flags: CommonFlags & { wait?: boolean; pollInterval?: number }): Promise<void> {
  const { cache, store, config, close } = openStore(flags, "ragjudge batch collect");
  try {
    const endpoint = endpointOf(config, flags);
    const sdk = batchClient(endpoint, batchDeadlines(config.config));
    const interval = (flags.pollInterval ?? 60) * 1000;
    await guarded(async () => {
      let open = openSubmissions(store, endpoint.baseURL);
      if (open.length === 0) out(`no batches waiting to be collected at ${endpoint.baseURL}\n`);
      for (;;) {
        const running: string[] = [];
        for (const s of open) {
          const b = await pollBatch(sdk, endpoint, store, s.batchId!);
          if (TERMINAL_STATES.has(b.status)) out(formatCollect(await collectBatch({ sdk, endpoint, cache, store, batch: b })));
          else running.push(`${b.id} ${b.status}`);
        }
        open = openSubmissions(store, endpoint.baseURL);
        if (running.length === 0 || !flags.wait) {
          if (running.length) out(`still running: ${running.join(", ")}; collect again later (or pass --wait)\n`);
          break;
        }
        err(`waiting for ${running.join(", ")}\n`);
        await sleep(interval);
      }
    });
    const interrupted = store.submissions(endpoint.baseURL).filter((s) => !s.batchId);
    for (const s of interrupted) out(formatStatusLine(s));
    store.reconcile();
    const states = store.stateCounts();
    out(formatStates(states));
    if (states.error + states.pending > 0) out(`${states.error + states.pending} requests need another go: ragjudge judge --batch-export FILE, or ragjudge judge to judge them online\n`);
  } finally {
    close();
  }
}

/** `ragjudge batch forget`'s action (see commands/batch.ts). */
export function batchForget(ids: string[], flags: CommonFlags): void {
  const { cache, store, close } = openStore(flags, "ragjudge batch forget");
  try {
    const known = store.submissions().filter((s) => s.batchId);
    for (const id of ids) {
      const s = known.find((k) => k.batchId === id);
      if (!s) throw new UsageError(`no batch ${JSON.stringify(id)} in ${cache.file} (have: ${known.map((k) => k.batchId).join(", ") || "none"})`);
      if (s.collected) {
        out(`${id}: already collected; nothing to forget\n`);
        continue;
      }
      out(`${id}: forgotten; ${store.forget(id)} requests back to pending\n`);
    }
    store.reconcile();
    out(formatStates(store.stateCounts()));
  } finally {
    close();
  }
}

/** `ragjudge batch import`'s action (see commands/batch.ts). */
export async function batchImport(file: string, flags: CommonFlags): Promise<void> {
  const text = readText(file);
  const lines = parseOutputFile(text, file);
  // an empty file imports nothing: most likely the wrong file, or one still being written
  if (lines.length === 0) throw new InputError(file, undefined, undefined, "the file is empty: nothing to import (a Batch API output or error file has one line per request)");
  // A file answering requests of another cache matches none here: refused before a cache is made or touched (it
  // printed "0 verdicts stored", exited 0 and left an empty cache behind).
  const where = cacheFolder(flags);
  const unmatched = (why: string) => new InputError(file, undefined, undefined, `no line answers a request exported from the cache in ${displayPath(where.dir)} (${why}): give --cache-dir the cache folder the export was written from`);
  if (!existsSync(join(checkFolder(where.dir, "the cache folder"), CACHE_FILE))) throw unmatched("there is no judge cache there");
  const { cache, store, close } = openStore(flags, "ragjudge batch import", where);
  try {
    if (!lines.some(({ value }) => store.request(value.custom_id) !== undefined)) throw unmatched(`none of the ${lines.length} custom_ids was exported from it`);
    const counts = ingestLines(cache, store, lines, { label: file });
    out(formatImport(file, counts));
    store.reconcile();
    out(formatStates(store.stateCounts()));
  } finally {
    close();
  }
}
