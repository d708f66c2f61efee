/**
 * Hand-built cases for the diagnostics tests: a tiny corpus, golden
 * questions, and pipeline outputs whose stage lists are written out so each
 * rank is visible in the test that uses it.
 */
import { indexChunks } from "../../../src/golden/relevance.js";
import type { StageRoles } from "../../../src/golden/schema/config.js";
import type { Chunk, GoldenQuestion } from "../../../src/golden/schema/golden.js";
import type { PipelineOutput } from "../../../src/golden/schema/pipeline.js";
import type { VariantData } from "../../../src/golden/dataset.js";

/** Filler chunks of an unrelated document, `misc#0` .. `misc#59`. */
export const FILLER: Chunk[] = Array.from({ length: 60 }, (_, i) => ({ id: `misc#${i}`, doc: "misc", text: `Unrelated filler passage number ${i}.` }));

export const CHUNKS: Chunk[] = [
  { id: "hr#0", doc: "hr", heading: "Casual leave", text: "Casual leave: employees get twelve days each calendar year." },
  { id: "hr#1", doc: "hr", text: "Unused days cannot be carried forward to the next year at all." },
  { id: "it#0", doc: "it", heading: "VPN", text: "Reset your VPN token through the self-service portal." },
  { id: "it#1", doc: "it", text: "Hardware tokens expire after ninety days and must be renewed." },
  { id: "fin#0", doc: "fin", heading: "Travel", text: "Travel claims are paid within thirty days of approval." },
  { id: "fin#1", doc: "fin", text: "Receipts must be attached to every single claim you file." },
  // Two overlapping chunks that both contain q-two's anchor (R = 2).
  { id: "sec#0", doc: "sec", text: "Badges must be worn visibly at all times inside the building." },
  { id: "sec#1", doc: "sec", text: "Badges must be worn visibly at all times inside the building, and lost badges reported." },
  // A document whose anchor chunk pol#2 has an adjacent pair (pol#1, pol#3), a
  // same-heading chunk further away (pol#0) and a far chunk (pol#4).
  { id: "pol#0", doc: "pol", heading: "Leave", text: "Leave requests go to your manager in the portal." },
  { id: "pol#1", doc: "pol", heading: "Travel", text: "Book travel through the approved agency only." },
  { id: "pol#2", doc: "pol", heading: "Leave", text: "You may carry over at most five days into the following year." },
  { id: "pol#3", doc: "pol", heading: "Travel", text: "Economy class is the default for flights under six hours." },
  { id: "pol#4", doc: "pol", heading: "Security", text: "Lock your screen whenever you leave your desk." },
  ...FILLER,
];

/** The filler ids `misc#from` .. `misc#(from + n - 1)`. */
export function fill(n: number, from = 0): string[] {
  return Array.from({ length: n }, (_, i) => `misc#${from + i}`);
}

/** A list of length `len` of filler with `id` placed at 1-based `rank` (or absent when rank is 0). */
export function at(id: string, rank: number, len = 60): string[] {
  const out = fill(len - (rank > 0 ? 1 : 0));
  if (rank > 0) out.splice(rank - 1, 0, id);
  return out;
}

/** Like {@link at} for several ids: `place({"hr#0": 1, "hr#1": 30})`. */
export function place(ids: Record<string, number>, len = 60): string[] {
  const out = fill(len - Object.keys(ids).length);
  for (const [id, rank] of Object.entries(ids).sort((a, b) => a[1] - b[1])) out.splice(rank - 1, 0, id);
  return out;
}

export function q(id: string, doc: string, anchor: string, kind: string, extra: Partial<GoldenQuestion> = {}): GoldenQuestion {
  return { id, question: `question ${id}?`, answerable: true, anchor: { doc, text: anchor }, kind, tags: [], ...extra };
}

export function unanswerable(id: string, kind = "factual"): GoldenQuestion {
  return { id, question: `question ${id}?`, answerable: false, kind, tags: [] };
}

/** A pipeline output line from id lists. */
export function out(id: string, retrieved: string[], stages?: Record<string, string[]>): PipelineOutput {
  return {
    id,
    retrieved,
    ...(stages ? { stages } : {}),
  };
}

/** A loaded-variant stand-in built from chunks, output lines and declared roles. */
export function variant(outputs: PipelineOutput[], stages: Partial<StageRoles> = {}, name = "test", chunks: Chunk[] = CHUNKS): VariantData {
  return {
    name,
    outputFile: `${name}.output.jsonl`,
    chunksFile: `${name}.chunks.jsonl`,
    chunks: indexChunks(chunks),
    outputs: new Map(outputs.map((o) => [o.id, o])),
    lineOf: new Map(outputs.map((o, i) => [o.id, i + 1])),
    contextK: 5,
    stages: { first: [], ...stages },
  };
}

export const HYBRID: StageRoles = { first: ["bm25", "vector"], fused: "fused", reranked: "reranked" };

/**
 * Chunks for the text-based cases of the miss analysis: each document is
 * written so that one question's words sit where the case needs them.
 *
 * - `leave`: the anchor's chunk leave#1 has no heading; its previous chunk
 *   leave#0 carries the section heading "Casual leave" (the words a question
 *   about casual leave matches) in its heading only.
 * - `claims`: a chunk boundary cuts the anchor "paid within thirty days of
 *   approval by the finance team" between claims#0 and claims#1.
 * - `webhooks`: sections with their own headings; the chunk after the
 *   anchor's is another section that shares the question's words.
 * - `remote`: the chunk before the anchor's shares one common word only.
 */
export const TEXT_CHUNKS: Chunk[] = [
  { id: "leave#0", doc: "leave", heading: "Casual leave", text: "Short personal errands and sudden illness are what this allowance is for." },
  { id: "leave#1", doc: "leave", text: "Unused days cannot be carried forward to the next year at all." },
  { id: "leave#2", doc: "leave", text: "Hardware tokens expire after ninety days and must be renewed." },
  { id: "claims#0", doc: "claims", text: "Receipts are attached in the portal. Travel claims are paid within thirty days" },
  { id: "claims#1", doc: "claims", text: "of approval by the finance team, by bank transfer." },
  { id: "webhooks#0", doc: "webhooks", heading: "Webhooks > Responding", text: "Respond with any 2xx status within ten seconds. Do the real work asynchronously: put the event on a queue and return at once." },
  { id: "webhooks#1", doc: "webhooks", heading: "Webhooks > Duplicates", text: "A slow handler that processes a delivery twice must be idempotent." },
  { id: "remote#0", doc: "remote", text: "You may work from another city for up to thirty days, for example to spend time with family." },
  { id: "remote#1", doc: "remote", text: "Even a week abroad with a laptop needs prior approval from the security team." },
  ...FILLER,
];

/** A golden question with real words, for the text-based cases. */
export function textQ(id: string, question: string, doc: string, anchor: string, kind = "conceptual"): GoldenQuestion {
  return { id, question, answerable: true, anchor: { doc, text: anchor }, kind, tags: [] };
}
