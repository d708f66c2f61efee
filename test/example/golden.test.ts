import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/golden/config.js";
import { loadGolden, loadVariant, relevantSets } from "../../src/golden/dataset.js";
import { countOccurrences, normalise } from "../../src/golden/normalise.js";
import { contentStems } from "../../scripts/example/text.js";
import { corpus, GOLDEN, paragraphOf, ROOT } from "./helpers.js";

const golden = loadGolden(resolve(GOLDEN, "questions.jsonl"));
const questions = golden.questions;
const answerable = questions.filter((q) => q.answerable);
const docById = new Map(corpus().map((d) => [d.id, d]));
const byKind = (k: string) => questions.filter((q) => q.kind === k);

describe("shipped golden set: shape", () => {
  it("has exactly 16 factual, 16 lexical and 16 conceptual answerable questions and at least 12 unanswerable ones", () => {
    for (const k of ["factual", "lexical", "conceptual"]) {
      expect(byKind(k), k).toHaveLength(16);
      expect(byKind(k).every((q) => q.answerable)).toBe(true);
    }
    const none = questions.filter((q) => !q.answerable);
    expect(none.length).toBeGreaterThanOrEqual(12);
    expect(none.every((q) => q.kind === "unanswerable" && q.anchor === undefined)).toBe(true);
    expect(answerable).toHaveLength(48);
  });

  it("gives every question a reference, a language tag and a dev or heldout split, about 60/40 within each kind", () => {
    for (const q of questions) {
      expect(q.reference, q.id).toBeTruthy();
      expect(["english", "hindi", "romanised"].filter((t) => q.tags.includes(t)), q.id).toHaveLength(1);
      expect(["dev", "heldout"], q.id).toContain(q.split);
    }
    for (const k of ["factual", "lexical", "conceptual", "unanswerable"]) {
      const qs = byKind(k);
      const dev = qs.filter((q) => q.split === "dev").length / qs.length;
      expect(dev, k).toBeGreaterThanOrEqual(0.55);
      expect(dev, k).toBeLessThanOrEqual(0.65);
    }
  });

  it("has questions in Hindi (Devanagari) and in romanised Hindi, tagged truthfully", () => {
    const hindi = questions.filter((q) => q.tags.includes("hindi"));
    const romanised = questions.filter((q) => q.tags.includes("romanised"));
    expect(hindi.length).toBeGreaterThanOrEqual(3);
    expect(romanised.length).toBeGreaterThanOrEqual(3);
    for (const q of hindi) expect(q.question, q.id).toMatch(/\p{Script=Devanagari}/u);
    for (const q of [...romanised, ...questions.filter((x) => x.tags.includes("english"))]) {
      expect(q.question, q.id).not.toMatch(/\p{Script=Devanagari}/u);
    }
    expect(questions.filter((q) => q.tags.includes("code")).length).toBeGreaterThanOrEqual(2);
    expect(questions.filter((q) => q.tags.includes("name")).length).toBeGreaterThanOrEqual(2);
  });

  it("phrases unanswerable references as 'not found'", () => {
    for (const q of questions.filter((x) => !x.answerable)) expect(q.reference, q.id).toMatch(/^Not found/);
  });
});

describe("shipped golden set: anchors", () => {
  it("gives every answerable question a 6-20 word anchor that occurs exactly once in its document, inside one paragraph", () => {
    for (const q of answerable) {
      expect(q.anchor, q.id).toBeDefined();
      const doc = docById.get(q.anchor!.doc);
      expect(doc, `${q.id}: document ${q.anchor!.doc}`).toBeDefined();
      const words = q.anchor!.text.trim().split(/\s+/u).length;
      expect(words, q.id).toBeGreaterThanOrEqual(6);
      expect(words, q.id).toBeLessThanOrEqual(20);
      expect(countOccurrences(doc!.text, q.anchor!.text), q.id).toBe(1);
      expect(paragraphOf(doc!, q.anchor!.text), `${q.id}: anchor crosses a paragraph`).toBeDefined();
    }
  });

  it("places every anchor whole inside at least one chunk of each variant (recall can reach 1.0)", () => {
    const cfg = loadConfig(resolve(ROOT, "ragjudge.config.json"));
    for (const v of cfg.config.variants) {
      const data = loadVariant(v, golden, cfg.path);
      const rel = relevantSets(golden, data.chunks);
      for (const q of answerable) expect(rel.get(q.id)?.size ?? 0, `${v.name} ${q.id}`).toBeGreaterThanOrEqual(1);
    }
  });

  it("keeps conceptual questions free of any content word of their passage (stop words removed, crude stems compared)", () => {
    for (const q of byKind("conceptual")) {
      const passage = paragraphOf(docById.get(q.anchor!.doc)!, q.anchor!.text)!;
      const shared = [...contentStems(q.question)].filter((w) => contentStems(passage).has(w));
      expect(shared, `${q.id} shares ${shared.join(", ")} with its passage`).toEqual([]);
    }
  });

  it("makes each lexical question contain a rare term that appears verbatim in its passage", () => {
    const docs = [...docById.values()];
    for (const q of byKind("lexical")) {
      const term = q.meta?.term;
      expect(typeof term, q.id).toBe("string");
      const t = normalise(term as string);
      expect(normalise(q.question), q.id).toContain(t);
      expect(normalise(paragraphOf(docById.get(q.anchor!.doc)!, q.anchor!.text)!), q.id).toContain(t);
      // Rare: in at most an eighth of the documents.
      const docsWithTerm = docs.filter((d) => normalise(d.text).includes(t)).length;
      expect(docsWithTerm, `${q.id}: "${term}" is in ${docsWithTerm} documents`).toBeLessThanOrEqual(docs.length / 8);
    }
  });

  it("lets factual questions share at least one content word with their passage (they are not paraphrases)", () => {
    for (const q of byKind("factual")) {
      const passage = paragraphOf(docById.get(q.anchor!.doc)!, q.anchor!.text)!;
      const shared = [...contentStems(q.question)].filter((w) => contentStems(passage).has(w));
      expect(shared.length, q.id).toBeGreaterThan(0);
    }
  });
});
