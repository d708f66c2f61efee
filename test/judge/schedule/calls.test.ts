import { describe, expect, it } from "vitest";
import { planCalls } from "../../../src/judge/schedule/calls.js";
import type { Item } from "../../../src/judge/items/items.js";
import type { Rubric } from "../../../src/judge/rubric/rubric.js";
import { fixtureInputs } from "../helpers.js";

const rubricA = { name: "a" } as Rubric;
const rubricB = { name: "b" } as Rubric;

function item(question: string, rubric: Rubric, inputHash: string, rule = false): Item {
  return {
    key: { variant: "v", question, rubric: rubric.name, unit: "answer" },
    rubric,
    evidence: { question },
    inputHash,
    ...(rule ? { rule: { verdict: "no" as const, rule: "no-answer" as const, reason: "r" } } : {}),
  };
}

describe("planCalls", () => {
  it("shares a call between items with identical evidence under one rubric, per repeat, never across rubrics", () => {
    const items = [item("q1", rubricA, "h1"), item("q2", rubricA, "h1"), item("q3", rubricB, "h1"), item("q4", rubricA, "h2", true), item("q5", rubricA, "h2")];
    const plan = planCalls(items, 2);
    expect(plan.slots).toBe(4 * 2 + 1);
    expect(plan.rules).toEqual([{ index: 6, item: items[3] }]);
    expect(plan.calls.map((c) => [c.item.key.question, c.repeat, c.slots.map((s) => s.index)])).toEqual([
      ["q1", 0, [0, 2]],
      ["q1", 1, [1, 3]],
      ["q3", 0, [4]],
      ["q3", 1, [5]],
      ["q5", 0, [7]],
      ["q5", 1, [8]],
    ]);
  });

  it("numbers every verdict slot of the fixture exactly once", () => {
    const { items } = fixtureInputs(["anchor-ambiguity", "citation-accuracy", "correctness", "faithfulness", "not-found"]).itemSet;
    const plan = planCalls(items, 3);
    const indices = [...plan.rules, ...plan.calls.flatMap((c) => c.slots)].map((s) => s.index).sort((x, y) => x - y);
    expect(indices).toEqual(Array.from({ length: plan.slots }, (_, i) => i));
    expect(plan.slots).toBe(items.filter((i) => i.rule).length + 3 * items.filter((i) => !i.rule).length);
  });
});
