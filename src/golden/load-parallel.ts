import { statSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import { addOutputRows, adoptCheckedOutputs, joinVariant, keepTextOf, loadPipelineOutput, variantChunks, wantedTexts, type GoldenSet, type LoadedOutput, type VariantChunks, type VariantData } from "./dataset.js";
import { CHUNKS_THREAD_MIN_BYTES, loadChunksOnTwoThreads } from "./chunks-parallel.js";
import { isKeptForNextLoad, type Located } from "./jsonl.js";
import type { ChunkIndex } from "./relevance.js";
import type { VariantConfig } from "./schema/config.js";
import { idNumbersOf, listDecoder, type EncodedLists, type IdNumbers } from "./ranked-codes.js";
import { codeRanker } from "./relevant-ranks.js";
import type { PipelineOutput } from "./schema/pipeline.js";
import { rebuiltError, startWorker, type PostedError } from "./worker.js";

/**
 * Pipeline outputs below this size load on the calling thread: a worker
 * takes about 40 ms to start and the loaded lines cost a copy between
 * threads, which a file of some thousand lines does not win back.
 */
export const OUTPUT_THREAD_MIN_BYTES = 8 << 20;

/** What the output worker (output-worker.ts) is given. */
export interface OutputTask {
  file: string;
  golden: { file: string; ids: string[] };
}

/** A block of checked lines, as the worker posts them in file order; their `retrieved` lists come apart, as numbers. */
export interface OutputRows {
  rows: Located<PipelineOutput>[];
  retrieved: EncodedLists;
}

/** A pipeline output load under way: `take` gives its result (or throws its input errors); `cancel` gives up on it. */
export interface PendingOutput {
  take(): Promise<LoadedOutput>;
  cancel(): void;
  /** Whether a worker thread was started for it (false: it loads here, when taken). */
  onThread: boolean;
  /**
   * Checks the lines' chunk ids against `known` as their blocks come in, on
   * this thread while the worker parses the rest (500,000 distinct ids
   * at 50,000 questions x 100 retrieved: about 0.25 s of 7.5): a load
   * whose every id is known says so ({@link LoadedOutput.idsKnown}) and
   * {@link unknownChunkIds} need not walk its lines. No-op for a load here.
   */
  checkIdsIn(known: ReadonlyMap<string, unknown>): void;
  /**
   * Works out where each question's relevant chunks sit in its `retrieved`
   * list from the numbers the lists arrive as (relevant-ranks.ts,
   * codeRanker), for the scoring and diagnostics that read them after the
   * load. No-op for a load here.
   */
  rankAgainst(relevant: ReadonlyMap<string, ReadonlySet<string>>): void;
}

/**
 * Starts loading a pipeline output file ({@link loadPipelineOutput}) on a
 * worker thread, so that the calling thread can read the chunks file
 * meanwhile: the two are the largest inputs, and parsing them is most of
 * golden-set scoring (at 50,000 questions x 100 retrieved, 4.3 s for the
 * output and 2.9 s for 500,000 chunks on one thread). The result is the same
 * as loading on this thread: the same lines, the same problems in the same
 * order. A small file, one whose rows `validate` kept for this load
 * (jsonl.ts), or a worker that cannot start or fails without an input
 * problem loads here instead, when taken.
 *
 * @example
 * const pending = startOutputLoad("runs/bm25.jsonl", golden);
 * const chunks = loadChunks("chunks.jsonl"); // meanwhile
 * const { outputs, lineOf } = await pending.take();
 */
export function startOutputLoad(file: string, golden: Pick<GoldenSet, "file" | "byId">, minBytes = OUTPUT_THREAD_MIN_BYTES): PendingOutput {
  const here: PendingOutput = { take: async () => loadPipelineOutput(file, golden), cancel: () => {}, onThread: false, checkIdsIn: () => {}, rankAgainst: () => {} };
  const size = sizeOf(file);
  if (size === undefined || size < minBytes || isKeptForNextLoad(file)) return here;
  let worker: Worker;
  try {
    const task: OutputTask = { file, golden: { file: golden.file, ids: [...golden.byId.keys()] } };
    worker = startWorker(import.meta.url, "output-worker", task);
  } catch {
    return here;
  }
  // The lines are joined as their blocks come in (when this thread is free to take messages).
  const loaded: LoadedOutput = { outputs: new Map(), lineOf: new Map() };
  const decode = listDecoder();
  const ids = idChecker();
  const ranker = codeRanker();
  type End = { done: true } | { error: PostedError } | { failed: true };
  const end = new Promise<End>((resolve) => {
    worker.on("message", (m: OutputRows | End) => {
      if (!("rows" in m)) return resolve(m);
      const lists = decode(m.retrieved);
      m.rows.forEach((r, i) => (r.value.retrieved = lists[i]!));
      addOutputRows(loaded, m.rows);
      ids.add(m.retrieved.fresh, m.rows);
      ranker.add(m.retrieved, lists, m.rows.map((r) => r.value.id));
    });
    // A block that cannot be read here would otherwise be dropped without a word, its questions scored as missing.
    worker.once("messageerror", () => resolve({ failed: true }));
    worker.once("error", () => resolve({ failed: true }));
    worker.once("exit", () => resolve({ failed: true }));
  });
  return {
    take: async () => {
      const r = await end;
      void worker.terminate();
      if ("done" in r) {
        adoptCheckedOutputs(loaded);
        return ids.allKnown() ? { ...loaded, idsKnown: true } : loaded;
      }
      if ("error" in r && r.error.kind === "input") throw rebuiltError(r.error);
      // Not an input problem (the worker ran out of memory, or could not load its code): load it here.
      return loadPipelineOutput(file, golden);
    },
    cancel: () => void worker.terminate(),
    onThread: true,
    checkIdsIn: ids.against,
    rankAgainst: ranker.against,
  };
}

/**
 * Whether every chunk id of some blocks of lines is in a map: each distinct
 * `retrieved` id once (a block's `fresh` ids) and the `stages` and `context`
 * ids of each line. Blocks that come before the map is known wait for it;
 * the first unknown id ends the checking (unknownChunkIds then walks the
 * lines to say where).
 */
export function idChecker() {
  let known: IdNumbers | undefined;
  let ok = true;
  const waiting: [readonly string[], readonly Located<PipelineOutput>[]][] = [];
  const check = (fresh: readonly string[], rows: readonly Located<PipelineOutput>[]) => {
    const more: string[] = [];
    for (const { value } of rows) {
      if (value.context) for (const id of value.context) more.push(id);
      if (value.stages) for (const list of Object.values(value.stages)) for (const id of list) more.push(id);
    }
    return (ok = known!.hasAll(fresh) && known!.hasAll(more));
  };
  return {
    add(fresh: readonly string[], rows: readonly Located<PipelineOutput>[]): void {
      if (!ok) return;
      if (known) check(fresh, rows);
      else waiting.push([fresh, rows]);
    },
    against(map: ReadonlyMap<string, unknown>): void {
      // numbered in passes (ranked-codes.ts): 750,000 ids checked one Map.has after another were 0.67 s of this thread
      known = idNumbersOf(map.keys(), map.size);
      for (const [fresh, rows] of waiting.splice(0)) if (ok) check(fresh, rows);
    },
    allKnown: () => ok && known !== undefined,
  };
}

/** The file's size; undefined when it cannot be stat'ed (missing, unreadable: the load on this thread words that). */
function sizeOf(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

/**
 * {@link loadVariants} with each variant's pipeline output loading on a
 * worker thread ({@link startOutputLoad}), from the time the variant before
 * it is worked on, while this thread reads its chunks file, then calls
 * `whileOutputLoads` with the chunks (work that
 * needs only them: `retrieval` checks the anchors and computes the relevant
 * sets there). When it returns the relevant sets, each list's relevant
 * ranks are worked out as its block comes in ({@link PendingOutput.rankAgainst}). A pipeline output small enough to load here leaves the
 * second thread to half of the chunks file ({@link loadChunksOnTwoThreads}).
 * The same variants, and the same first error: a chunks file's
 * problems come before its output's, as in loadVariants.
 */
export async function loadVariantsParallel(
  vs: readonly VariantConfig[],
  golden: GoldenSet,
  path: (p: string) => string = (p) => p,
  whileOutputLoads: (files: VariantChunks) => ReadonlyMap<string, ReadonlySet<string>> | void = () => {},
  minBytes = OUTPUT_THREAD_MIN_BYTES,
  chunksMinBytes = CHUNKS_THREAD_MIN_BYTES,
): Promise<VariantData[]> {
  const loaded = new Map<string, ChunkIndex>();
  const out: VariantData[] = [];
  const wanted = wantedTexts(golden);
  const keepText = keepTextOf(wanted);
  // The next variant's output starts loading while this one's chunks, anchors and output are worked on: one after
  // the other, this thread sat idle while a second variant's worker parsed (1.3 s of 4.7 s at 10,000 questions x 2
  // variants). At most two loads are under way; both are cancelled when a variant fails.
  const pendings: PendingOutput[] = [];
  const start = (i: number) => (pendings[i] ??= startOutputLoad(path(vs[i]!.output), golden, minBytes));
  try {
    for (const [i, v] of vs.entries()) {
      const pending = start(i);
      if (i + 1 < vs.length) start(i + 1);
      // with the output loading here, the second thread reads half of the chunks file
      const chunksFile = v.chunks === undefined ? undefined : path(v.chunks);
      if (chunksFile !== undefined && !pending.onThread && !loaded.has(chunksFile)) loaded.set(chunksFile, await loadChunksOnTwoThreads(chunksFile, wanted, chunksMinBytes));
      const files = variantChunks(v, path, loaded, keepText);
      const relevant = whileOutputLoads(files);
      // ids given as passages' text join the index later: the lines are then walked (unknownChunkIds)
      if (files.chunksFile !== undefined) pending.checkIdsIn(files.chunks.byId);
      if (relevant) pending.rankAgainst(relevant);
      out.push(joinVariant(v, files, await pending.take()));
    }
  } catch (e) {
    for (const p of pendings) p.cancel(); // a taken load's worker has ended already
    throw e;
  }
  return out;
}
