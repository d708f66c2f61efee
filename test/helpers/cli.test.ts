import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NO_KEY, runCliCaptured } from "./cli.js";
import { fixturePath } from "./paths.js";

const config = fixturePath("retrieval", "ragjudge.config.json");
const judgeConfig = fixturePath("judge", "ragjudge.config.json");

describe("runCliCaptured", () => {
  const saved = { key: process.env.OPENAI_API_KEY, probe: process.env.RAGJUDGE_HELPER_PROBE };
  afterEach(() => {
    for (const [k, v] of [["OPENAI_API_KEY", saved.key], ["RAGJUDGE_HELPER_PROBE", saved.probe]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("returns the exit status with stdout and stderr apart, and puts the streams back", async () => {
    const write = process.stdout.write;
    const writeErr = process.stderr.write;
    const ok = await runCliCaptured(["validate", "--config", config]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("ok: variant bm25:");
    expect(ok.err).toBe("");
    const fx = fixturePath("retrieval");
    const bad = await runCliCaptured(["validate", "--golden", join(fx, "nope.jsonl"), "--chunks", join(fx, "chunks.jsonl"), "--output", join(fx, "bm25.output.jsonl")]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toMatch(/nope\.jsonl: file not found/);
    expect(process.stdout.write).toBe(write);
    expect(process.stderr.write).toBe(writeErr);
  });

  it("resets process.exitCode that a failing command set", async () => {
    const r = await runCliCaptured(["retrieval", "--config", config, "-m", "RR", "--fail-under", "RR=0.99"]);
    expect(r.code).toBe(1);
    expect(process.exitCode).toBeUndefined();
  });

  it("applies environment overrides for the run only: removed and set variables get their old values back", async () => {
    process.env.OPENAI_API_KEY = "sk-helper-test";
    process.env.RAGJUDGE_HELPER_PROBE = "before";
    // With the key removed the judge cannot be set up: the override reached the run.
    const r = await runCliCaptured(["judge", "--config", judgeConfig, "--no-progress"], { ...NO_KEY, RAGJUDGE_HELPER_PROBE: "during" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("no judge configured");
    expect(process.env.OPENAI_API_KEY).toBe("sk-helper-test");
    expect(process.env.RAGJUDGE_HELPER_PROBE).toBe("before");
    delete process.env.RAGJUDGE_HELPER_PROBE;
    await runCliCaptured(["validate", "--config", config], { RAGJUDGE_HELPER_PROBE: "during" });
    expect("RAGJUDGE_HELPER_PROBE" in process.env).toBe(false);
  });
});
