/**
 * Claim-level faithfulness through the real openai SDK against the local
 * scripted server: claim splitting (several sentences, a list, citation
 * markers, Hindi and romanised Hindi), claims extracted by the `claims`
 * rubric under their own fingerprint and cached, derived answer verdicts,
 * and the unsupported claims in every report.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Judgment } from "../../src/golden/schema/items.js";
import { runEvaluation } from "../../src/report/evaluation.js";
import { NO_KEY, runCliCaptured } from "../helpers/cli.js";
import { ItemRecord } from "../../src/report/items/schema.js";
import { ROOT } from "../helpers/paths.js";
import { tempDir } from "../helpers/temp.js";
import { startOpenAIServer, type RequestInfo, type TestServer } from "../server/openai-server.js";

const ANSWERS: Record<string, string> = {
  en: "Casual leave lapses on 31 December [1]. You get 40 days of casual leave a year [1].",
  list: "You can claim:\n- taxis [1]\n- hotels up to Rs 5,000 a night [1]",
  hi: "अर्जित अवकाश 45 दिन तक आगे ले जा सकते हैं [1]। मंज़ूरी मैनेजर देता है [1]।",
  roman: "Aapko saal mein 12 casual leave milti hain [1]. Yeh 31 December ko lapse ho jaati hain [1].",
};

/** A one-chunk fixture per answer; "40 days" and "Rs 5,000" are what the sources do not say. */
function fixture(extra: Record<string, unknown>): string {
  const dir = tempDir("ragjudge-claims-llm-");
  const w = (name: string, rows: unknown[]) => writeFileSync(join(dir, name), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const ids = Object.keys(ANSWERS);
  w("golden.jsonl", ids.map((id) => ({ id, question: `Question ${id}?`, relevant: [`${id}#0`], reference: "ref", split: "heldout" })));
  w("chunks.jsonl", ids.map((id) => ({ id: `${id}#0`, doc: id, heading: `Heading ${id}`, text: `Casual leave lapses on 31 December. You get 12 days of casual leave a year. Taxis can be claimed.` })));
  w("output.jsonl", ids.map((id) => ({ id, retrieved: [`${id}#0`], answer: ANSWERS[id] })));
  const config = join(dir, "ragjudge.config.json");
  writeFileSync(config, JSON.stringify({ name: "claims", golden: "golden.jsonl", variants: [{ name: "v", output: "output.jsonl", chunks: "chunks.jsonl" }], rubricsDir: join(ROOT, "rubrics"), labels: "labels", ...extra }));
  return config;
}

/** The fenced ANSWER block of a request. */
function answerOf(r: RequestInfo): string {
  return /<<<BEGIN ANSWER>>>\n([\s\S]*?)\n<<<END ANSWER>>>/.exec(r.user)?.[1] ?? "";
}

const isExtraction = (r: RequestInfo) => r.system.includes('exactly one field, "claims"');

describe("claim-level faithfulness with an LLM judge", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({
      keepBodies: true,
      script: (r) => {
        if (isExtraction(r)) {
          // The "extracted" claims: the answer's sentences, reworded so they differ from the splitter's.
          const a = answerOf(r);
          const claims = a.split(/(?<=[.।])\s+|\n- /u).map((s) => s.replace(/\s*\[\d+\]/gu, "").trim()).filter((s) => s && !s.endsWith(":")).map((s) => `Claim: ${s}`);
          return { content: JSON.stringify({ claims }) };
        }
        const a = answerOf(r);
        return /40 days|5,000/.test(a) ? { verdict: "no", reason: `the sources do not say ${JSON.stringify(a)}` } : { verdict: "yes", reason: "stated in source 1" };
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const judge = () => ({ kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 2 });
  const judgmentsOf = (folder: string) => readFileSync(join(folder, "judgments.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Judgment);

  it("splits answers into sentence claims (lists, markers, Hindi, romanised Hindi) and derives each answer's verdict", async () => {
    server.resetCount();
    const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness"], judge: judge() });
    const run = await runEvaluation({ config, cacheDir: join(config, "..", "cache") });
    const js = judgmentsOf(run.folder).filter((j) => j.rubric === "faithfulness");
    const claims = (q: string) => js.filter((j) => j.question === q && j.unit !== "answer").map((j) => [j.unit, j.claim, j.verdict]);
    expect(claims("en")).toEqual([["c1", "Casual leave lapses on 31 December.", "yes"], ["c2", "You get 40 days of casual leave a year.", "no"]]);
    expect(claims("list")).toEqual([["c1", "You can claim:", "yes"], ["c2", "taxis", "yes"], ["c3", "hotels up to Rs 5,000 a night", "no"]]);
    expect(claims("hi").map((c) => c[1])).toEqual(["अर्जित अवकाश 45 दिन तक आगे ले जा सकते हैं।", "मंज़ूरी मैनेजर देता है।"]);
    expect(claims("roman").map((c) => c[1])).toEqual(["Aapko saal mein 12 casual leave milti hain.", "Yeh 31 December ko lapse ho jaati hain."]);
    // Each claim was its own call, the claim in place of the answer.
    expect(server.requests.map((r) => answerOf(r.info))).toContain("You get 40 days of casual leave a year.");
    expect(server.requests.some((r) => isExtraction(r.info))).toBe(false);
    const answer = (q: string) => js.find((j) => j.question === q && j.unit === "answer")!;
    expect(answer("en")).toMatchObject({ verdict: "no", derived: "claims", judge: "llm" });
    expect(answer("en").reason).toContain('c2: "You get 40 days of casual leave a year."');
    expect(answer("hi")).toMatchObject({ verdict: "yes", derived: "claims" });
    // The answer's verdict is the one every figure counts: 2 of 4 answers pass.
    const f = run.report.rubrics.find((r) => r.rubric === "faithfulness")!;
    expect(f.unit).toBe("claim");
    expect(f.variants[0]).toMatchObject({ pass: 2, fail: 2 });
    expect(f.variants[0]!.pairs).toMatchObject({ pass: 7, fail: 2 });

    // Every report lists the unsupported claims with the context they were checked against.
    expect(run.report.unsupportedClaims!.map((c) => [c.question, c.unit, c.claim])).toEqual([["en", "c2", "You get 40 days of casual leave a year."], ["list", "c3", "hotels up to Rs 5,000 a night"]]);
    expect(run.report.unsupportedClaims![0]!.context).toEqual([{ position: 1, id: "en#0", heading: "Heading en", text: expect.stringContaining("12 days") }]);
    for (const file of ["summary.txt", "report.md"]) {
      const text = readFileSync(join(run.folder, file), "utf8");
      expect(text).toContain("Unsupported claims");
      expect(text).toContain("en c2: \"You get 40 days of casual leave a year.\"");
      expect(text).toMatch(/checked against: \\?\[1\\?\] en#0 \(Heading en\)/);
    }
    expect(run.summary).toContain("v: claims supported");
    const items = readFileSync(join(run.folder, "items.jsonl"), "utf8").trim().split("\n").map((l) => ItemRecord.parse(JSON.parse(l)));
    const en = items.find((i) => i.question === "en")!.rubrics.find((r) => r.rubric === "faithfulness")!;
    expect(en.verdict).toBe("no");
    expect(en.units.map((u) => [u.unit, u.claim ?? null])).toEqual([["answer", null], ["c1", "Casual leave lapses on 31 December."], ["c2", "You get 40 days of casual leave a year."]]);
    expect(readFileSync(join(run.folder, "items.csv"), "utf8")).toContain("c2: the sources do not say");
    expect(readFileSync(join(run.folder, "report.json"), "utf8")).toContain('"unsupportedClaims"');
  });

  it("takes the claims from the claims rubric under its own fingerprint, cached, and judges those", async () => {
    const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: judge(), cacheDir: "cache" });
    const cacheDir = join(config, "..", "cache");
    server.resetCount();
    const before = server.requests.length;
    const run = await runEvaluation({ config, cacheDir });
    const sent = server.requests.slice(before);
    const extractions = sent.filter((r) => isExtraction(r.info));
    expect(extractions).toHaveLength(4);
    expect(extractions[0]!.info.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "claims" } });
    const js = judgmentsOf(run.folder).filter((j) => j.rubric === "faithfulness");
    expect(js.filter((j) => j.question === "list" && j.unit !== "answer").map((j) => j.claim)).toEqual(["Claim: taxis", "Claim: hotels up to Rs 5,000 a night"]);
    expect(js.find((j) => j.question === "en" && j.unit === "answer")!.reason).toContain('c2: "Claim: You get 40 days of casual leave a year."');
    // The claims rubric is not judged itself, and is no rubric of the reports.
    expect(js.length).toBeGreaterThan(0);
    expect(judgmentsOf(run.folder).some((j) => j.rubric === "claims")).toBe(false);
    expect(run.report.rubrics.map((r) => r.rubric)).not.toContain("claims");
    // Its own fingerprint, registered in the cache, and the extracted lists in a table of their own.
    const db = new Database(join(cacheDir, "judge-cache.sqlite"), { readonly: true });
    try {
      const fps = db.prepare("SELECT fingerprint, rubric FROM fingerprints").all() as { fingerprint: string; rubric: string }[];
      const claimsFp = fps.find((f) => f.rubric === "claims")!.fingerprint;
      const faithFp = js[0]!.fingerprint;
      expect(claimsFp).not.toBe(faithFp);
      const stored = db.prepare("SELECT fingerprint, claims FROM claims").all() as { fingerprint: string; claims: string }[];
      expect(stored).toHaveLength(4);
      expect(new Set(stored.map((s) => s.fingerprint))).toEqual(new Set([claimsFp]));
    } finally {
      db.close();
    }
    // A rerun extracts nothing and judges nothing: both come from the cache.
    const n = server.requests.length;
    const again = await runEvaluation({ config, cacheDir });
    expect(server.requests.length).toBe(n);
    // Derived answer verdicts are no judgments made: every judgment of the rerun is a cache hit or a rule verdict.
    const t = again.report.judgeTotals;
    expect(t.calls).toBe(0);
    expect(t.cached).toBe(t.judgments - t.rule);
    expect(judgmentsOf(again.folder).filter((j) => j.rubric === "faithfulness").map((j) => [j.unit, j.claim, j.verdict])).toEqual(js.map((j) => [j.unit, j.claim, j.verdict]));
    // sample rebuilds the same claim items from the cached extractions: the queue holds the extracted claims, hashes matching.
    const sampled = await runCliCaptured(["sample", "--config", config, "--random", "20", "--annotator", "asha", "--judgments", join(again.folder, "judgments.jsonl"), "--out", join(cacheDir, "queue.jsonl"), "--rubrics", "faithfulness"]);
    expect(sampled.code).toBe(0);
    const queue = readFileSync(join(cacheDir, "queue.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { unit: string; inputHash: string; evidence: { answer: string } });
    expect(queue).toHaveLength(8);
    for (const e of queue) expect(js.find((j) => j.unit === e.unit && j.inputHash === e.inputHash)?.claim).toBe(e.evidence.answer);
    expect(queue.every((e) => e.evidence.answer.startsWith("Claim: "))).toBe(true);
    // Another model is another extraction fingerprint: extracted anew.
    const other = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { ...judge(), model: "other-model" } });
    const m = server.requests.length;
    await runEvaluation({ config: other, cacheDir });
    expect(server.requests.slice(m).filter((r) => isExtraction(r.info))).toHaveLength(4);
  });

  it("ragjudge judge: extracts, judges the claims, derives the answers and prints the unsupported claims", async () => {
    const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: judge(), cacheDir: "cache" });
    const r = await runCliCaptured(["judge", "--config", config]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/claims: 4 answers' claims extracted by judge-model \(fingerprint [0-9a-f]{12}; 0 from the cache, 4 calls\)/);
    expect(r.out).toContain("Unsupported claims");
    expect(r.out).toContain('en c2: "Claim: You get 40 days of casual leave a year." (unsupported)');
    const js = judgmentsOf(join(config, "..", "cache"));
    expect(js.filter((j) => j.derived).map((j) => [j.question, j.verdict])).toEqual([["en", "no"], ["list", "no"], ["hi", "yes"], ["roman", "yes"]]);
    const json = await runCliCaptured(["judge", "--config", config, "--json"]);
    expect((JSON.parse(json.out) as { unsupportedClaims: unknown[] }).unsupportedClaims).toHaveLength(2);
    expect(json.err).toContain("4 from the cache, 0 calls");
  });

  it("a refused key or an unknown model while extracting claims is the setup's (exit 2, as for the verdicts), a failing server an outage (exit 4)", async () => {
    for (const [behaviour, code, says] of [
      [{ status: 401, message: "bad key" }, 2, "(http-401: bad key (the endpoint wants an API key and none is set (a loopback server is sent a placeholder): put the key it wants in OPENAI_API_KEY (or the variable apiKeyEnv names))); the extractions already made are cached"],
      [{ status: 404, message: "no such model" }, 2, "(http-404: no such model (unknown model or endpoint: does the base URL end in /v1?))"],
      [{ status: 500, message: "boom" }, 4, "(http-500: boom); the extractions already made are cached"],
    ] as const) {
      const down = await startOpenAIServer({ script: () => behaviour });
      try {
        const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { kind: "openai", model: "judge-model", baseUrl: down.baseURL, maxRetries: 0, concurrency: 1 }, cacheDir: "cache" });
        const r = await runCliCaptured(["judge", "--config", config, "--no-progress"], NO_KEY);
        expect(r.code, r.err).toBe(code);
        // a refused key or model stops the extraction at its first answer; a failing server is asked once per answer
        expect(down.requests.length).toBe(code === 2 ? 1 : Object.keys(ANSWERS).length);
        expect(r.err).toContain(says);
        expect(r.err.match(/a rerun continues from there/g) ?? []).toHaveLength(1);
      } finally {
        await down.close();
      }
    }
  });

  // The verdicts' rule (test/cli/exit-codes.test.ts): a reply the endpoint gave that is no claim list, on every answer
  // asked, is the setup's to change (2), as a web page from a base URL that is not the API's; a rerun would get the same.
  it("extraction replies that are all unreadable (a web page, prose) are the setup's (exit 2), as for the verdicts", async () => {
    for (const [behaviour, says] of [
      [{ body: "<html><body>Sign in</body></html>" }, /claims: the claims of 4 answers could not be extracted \(bad-response: the body is not valid JSON\); the server answered with something other than a chat completion: is the base URL the API's, ending in \/v1\?; the extractions already made are cached/],
      [{ content: "These answers look fine to me." }, /could not be extracted \(parse: [^)]*\); if the server lacks structured outputs, pass --response-format text; the extractions/],
    ] as const) {
      const page = await startOpenAIServer({ script: () => behaviour });
      try {
        const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { kind: "openai", model: "judge-model", baseUrl: page.baseURL, maxRetries: 0, concurrency: 1 }, cacheDir: "cache" });
        const r = await runCliCaptured(["judge", "--config", config, "--no-progress"], NO_KEY);
        expect(r.code, r.err).toBe(2);
        expect(r.err).toMatch(says);
      } finally {
        await page.close();
      }
    }
  });

  it("waits out a rate limit while extracting claims (Retry-After), as the verdicts' calls do, and stops at once on a wait longer than a run waits", async () => {
    let limited = 0;
    const limiting = await startOpenAIServer({
      keepBodies: true,
      script: (r) => {
        if (isExtraction(r) && limited++ === 0) return { status: 429, headers: { "retry-after": "1" }, message: "slow down" };
        if (isExtraction(r)) return { content: JSON.stringify({ claims: [`Claim: ${answerOf(r).slice(0, 40)}`] }) };
        return { verdict: "yes", reason: "stated in source 1" };
      },
    });
    try {
      const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { kind: "openai", model: "judge-model", baseUrl: limiting.baseURL, maxRetries: 2, concurrency: 1 }, cacheDir: "cache" });
      const r = await runCliCaptured(["judge", "--config", config, "--no-progress"], NO_KEY);
      expect(r.code, r.err).toBe(0);
      const calls = limiting.requests.filter((q) => isExtraction(q.info));
      // retried at once, the 429 used up both retries within milliseconds and the run failed (exit 4)
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000);
    } finally {
      await limiting.close();
    }
    const hour = await startOpenAIServer({ script: () => ({ status: 429, headers: { "retry-after": "3600" }, message: "come back later" }) });
    try {
      const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { kind: "openai", model: "judge-model", baseUrl: hour.baseURL, maxRetries: 3, concurrency: 1 }, cacheDir: "cache" });
      const started = Date.now();
      const r = await runCliCaptured(["judge", "--config", config, "--no-progress"], NO_KEY);
      expect(r.code, r.err).toBe(4);
      expect(r.err).toContain("the endpoint asks to wait 1 hour before the next call, longer than the 60 s a run waits: rerun later");
      expect(Date.now() - started).toBeLessThan(10_000);
      // one call in all: the first refusal stops the other answers before they ask
      expect(hour.requests.length).toBe(1);
    } finally {
      await hour.close();
    }
  }, 30_000);

  it("keeps the sentence splitter for the baseline judge, with the claims rubric named", async () => {
    const config = fixture({ faithfulnessUnit: "claim", rubrics: ["faithfulness", "claims"], judge: { kind: "baseline" } });
    const lines: string[] = [];
    const run = await runEvaluation({ config, cacheDir: join(config, "..", "cache"), log: (l) => lines.push(l) });
    const js = judgmentsOf(run.folder).filter((j) => j.rubric === "faithfulness" && j.question === "en" && j.unit !== "answer");
    expect(js.map((j) => j.claim)).toEqual(["Casual leave lapses on 31 December.", "You get 40 days of casual leave a year."]);
    expect(lines.join("")).toContain("claims: the baseline judge has no model to extract claims");
  });
});
