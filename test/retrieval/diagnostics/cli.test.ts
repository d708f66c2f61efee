import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { at, CHUNKS, fill, place, q, TEXT_CHUNKS, unanswerable } from "./build.js";

const dir = tempDir("ragjudge-diag-cli-");

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

write(
  "golden.jsonl",
  jsonl([
    q("q-hr", "hr", "unused days cannot be carried forward to the next year", "conceptual", { question: "Does casual leave carry over?" }),
    q("q-fin", "fin", "receipts must be attached to every single claim", "factual"),
    q("q-it", "it", "hardware tokens expire after ninety days", "lexical"),
    unanswerable("q-no"),
  ]),
);
write("chunks.jsonl", jsonl(CHUNKS));
const lists = {
  "q-hr": { bm25: place({ "hr#0": 1 }), vector: fill(60), fused: place({ "hr#0": 2 }), reranked: place({ "hr#0": 2 }) },
  "q-fin": { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) },
  "q-it": { bm25: at("it#1", 3), vector: fill(60), fused: at("it#1", 5), reranked: at("it#1", 14) },
  "q-no": { bm25: fill(60), vector: fill(60), fused: fill(60), reranked: fill(60) },
};
write("hybrid.output.jsonl", jsonl(Object.entries(lists).map(([id, l]) => ({ id, retrieved: l.reranked, stages: l }))));
write("small.output.jsonl", jsonl(Object.entries(lists).map(([id, l]) => ({ id, retrieved: l.bm25, stages: { bm25: l.bm25 } }))));
// The second line lacks the declared "fused" list.
write(
  "broken.output.jsonl",
  jsonl(Object.entries(lists).map(([id, l], i) => ({ id, retrieved: l.reranked, stages: i === 1 ? { bm25: l.bm25, vector: l.vector, reranked: l.reranked } : l }))),
);
const HYBRID = { first: ["bm25", "vector"], fused: "fused", reranked: "reranked" };
const config = (variants: unknown[]) =>
  write(`config-${Math.random().toString(36).slice(2)}.json`, JSON.stringify({ golden: "golden.jsonl", variants, k: [1, 5, 10], poolDepth: 50 }));
const BOTH = config([
  { name: "bm25-small", output: "small.output.jsonl", chunks: "chunks.jsonl", stages: { first: ["bm25"], pool: "bm25" } },
  { name: "hybrid-rerank", output: "hybrid.output.jsonl", chunks: "chunks.jsonl", stages: HYBRID },
]);


