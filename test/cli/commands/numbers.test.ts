import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseNumber } from "../../../src/cli/commands/numbers.js";
import { UsageError } from "../../../src/cli/errors.js";
import { BOUNDS, type BoundName, type NumberBounds } from "../../../src/golden/bounds.js";
import { RagjudgeConfig } from "../../../src/golden/schema/config.js";
import { OpenAIJudgeConfig } from "../../../src/golden/schema/judge-config.js";
import { NO_KEY, runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { exampleCopy } from "../../report/helpers.js";

/** Whether the config accepts `v` at the key a bound names. */
function configAccepts(key: string, v: number): boolean {
  const base = { golden: "g.jsonl", variants: [{ name: "v", output: "o.jsonl" }] };
  if (key.startsWith("judge.")) return OpenAIJudgeConfig.safeParse({ kind: "openai", model: "m", [key.slice("judge.".length)]: v }).success;
  if (key === "k") return RagjudgeConfig.safeParse({ ...base, k: [v] }).success;
  if (key === "poolDepth") return RagjudgeConfig.safeParse({ ...base, poolDepth: v }).success;
  if (key === "variants[].contextK") return RagjudgeConfig.safeParse({ ...base, variants: [{ ...base.variants[0], contextK: v }] }).success;
  throw new Error(`no check for config key ${key}`);
}

function flagAccepts(name: BoundName, text: string): boolean {
  try {
    parseNumber("--x", text, name);
    return true;
  } catch (e) {
    if (e instanceof UsageError) return false;
    throw e;
  }
}

/** Values at and around a bound's edges. */
function edges(b: NumberBounds): number[] {
  const step = b.integer ? 1 : 0.5;
  return [b.min - step, b.min, b.min + 0.5, b.max, b.max + step, b.max + 1];
}

describe("a flag and its config key accept and refuse the same values", () => {
  const keyed = (Object.entries(BOUNDS) as [BoundName, NumberBounds][]).filter(([, b]) => b.config !== undefined);

  it("covers the judge's numbers, the cutoffs, the pool depth and the context size", () => {
    expect(keyed.map(([, b]) => b.config).sort()).toEqual(["judge.concurrency", "judge.maxRetries", "judge.maxTokens", "judge.repeats", "judge.seed", "judge.temperature", "judge.timeoutMs", "k", "poolDepth", "variants[].contextK"]);
  });

  for (const [name, b] of keyed) {
    it(`${b.flags.join(", ")} and ${b.config}`, () => {
      for (const v of edges(b)) expect(flagAccepts(name, String(v)), `${b.flags[0]} ${v}`).toBe(configAccepts(b.config!, v));
    });
  }
});

describe("parseNumber", () => {
  it("names the flag and the values allowed, and why the largest is the largest when it is passed", () => {
    expect(() => parseNumber("--reps", "5x", "bootstrapReps")).toThrow('--reps: expected a whole number from 100 to 100,000, got "5x"');
    expect(() => parseNumber("--timeout-ms", "2147483648", "timeoutMs")).toThrow(/^--timeout-ms: expected a whole number from 1 to 2,147,483,647, got "2147483648" \(Node's longest timer/);
    expect(parseNumber("--temperature", "0.7", "temperature")).toBe(0.7);
  });
});

describe("every command reads a number flag the same way", () => {
  const trec = () => {
    const dir = tempDir("ragjudge-numbers-");
    const q = join(dir, "qrels.txt");
    const r = join(dir, "run.txt");
    writeFileSync(q, "1 0 a 3\n1 0 b 1\n");
    writeFileSync(r, "1 Q0 a 1 2.5 tag\n1 Q0 b 2 1.5 tag\n");
    return ["retrieval", "--qrels", q, "--trec-run", r];
  };

  it("white space around a number is taken by -l as by -k (-l refused it)", async () => {
    const base = trec();
    const k = await runCliCaptured([...base, "-k", " 3"]);
    expect(k.code, k.err).toBe(0);
    const l = await runCliCaptured([...base, "-l", " 3"]);
    expect(l.code, l.err).toBe(0);
    expect(l.out).toContain("evaluated at relevance level 3");
  });

  it("an exponent is refused by --timeout-ms as by -k (--timeout-ms took 1e3)", async () => {
    const k = await runCliCaptured([...trec(), "-k", "1e3"]);
    expect(k.code).toBe(2);
    const t = await runCliCaptured(["judge", "--judge", "openai", "--model", "m", "--dry-run", "--timeout-ms", "1e3", "--config", exampleCopy().config], NO_KEY);
    expect(t.code).toBe(2);
    expect(t.err).toBe('ragjudge: error: --timeout-ms: expected a whole number from 1 to 2,147,483,647, got "1e3"\n');
  });

  it.each([["compare", "--variants", "a,b"], ["calibrate"], ["plan"]])("%s --reps beyond 100,000 is refused before anything is read (it ran for ever)", async (...command) => {
    const ex = exampleCopy();
    const r = await runCliCaptured([...command, "--reps", "99999999999", "--config", ex.config]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ragjudge: error: --reps: expected a whole number from \d+ to 100,000, got "99999999999" \(the time grows/);
    expect(r.out).toBe("");
  });

  it("batch collect --poll-interval past a day is refused (a timer past Node's limit fires at once: polls without a pause)", async () => {
    const r = await runCliCaptured(["batch", "collect", "--wait", "--poll-interval", "3000000", "--config", exampleCopy().config], NO_KEY);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ragjudge: error: --poll-interval: expected a number from 0 to 86,400, got "3000000"/);
  });
});
