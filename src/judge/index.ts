/**
 * The judge: items, judges, the scheduler and the summary, as the package
 * root (src/index.ts) exports them. Nothing inside src/judge imports this
 * file; it is the door, not a floor.
 *
 * Folders by concern, each importing only from the floors below it (and from
 * golden/ and retrieval/, the earlier stages); never from a floor above, and
 * never from calibration/, review/, report/ or cli/
 * (test/judge/layers.test.ts checks it):
 *
 *   summary/    pass rates of a run's judgments, and their terminal tables
 *   batch/      the same calls through the OpenAI Batch API (export, submit, collect, import)
 *   claims/     the optional claims rubric: claims extracted by the LLM judge, cached, made into claim items
 *   schedule/   the run: planning calls, concurrency, the SQLite verdict cache and its lease, progress, dry-run estimate
 *   judges/     the Judge record (judge.ts) and its records: the LLM judge (llm.ts), the baseline (baseline.ts, shared
 *               with worker threads by baseline-threads.ts); judge settings
 *   items/      what is judged: items built from the golden set and pipeline outputs, with their input hashes;
 *               claim items (claims.ts) and the answer verdicts derived from them (derive-claims.ts)
 *   transport/  the OpenAI-compatible endpoint: request bodies and fingerprints, client, retry policy, reply envelope, keys and redaction
 *   verdict/    reading a reply's text into yes/no and a reason, failing closed
 *   rubric/     rubric files, prompt rendering, fencing of untrusted text
 *   baseline/   the offline lexical baseline's rules (pure functions over evidence)
 *
 * Floors, bottom up: verdict/, rubric/ and baseline/ need nothing else of
 * the judge; transport/ builds on rubric/ and verdict/, items/ on rubric/;
 * judges/ on transport/ and baseline/; schedule/ runs judges over items;
 * batch/ and summary/ sit on top. A new judge (a panel, a cascade) is a
 * record in judges/, composing other records; the scheduler does not change.
 */
export * from "./rubric/rubric.js";
export * from "./rubric/wording.js";
export * from "./items/items.js";
export * from "./items/inputs.js";
export * from "./schedule/run.js";
export * from "./judges/judge.js";
export * from "./judges/baseline.js";
export * from "./judges/llm.js";
export * from "./judges/logprobs.js";
export * from "./verdict/logprobs.js";
export * from "./schedule/cache.js";
export * from "./transport/client.js";
export * from "./judges/settings.js";
export * from "./transport/endpoint.js";
export * from "./summary/summary.js";
export * from "./summary/format.js";
export * from "./schedule/estimate.js";
export * from "./baseline/index.js";
export { splitClaims, expandClaims, isClaimUnit, claimUnit } from "./items/claims.js";
export { deriveVerdict, withDerivedVerdicts } from "./items/derive-claims.js";
// Types the signatures above name, from modules that are otherwise internal.
export type { ClaimOptions } from "./items/claims.js";
export type { Price } from "./schedule/cost.js";
export type { PoolStats } from "./schedule/pool.js";
export type { Lease } from "./schedule/lease.js";
export type { RequestBody, RequestSettings, ResponseMode } from "./transport/request.js";
export type { RetryPolicy } from "./transport/retry.js";
export type { JudgeKnobs, RequestParam } from "./transport/knobs.js";
export type { VerdictReply } from "./verdict/parse.js";
export type { ThreadOptions } from "./judges/baseline-threads.js";
export { FEATURES, type FeatureName, type Features } from "./baseline/align.js";
