/**
 * The seeded data behind `npm run bench:report`: a golden set of N questions
 * (default 10,000) over a generated corpus, and two variants as the shipped
 * example has them (small chunks with one BM25 list; larger chunks with
 * headings, two first-stage lists, fusion and a reranker), each with a
 * ranked top 50, a context of 5 and an answer with citation markers. The
 * same seed gives the same files, byte for byte.
 *
 * Words are pseudo-words drawn from a seeded vocabulary, so every anchor (8
 * consecutive words of one sentence) occurs once in its document, as the
 * anchor rule requires, and retrieval quality is whatever the draw says: the
 * point is the report's size and speed, not its figures.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from "pure-rand";

/** How much to generate. */
export interface ReportShape {
  questions: number;
  docs: number;
  seed: number;
}

export const DEFAULT_REPORT_SHAPE: ReportShape = { questions: 10_000, docs: 2_000, seed: 13 };

const SECTIONS = 4;
const SENTENCES = 3;
const WORDS = 14;
const TAGS = ["hr", "travel", "it", "security", "finance", "api", "sre", "onboarding", "english", "hindi", "code", "name"];
const KINDS = ["factual", "lexical", "conceptual"];

class Draw {
  private rng: RandomGenerator;
  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }
  /** A whole number in [0, n). */
  int(n: number): number {
    return unsafeUniformIntDistribution(0, n - 1, this.rng);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.int(1_000_000) < p * 1_000_000;
  }
}

function vocabulary(d: Draw, n: number): string[] {
  const syl = ["ka", "ri", "mo", "ten", "sa", "lu", "vi", "dor", "pa", "ne", "shi", "ga", "tro", "mi", "ban", "el", "qu", "ost"];
  const out = new Set<string>();
  while (out.size < n) out.add(Array.from({ length: 2 + d.int(3) }, () => d.pick(syl)).join(""));
  return [...out];
}

interface Doc {
  id: string;
  title: string;
  sections: { heading: string; sentences: string[][] }[];
}

function corpus(d: Draw, shape: ReportShape): Doc[] {
  const vocab = vocabulary(d, 4000);
  return Array.from({ length: shape.docs }, (_, i) => ({
    id: `doc-${i}`,
    title: `Handbook ${vocab[d.int(vocab.length)]} ${i}`,
    sections: Array.from({ length: SECTIONS }, () => ({
      heading: `${d.pick(vocab)} ${d.pick(vocab)}`,
      sentences: Array.from({ length: SENTENCES }, () => Array.from({ length: WORDS }, () => d.pick(vocab))),
    })),
  }));
}

const sentence = (words: readonly string[]) => `${words[0]![0]!.toUpperCase()}${words.join(" ").slice(1)}.`;

/** Variant A: one chunk per sentence, no heading. Variant B: one chunk per section, with "<title> > <section>" as heading. */
function chunks(docs: readonly Doc[]): { a: object[]; b: object[] } {
  const a: object[] = [];
  const b: object[] = [];
  for (const doc of docs) {
    let na = 0;
    doc.sections.forEach((s, si) => {
      for (const w of s.sentences) a.push({ id: `${doc.id}#${na++}`, doc: doc.id, text: sentence(w) });
      b.push({ id: `${doc.id}#${si}`, doc: doc.id, heading: `${doc.title} > ${s.heading}`, text: s.sentences.map(sentence).join(" ") });
    });
  }
  return { a, b };
}

