/**
 * A rubric file edited after its judge was calibrated, tried as an adversary
 * would: the trust of a calibration belongs to the exact request the judge
 * was sent (its fingerprint), so an edit that leaves the request as it was
 * (a comment, the order of the keys) keeps the calibration, and any edit
 * that reaches the model (here one word of the rubric's question) is another
 * judge, untrusted until calibrated. Calibrating it again on the labels of
 * the old question must not make it trusted: they answered another question
 * (each label records the wording it answered), even where the new judge's
 * verdicts agree with them all. Through the LLM judge against the local
 * OpenAI-compatible test server.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../../src/golden/hash.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { labelRandomDraw } from "../../helpers/labelling.js";
import { exampleCopy } from "../../report/helpers.js";
import { startOpenAIServer, type TestServer } from "../../server/openai-server.js";

// The verdict follows the evidence, not the rubric's question: a judge asked the edited question agrees with every old label.
const verdictOf = (user: string) => (Number.parseInt(sha256(user.replace(/^Question to decide: .*$/m, "")).slice(0, 8), 16) % 3 === 0 ? "no" : "yes");

describe("a rubric edited after calibration", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startOpenAIServer({ script: (r) => ({ verdict: verdictOf(r.user), reason: "scripted" }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps its calibration through a comment and reordered keys, and loses it to one word of the question, even calibrated again on the old labels", async () => {
    const copy = exampleCopy((c) => {
      c.judge = { kind: "openai", model: "judge-model", baseUrl: server.baseURL, concurrency: 4 };
      c.trust = { minLabels: 20, minPerClass: 3 };
      c.rubrics = ["correctness"];
    });
    const judgments = join(copy.dir, "j.jsonl");
    const judge = () => runCliCaptured(["judge", "--config", copy.config, "--out", judgments, "--cache-dir", join(copy.dir, "cache"), "--no-progress", "--by", "none"]);
    expect((await judge()).code).toBe(0);
    await labelRandomDraw({ config: copy.config, dir: copy.dir, judgments, labels: copy.labels, rubrics: "correctness", split: "heldout" });
    expect((await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", judgments])).code).toBe(0);
    const line = (out: string) => /correctness {2}\[LLM judge judge-model[^\]]*fingerprint ([0-9a-f]{12})\]\n {2}([^\n]*)/.exec(out);
    const before = line((await judge()).out);
    expect(before?.[2]).toMatch(/^TRUSTED: kappa 1\.00/);

    // A comment and the keys in another order: the same request, the same judge, still trusted.
    const file = join(copy.dir, "rubrics", "correctness.yaml");
    const text = readFileSync(file, "utf8");
    const description = /^description: >\n(?: {2}.*\n)+/m.exec(text)![0];
    writeFileSync(file, `# reviewed 2026-12: wording kept\n${text.replace(description, "").replace(/^version: 1\n/m, "")}version: 1\n${description}`);
    const reordered = line((await judge()).out);
    expect(reordered?.[1]).toBe(before![1]);
    expect(reordered?.[2]).toMatch(/^TRUSTED: kappa 1\.00/);
    // calibrated again, every label still answers the question as worded
    const recalibrated = await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", judgments]);
    expect(recalibrated.out).toMatch(/correctness · [^\n]*\n {2}TRUSTED kappa 1\.00/);
    expect(recalibrated.out).not.toContain("earlier wording");

    // One word of the question changes its meaning: another request, another judge, which nobody calibrated.
    writeFileSync(file, readFileSync(file, "utf8").replace("without contradicting it?", "even if it contradicts it?"));
    const edited = line((await judge()).out);
    expect(edited?.[1]).not.toBe(before![1]);
    expect(edited?.[2]).toMatch(/^UNTRUSTED: no calibration record for this judge; 1 record\(s\) exist for other fingerprints of correctness \(prompt or model changed\), not used/);
    const run = await runCliCaptured(["run", "--config", copy.config, "--cache-dir", join(copy.dir, "cache"), "--require-trusted", "--quiet"]);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/untrusted rubric under --require-trusted: correctness/);

    // The new judge agrees with every old label, and calibrate is run again on them: they answered another question, so it stays untrusted.
    const again = await runCliCaptured(["calibrate", "--config", copy.config, "--judgments", judgments]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/correctness · [^\n]*\n {2}UNTRUSTED [^\n]*\d+ labelled items of correctness answered an earlier wording of its question; their labels do not count \(label them again: ragjudge sample draws them again, ragjudge review asks today's question\)/);
    const after = line((await judge()).out);
    expect(after?.[1]).toBe(edited![1]);
    expect(after?.[2]).toMatch(/^UNTRUSTED: .*answered an earlier wording of its question/);
    const runAgain = await runCliCaptured(["run", "--config", copy.config, "--cache-dir", join(copy.dir, "cache"), "--require-trusted", "--quiet"]);
    expect(runAgain.code).toBe(1);
    expect(runAgain.err).toMatch(/untrusted rubric under --require-trusted: correctness/);
  }, 60_000);
});
