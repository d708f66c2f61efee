import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashJson } from "../../src/golden/hash.js";
import type { Evidence, Judgment, QueueEntry } from "../../src/golden/schema/items.js";
import { tempDir } from "../helpers/temp.js";

const RUBRIC = (name: string, question: string, evidence: string, unit = "answer", extra = "") => `name: ${name}
version: 1
question: ${question}
evidence: [${evidence}]
appliesTo: ${unit === "citation" ? "answered" : "all"}
unit: ${unit}
${extra}system: |
  You check answers.
user: |
${evidence.split(", ").filter((f) => f !== "answerable").map((f) => `  {{${f}}}`).join("\n")}
  {{rubric_question}}
${extra ? "  {{case}}\n" : ""}`;

/** Writes three small rubric files (faithfulness, not-found with cases, citation-accuracy). */
export function writeRubrics(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "faithfulness.yaml"), RUBRIC("faithfulness", "Is every claim of the answer supported by the context?", "question, answer, context"));
  writeFileSync(
    join(dir, "not-found.yaml"),
    RUBRIC("not-found", "Did the answer handle correctly whether the documents hold the answer?", "question, answer, answerable", "answer",
      "cases:\n  answerable: Decide only whether the assistant refused.\n  unanswerable: Decide whether it said the information is not available.\n"),
  );
  writeFileSync(join(dir, "citation-accuracy.yaml"), RUBRIC("citation-accuracy", "Does the cited source support the sentence that cites it?", "question, sentence, cited", "citation"));
}

/** Options of {@link entry}: evidence parts, or whole evidence, and queue-entry fields to override. */
export interface EntryOpts {
  chunks?: { id: string; text: string; heading?: string }[];
  question?: string;
  reference?: string;
  evidence?: Evidence;
  over?: Partial<QueueEntry>;
}

/** A faithfulness queue entry for question `q` with the given answer (input hash computed). */
export function entry(q: string, answer: string, opts: EntryOpts = {}): QueueEntry {
  const evidence: Evidence = opts.evidence ?? {
    question: opts.question ?? `Question ${q}?`,
    answer,
    ...(opts.reference !== undefined ? { reference: opts.reference } : {}),
    context: opts.chunks ?? [
      { id: `${q}-doc#0`, text: `Background for ${q}.` },
      { id: `${q}-doc#1`, text: `Unused casual leave cannot be carried forward to the next year (${q}).`, heading: "Casual leave" },
    ],
  };
  return {
    variant: "bm25",
    question: q,
    rubric: "faithfulness",
    unit: "answer",
    frame: "random",
    inclusionProbability: 0.25,
    tags: [],
    citedIds: [`${q}-doc#1`],
    anchor: { doc: `${q}-doc`, text: "unused casual leave cannot be carried forward" },
    split: "dev",
    ...opts.over,
    evidence,
    inputHash: hashJson(evidence),
  };
}

/** A judgment of an entry (same key and input hash). */
export function judgmentOf(e: QueueEntry, verdict: "yes" | "no" | "error", reason: string, more: Partial<Judgment> = {}): Judgment {
  return {
    variant: e.variant,
    question: e.question,
    rubric: e.rubric,
    unit: e.unit,
    inputHash: e.inputHash,
    fingerprint: "f".repeat(64),
    judge: "llm",
    model: "test-model",
    repeat: 0,
    verdict,
    reason,
    cached: false,
    time: "2026-01-01T00:00:00.000Z",
    ...more,
  } as Judgment;
}

/** A temporary project folder with rubrics, a queue, judgments and an empty labels folder. */
export function workspace(entries: QueueEntry[], judgments: Judgment[] = []): { dir: string; queue: string; rubrics: string; labels: string; judgments: string } {
  const dir = tempDir("ragjudge-review-");
  const rubrics = join(dir, "rubrics");
  writeRubrics(rubrics);
  const queue = join(dir, "queue.jsonl");
  writeFileSync(queue, entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const judgmentsFile = join(dir, "judgments.jsonl");
  // with no verdicts, one of an item no queue holds: review refuses a --judgments path that names no file
  const lines = judgments.length ? judgments : [judgmentOf(entry("no-such-question", "-"), "yes", "placeholder")];
  writeFileSync(judgmentsFile, lines.map((j) => JSON.stringify(j) + "\n").join(""));
  const labels = join(dir, "labels");
  return { dir, queue, rubrics, labels, judgments: judgmentsFile };
}
