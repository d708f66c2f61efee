import { basename } from "node:path";
import { displayPath } from "../../golden/errors.js";
import type { CollectResult } from "./collect.js";
import type { ExportPlan, ExportResult } from "./export.js";
import type { IngestCounts } from "./ingest.js";
import type { BatchCounts, RequestState, Submission } from "./store.js";
import type { SubmitResult } from "./submit.js";

function plural(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Bytes as people read them (decimal units, like the API's limits). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/**
 * What `judge --batch-export` wrote, and what to do next. `where`: the flags
 * the batch commands need to find the cache the export was written from
 * (`--config`, and `--cache-dir` when the export named one); `endpoint`: the
 * `--base-url` the export was given, which only `batch submit` of the two
 * commands takes (without it the batch went to the config's endpoint, or
 * OpenAI's); both quoted for a shell, so the printed commands work as printed.
 */
export function formatExport(plan: ExportPlan, res: ExportResult, model: string, where = "", endpoint = ""): string {
  const lines: string[] = [];
  const n = plan.requests.length;
  const files = res.parts.filter((p) => p.requests > 0);
  if (n === 0) lines.push(`batch export: nothing pending, ${displayPath(res.parts[0]!.file)} written empty`);
  else lines.push(`batch export: ${plural(n, "request")} in ${plural(files.length, "file")}:`);
  for (const p of files) lines.push(`  ${displayPath(p.file)}  ${plural(p.requests, "request")}, ${formatBytes(p.bytes)}`);
  const left: string[] = [];
  if (plan.cached) left.push(`${plan.cached} already in the cache`);
  if (plan.inFlight) left.push(`${plan.inFlight} in submitted batches not collected yet (ragjudge batch collect)`);
  if (plan.byRule) left.push(`${plan.byRule} decided by rule`);
  if (left.length) lines.push(`left out: ${left.join("; ")}`);
  for (const s of res.stale) lines.push(`note: ${displayPath(s)} is from an earlier export and not part of this one`);
  if (n > 0) {
    const names = files.map((p) => displayPath(p.file)).join(" ");
    const flags = where ? ` ${where}` : "";
    lines.push(`next: ragjudge batch submit ${names}${flags}${endpoint ? ` ${endpoint}` : ""}`);
    lines.push(`  or, on a GPU machine with vLLM: python -m vllm.entrypoints.openai.run_batch -i ${displayPath(files[0]!.file)} -o results.jsonl --model ${model}`);
    lines.push(`     then: ragjudge batch import results.jsonl${flags}`);
  }
  return lines.join("\n") + "\n";
}

/** One line per submitted file. */
export function formatSubmit(r: SubmitResult): string {
  const f = displayPath(r.file);
  const judged = r.alreadyJudged ? ` (${r.alreadyJudged} of them already judged; re-export to leave those out)` : "";
  switch (r.action) {
    case "created":
      return `${f}: submitted as ${r.batchId} (${plural(r.requests, "request")}, ${r.status}${r.reusedFile ? ", input file found on the server from an interrupted submit" : ""})${judged}\n`;
    case "found":
      return `${f}: an interrupted submit had created ${r.batchId}; found it through the batch list and recorded it (no second batch)\n`;
    case "already":
      return `${f}: already submitted as ${r.batchId} (${r.status ?? "status unknown"}); nothing sent\n`;
    case "empty":
      return `${f}: no requests; nothing sent\n`;
    case "cached":
      return `${f}: every request is already judged; nothing sent\n`;
  }
}

function countsText(c: BatchCounts | undefined): string {
  return c ? `${c.completed}/${c.total} done, ${c.failed} failed` : "counts unknown";
}

/** One line of `batch status` for a submission. */
export function formatStatusLine(s: Submission): string {
  const what = `${basename(s.file)} (${plural(s.requests, "request")}, sha256 ${s.sha256.slice(0, 12)})`;
  if (!s.batchId) {
    return `(no batch)  interrupted before the batch was recorded  ${what}: run  ragjudge batch submit ${displayPath(s.file)}  again\n`;
  }
  const state = s.collected ? `${s.status ?? "?"}, collected` : (s.status ?? "?");
  return `${s.batchId}  ${state}  ${countsText(s.counts)}  ${what}\n`;
}

/** Where every exported request stands. */
export function formatStates(c: Record<RequestState, number>): string {
  const total = Object.values(c).reduce((a, b) => a + b, 0);
  if (total === 0) return "requests: none exported yet (ragjudge judge --batch-export FILE)\n";
  return `requests: ${c.done} judged, ${c.submitted} in batches, ${c.exported} exported not submitted, ${c.error} error verdicts, ${c.pending} returned to pending\n`;
}

function countsLines(c: IngestCounts): string[] {
  const out = [`${plural(c.verdicts, "verdict")} stored, ${plural(c.errors, "error verdict")}, ${c.pending} returned to pending`];
  for (const [cause, n] of c.causes.slice(0, 5)) out.push(`  ${n} x ${cause}`);
  if (c.causes.some(([cause]) => /response_format|json_schema|structured/i.test(cause))) {
    out.push("  (the server seems to reject structured outputs: export again with --response-format text)");
  }
  if (c.repeated) out.push(`warning: ${plural(c.repeated, "line")} repeating the custom_id of another line, skipped: a yes/no counts over an error, the first line of equals (e.g. ${c.repeatedIds.join(", ")})`);
  if (c.unknown) out.push(`warning: ${plural(c.unknown, "line")} with a custom_id this cache never exported, skipped (e.g. ${c.unknownIds.join(", ")})`);
  return out;
}

/** What collecting one batch did. */
export function formatCollect(r: CollectResult): string {
  const lines = [`${r.batchId} ${r.status}: ${countsLines(r.counts).join("\n")}`];
  if (r.returned) lines.push(`  ${plural(r.returned, "request")} had no result (never run): back to pending`);
  for (const e of r.batchErrors.slice(0, 5)) lines.push(`  batch error: ${e}`);
  return lines.join("\n") + "\n";
}

/** What importing one file did. */
export function formatImport(file: string, c: IngestCounts): string {
  return `${displayPath(file)}: ${plural(c.lines, "line")}; ${countsLines(c).join("\n")}\n`;
}