describe("ragjudge retrieval with diagnostics", () => {
  it("shows pool recall, the precision ceiling and failure kinds for every variant, split by kind", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH]);
    expect(r.code).toBe(0);
    for (const v of ["bm25-small", "hybrid-rerank"]) {
      expect(r.out).toContain(`Pool recall: ${v} (`);
      expect(r.out).toContain(`Failure kinds: ${v} (misses at top 10)`);
    }
    expect(r.out).not.toContain("Misses:");
    expect(r.out).toMatch(/^conceptual +1 +0\.0000 +0\.0000 +1 +0$/m);
    expect(r.out).toMatch(/^note: P@5 and P@10 are capped: at most 0\.\d{3} and 0\.100 here/m);
  });

  it("--misses adds the table with ranks per stage, failure kind and fix", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH, "--misses"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^q-it +lexical +hardware tokens expire after ninety days +3 +— +5 +14 +14 +reranker-demotion +hybrid-weights$/m);
    const small = r.out.slice(r.out.indexOf("Misses: bm25-small"), r.out.indexOf("Pool recall: hybrid-rerank"));
    expect(small).toMatch(/^q-hr +conceptual .* chunk-boundary/m);
    expect(small).not.toMatch(/^q-it /m); // bm25 has it at 3: a hit for bm25-small
    expect(r.out).toMatch(/^q-hr +conceptual .* chunk-boundary +contextual-chunk-headers$/m);
    expect(r.out).toMatch(/^q-fin +factual .* vocabulary-gap +better-embedder$/m);
  });

  it("--pool-depth overrides the config and is checked", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH, "--variant", "hybrid-rerank", "--misses", "--pool-depth", "4"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Pool recall: hybrid-rerank (fused@4 beside final R@10)");
    // a pool read above k is no ceiling for R@k: the note says so instead of claiming one
    expect(r.out).toContain("note: the pool is read at depth 4, above the cutoff 10, so pool@4 is not a ceiling for R@10 (use a pool depth of at least 10)");
    expect(r.out).not.toContain("pool@4 is the ceiling");
    // it#1 is at 5 in fused: beyond depth 4; bm25 has it at 3, so fusion dropped it from the pool.
    expect(r.out).toMatch(/^q-it +lexical .* 3 +— +>4 +>4 +>4 +reranker-demotion/m);
    const bad = await runCliCaptured(["retrieval", "--config", BOTH, "--pool-depth", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('ragjudge: error: --pool-depth: expected a positive whole number, got "0"\n');
  });

  it("--format json carries the diagnostics", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH, "--format", "json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { diagnostics: { variant: string; misses: { question: string; failure: string; fix: string | null }[] }[] };
    expect(j.diagnostics.map((d) => d.variant)).toEqual(["bm25-small", "hybrid-rerank"]);
    expect(j.diagnostics[1]!.misses.map((m) => [m.question, m.failure, m.fix])).toEqual([
      ["q-hr", "chunk-boundary", "contextual-chunk-headers"],
      ["q-fin", "vocabulary-gap", "better-embedder"],
      ["q-it", "reranker-demotion", "hybrid-weights"],
    ]);
  });

  it("--format md appends Markdown sections", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH, "--format", "md", "--misses"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^### Misses: hybrid-rerank/m);
    expect(r.out).toContain("| q-it | lexical | hardware tokens expire after ninety days | 3 | — | 5 | 14 | 14 | reranker-demotion | hybrid-weights |");
  });

  it("--format trec stays trec_eval's output only, and refuses --misses", async () => {
    const r = await runCliCaptured(["retrieval", "--config", BOTH, "--variant", "bm25-small", "--format", "trec"]);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/Pool recall|Failure kinds/);
    const bad = await runCliCaptured(["retrieval", "--config", BOTH, "--variant", "bm25-small", "--format", "trec", "--misses"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--misses does not apply to --format trec/);
  });

  it("a declared stage list missing from an output line is exit 2 naming file, line and field", async () => {
    const cfg = config([{ name: "hybrid-rerank", output: "broken.output.jsonl", chunks: "chunks.jsonl", stages: HYBRID }]);
    const r = await runCliCaptured(["retrieval", "--config", cfg]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`ragjudge: error: ${join(dir, "broken.output.jsonl")}:2: stages.fused: missing: variant "hybrid-rerank" declares "fused" as its fused list (the config's stages)\n`);
  });

  it("explicit inputs have no declared stages: pool recall is unavailable, not faked", async () => {
    const r = await runCliCaptured(["retrieval", "--golden", join(dir, "golden.jsonl"), "--chunks", join(dir, "chunks.jsonl"), "--output", join(dir, "hybrid.output.jsonl"), "--misses"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("pool recall unavailable: no declared pool");
    expect(r.out).toMatch(/^q-fin +factual .* undecided +better-embedder$/m);
    expect(r.out).toMatch(/^  q-fin: no first-stage list is declared .*\(proposal: likely a vocabulary gap/m);
    // no config was read: the hints name the config's stages, not a ragjudge.config.json this command never saw
    expect(r.out).not.toContain("ragjudge.config.json");
    expect(r.out).toContain("give it stages.first, stages.fused or stages.pool in the config's variants");
  });

  it("--misses does not apply to TREC runs", async () => {
    const qrels = write("x.qrels", "q1 0 d1 1\n");
    const runf = write("x.run", "q1 Q0 d1 1 1.0 t\n");
    const r = await runCliCaptured(["retrieval", "--qrels", qrels, "--trec-run", runf, "--misses"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--misses and --pool-depth diagnose golden-set inputs/);
  });

  it("--by and --variant do not apply to TREC runs either (they were ignored without a word)", async () => {
    const qrels = write("y.qrels", "q1 0 d1 1\n");
    const runf = write("y.run", "q1 Q0 d1 1 1.0 t\n");
    for (const extra of [["--by", "kind"], ["--by", "none"], ["--variant", "bm25"]]) {
      const r = await runCliCaptured(["retrieval", "--qrels", qrels, "--trec-run", runf, ...extra]);
      expect(r.code, extra.join(" ")).toBe(2);
      expect(r.err).toBe("ragjudge: error: --by and --variant apply to golden-set inputs (question kinds and tags, the config's variants); they do not apply to --qrels/--trec-run\n");
    }
    expect((await runCliCaptured(["retrieval", "--qrels", qrels, "--trec-run", runf])).code).toBe(0);
  });

  it("refuses anchors that break the anchor rule instead of scoring them, and warns on an anchor a chunk boundary cuts", async () => {
    const golden = write("rule.golden.jsonl", jsonl([
      q("q-short", "hr", "carried forward", "factual"),
      q("q-split", "claims", "paid within thirty days of approval by the finance team", "factual", { question: "How fast are claims paid?" }),
    ]));
    write("rule.chunks.jsonl", jsonl(TEXT_CHUNKS.concat(CHUNKS.filter((c) => c.doc === "hr"))));
    write("rule.output.jsonl", jsonl([{ id: "q-short", retrieved: ["hr#1"] }, { id: "q-split", retrieved: ["claims#0", "claims#1"] }]));
    const args = ["retrieval", "--golden", golden, "--chunks", join(dir, "rule.chunks.jsonl"), "--output", join(dir, "rule.output.jsonl"), "--misses"];
    const bad = await runCliCaptured(args);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toContain(`${golden}:1: anchor.text: has 2 words; an anchor is a verbatim phrase of 6 to 20 words`);
    writeFileSync(golden, jsonl([q("q-split", "claims", "paid within thirty days of approval by the finance team", "factual", { question: "How fast are claims paid?" })]));
    write("rule.output.jsonl", jsonl([{ id: "q-split", retrieved: ["claims#0", "claims#1"] }]));
    const r = await runCliCaptured(args);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`warning: ${golden}:1: anchor.text: is cut by a chunk boundary in ${join(dir, "rule.chunks.jsonl")} (claims#0 holds "paid within thirty days", claims#1 holds "of approval by the finance team")`);
    expect(r.out).toMatch(/^q-split +factual .* chunk-boundary +contextual-chunk-headers$/m);
  });
});
