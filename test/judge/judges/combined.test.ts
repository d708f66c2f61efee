import { describe, expect, it } from "vitest";
import { hashJson } from "../../../src/golden/hash.js";
import type { Evidence } from "../../../src/golden/schema/items.js";
import { cascadeEscalation, combinedJudge, inCascadeSample } from "../../../src/judge/judges/combined.js";
import { constantJudge } from "../../../src/judge/judges/constant.js";
import type { Judge, JudgeOutcome } from "../../../src/judge/judges/judge.js";
import { rubric } from "../helpers.js";

/** A scripted judge: its verdict (and pYes) by the evidence's question text. */
function scripted(name: string, answer: (e: Evidence) => Partial<JudgeOutcome>, usage = { prompt: 100, completion: 10 }): Judge & { calls: number } {
  const j = {
    name, kind: "llm" as const, label: name, covers: ["x"], cached: false, repeatable: false, maxConcurrency: Infinity, calls: 0,
    fingerprint: () => `fp-${name}`, template: () => ({ name }),
    async judge(_r: unknown, e: Evidence): Promise<JudgeOutcome> {
      j.calls++;
      return { verdict: "yes", reason: name, fingerprint: `fp-${name}`, usage, ...answer(e) };
    },
  };
  return j;
}

const ev = (q: string): Evidence => ({ question: q } as unknown as Evidence);
const faith = rubric("faithfulness");

describe("combined judges", () => {
  it("majority and unanimous vote over their members; a tie or a member error is an error verdict, not a guess", async () => {
    const yes = constantJudge("yes");
    const no = constantJudge("no");
    const maj = combinedJudge({ kind: "majority" }, [{ name: "a", judge: yes }, { name: "b", judge: yes }, { name: "c", judge: no }]);
    expect((await maj.judge(faith, ev("q"))).verdict).toBe("yes");
    const tie = combinedJudge({ kind: "majority" }, [{ name: "a", judge: yes }, { name: "b", judge: no }]);
    const t = await tie.judge(faith, ev("q"));
    expect(t.verdict).toBe("error");
    expect(t.error).toMatch(/^no-majority: 1 yes, 1 no/);
    const una = combinedJudge({ kind: "unanimous" }, [{ name: "a", judge: yes }, { name: "c", judge: no }]);
    expect((await una.judge(faith, ev("q"))).verdict).toBe("no");
    const err = scripted("e", () => ({ verdict: "error", error: "timeout" }));
    const u2 = combinedJudge({ kind: "unanimous" }, [{ name: "a", judge: yes }, { name: "e", judge: err }]);
    expect((await u2.judge(faith, ev("q"))).verdict).toBe("error");
    expect(maj.usedMembers(faith.name, hashJson(ev("q")))).toEqual(["a", "b", "c"]);
  });

  it("has a fingerprint derived from its rule and its members' fingerprints", () => {
    const a = scripted("a", () => ({}));
    const b = scripted("b", () => ({}));
    const c = scripted("c", () => ({}));
    const fp = (rule: Parameters<typeof combinedJudge>[0], ms: Judge[]) => combinedJudge(rule, ms.map((judge, i) => ({ name: `m${i}`, judge }))).fingerprint(faith);
    const base = fp({ kind: "majority" }, [a, b, c]);
    expect(fp({ kind: "majority" }, [a, b, c])).toBe(base);
    expect(fp({ kind: "unanimous" }, [a, b, c])).not.toBe(base);
    expect(fp({ kind: "majority" }, [a, b, b])).not.toBe(base);
    expect(fp({ kind: "cascade", confidence: 0.8, sample: 0 }, [a, b])).not.toBe(fp({ kind: "cascade", confidence: 0.9, sample: 0 }, [a, b]));
  });

  it("a cascade escalates on low confidence, on an error and on its sample, and calls the strong judge only then", async () => {
    const cheap = scripted("cheap", (e) => {
      const q = (e as unknown as { question: string }).question;
      return q.startsWith("unsure") ? { verdict: "yes", pYes: 0.6 } : q.startsWith("broken") ? { verdict: "error", error: "timeout" } : { verdict: "yes", pYes: 0.97 };
    });
    const strong = scripted("strong", () => ({ verdict: "no" }));
    const c = combinedJudge({ kind: "cascade", confidence: 0.8, sample: 0 }, [{ name: "cheap", judge: cheap }, { name: "strong", judge: strong }]);
    const sure = await c.judge(faith, ev("sure"));
    expect(sure.verdict).toBe("yes");
    expect(strong.calls).toBe(0);
    const unsure = await c.judge(faith, ev("unsure"));
    expect(unsure).toMatchObject({ verdict: "no", usage: { prompt: 200, completion: 20 } });
    expect(unsure.reason).toMatch(/^escalated to strong, cheap uncertain \(pYes 0\.60\)/);
    expect((await c.judge(faith, ev("broken"))).verdict).toBe("no");
    expect(strong.calls).toBe(2);
    expect(c.escalation(faith.name, hashJson(ev("unsure")))).toBe("uncertain");
    expect(c.escalation(faith.name, hashJson(ev("broken")))).toBe("error");
    expect(c.usedMembers(faith.name, hashJson(ev("sure")))).toEqual(["cheap"]);
  });

  it("samples a stable share of items", () => {
    const hashes = Array.from({ length: 2000 }, (_, i) => hashJson({ i }));
    const share = hashes.filter((h) => inCascadeSample("faithfulness", h, 0.2)).length / hashes.length;
    expect(share).toBeGreaterThan(0.17);
    expect(share).toBeLessThan(0.23);
    expect(hashes.filter((h) => inCascadeSample("faithfulness", h, 0.2))).toEqual(hashes.filter((h) => inCascadeSample("faithfulness", h, 0.2)));
    expect(cascadeEscalation({ verdict: "no", pYes: 0.1 }, { confidence: 0.8, sample: 0 }, "f", hashes[0]!)).toBeUndefined();
    expect(cascadeEscalation({ verdict: "no" }, { confidence: 0.8, sample: 0 }, "f", hashes[0]!)).toBeUndefined();
  });
});