/** A ranked list of `n` chunk ids with `relevant` at `rank` (1-based; 0: absent), the rest drawn from other documents. */
function ranked(d: Draw, docs: readonly Doc[], perDoc: number, relevant: string, rank: number, n = 50): string[] {
  const out: string[] = [];
  const seen = new Set([relevant]);
  while (out.length < n - (rank > 0 ? 1 : 0)) {
    const id = `${d.pick(docs).id}#${d.int(perDoc)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  if (rank > 0) out.splice(rank - 1, 0, relevant);
  return out;
}

/** A rank for the relevant chunk: often near the top, sometimes deep, sometimes absent. */
function drawRank(d: Draw, kind: string): number {
  const hit = kind === "conceptual" ? 0.35 : 0.85;
  if (!d.chance(hit)) return d.chance(0.5) ? 0 : 11 + d.int(40);
  return d.chance(0.6) ? 1 + d.int(3) : 1 + d.int(10);
}

function answerFor(d: Draw, q: { answerable: boolean; anchor?: string }, context: readonly string[]): { answer: string } {
  if (!q.answerable && d.chance(0.8)) return { answer: "The documents do not say; I could not find this information." };
  const cite = () => `[${1 + d.int(context.length)}]`;
  const body = q.anchor ?? "the policy covers this case";
  const lead = d.chance(0.3) ? "As far as the handbook says, " : "";
  return { answer: `${lead}${body} ${cite()}. It applies to every team, with the usual exceptions ${cite()}.` };
}

/** The files of one generated evaluation, written under `dir`; returns the config path. */
export function writeReportData(dir: string, rubricsDir: string, shape: ReportShape = DEFAULT_REPORT_SHAPE): string {
  const d = new Draw(shape.seed);
  const docs = corpus(d, shape);
  const { a, b } = chunks(docs);
  const golden: object[] = [];
  const outA: object[] = [];
  const outB: object[] = [];
  for (let i = 0; i < shape.questions; i++) {
    const doc = d.pick(docs);
    const si = d.int(SECTIONS);
    const ti = d.int(SENTENCES);
    const words = doc.sections[si]!.sentences[ti]!;
    const unanswerable = d.chance(0.15);
    const kind = unanswerable ? "unanswerable" : d.pick(KINDS);
    const start = d.int(WORDS - 8);
    const anchor = words.slice(start, start + 8).join(" ");
    const asked = kind === "conceptual" ? [d.pick(words), "meaning", "of", "this"] : words.slice(start, start + 4);
    const tags = [...new Set([d.pick(TAGS), d.pick(TAGS)])];
    const q = {
      id: `q${String(i).padStart(5, "0")}`,
      question: `What does the handbook say about ${asked.join(" ")}?`,
      answerable: !unanswerable,
      ...(unanswerable ? {} : { anchor: { doc: doc.id, text: anchor } }),
      reference: unanswerable ? "Not in the documents." : `${sentence(words)}`,
      kind,
      tags,
      split: d.chance(0.5) ? "dev" : "heldout",
    };
    golden.push(q);
    const relA = `${doc.id}#${si * SENTENCES + ti}`;
    const relB = `${doc.id}#${si}`;
    const listA = ranked(d, docs, SECTIONS * SENTENCES, relA, unanswerable ? 0 : drawRank(d, kind));
    outA.push({ id: q.id, retrieved: listA, stages: { bm25: listA }, context: listA.slice(0, 5), ...answerFor(d, { answerable: q.answerable, anchor: unanswerable ? undefined : anchor }, listA.slice(0, 5)) });
    const fusedRank = unanswerable ? 0 : drawRank(d, kind);
    const fused = ranked(d, docs, SECTIONS, relB, fusedRank);
    const reranked = d.chance(0.9) ? fused : ranked(d, docs, SECTIONS, relB, fusedRank > 0 ? Math.min(50, fusedRank + 8) : 0);
    const bm25 = ranked(d, docs, SECTIONS, relB, unanswerable ? 0 : drawRank(d, kind));
    const vector = ranked(d, docs, SECTIONS, relB, unanswerable ? 0 : drawRank(d, kind));
    outB.push({ id: q.id, retrieved: reranked, stages: { bm25, vector, fused, reranked }, context: reranked.slice(0, 5), ...answerFor(d, { answerable: q.answerable, anchor: unanswerable ? undefined : anchor }, reranked.slice(0, 5)) });
  }
  mkdirSync(join(dir, "a"), { recursive: true });
  mkdirSync(join(dir, "b"), { recursive: true });
  mkdirSync(join(dir, "labels"), { recursive: true });
  const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
  writeFileSync(join(dir, "questions.jsonl"), jsonl(golden));
  writeFileSync(join(dir, "a", "chunks.jsonl"), jsonl(a));
  writeFileSync(join(dir, "b", "chunks.jsonl"), jsonl(b));
  writeFileSync(join(dir, "a", "output.jsonl"), jsonl(outA));
  writeFileSync(join(dir, "b", "output.jsonl"), jsonl(outB));
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({
    name: "bench-report",
    golden: "questions.jsonl",
    variants: [
      { name: "small-bm25", output: "a/output.jsonl", chunks: "a/chunks.jsonl", contextK: 5, stages: { first: ["bm25"], pool: "bm25" } },
      { name: "hybrid-rerank", output: "b/output.jsonl", chunks: "b/chunks.jsonl", contextK: 5, stages: { first: ["bm25", "vector"], fused: "fused", reranked: "reranked", pool: "fused" } },
    ],
    k: [1, 5, 10],
    poolDepth: 50,
    rubricsDir,
    labels: "labels",
    judge: { kind: "baseline" },
    evaluationsDir: "evaluations",
    cacheDir: ".ragjudge",
  }, null, 2));
  return config;
}
