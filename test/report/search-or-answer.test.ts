import { describe, expect, it } from "vitest";
import { classify, crossTab, diagnosis } from "../../src/report/search-or-answer.js";
import type { GoldenQuestion } from "../../src/golden/schema/golden.js";
import type { Verdict } from "../../src/golden/schema/items.js";

function q(id: string, answerable = true, kind = "factual", tags: string[] = []): GoldenQuestion {
  return { id, question: id, answerable, kind, tags, relevant: answerable ? ["c"] : undefined } as GoldenQuestion;
}
const v = (o: Record<string, Verdict>) => new Map(Object.entries(o));

describe("classify", () => {
  it("separates retrieval from generation failures", () => {
    expect(classify({ question: q("a"), relevantInContext: false, verdicts: v({ correctness: "no", faithfulness: "yes" }) }).outcome).toBe("retrieval-failure");
    expect(classify({ question: q("b"), relevantInContext: true, verdicts: v({ correctness: "no", faithfulness: "yes" }) }).outcome).toBe("generation-failure");
    expect(classify({ question: q("c"), relevantInContext: true, verdicts: v({ correctness: "yes", faithfulness: "no" }) }).outcome).toBe("generation-failure");
    expect(classify({ question: q("d"), relevantInContext: true, verdicts: v({ correctness: "yes", faithfulness: "yes" }) }).outcome).toBe("ok");
    expect(classify({ question: q("e"), relevantInContext: false, verdicts: v({ correctness: "yes", faithfulness: "yes" }) }).outcome).toBe("ok-without-retrieval");
  });

  it("never guesses from an error or a missing verdict", () => {
    expect(classify({ question: q("a"), relevantInContext: true, verdicts: v({ correctness: "error", faithfulness: "yes" }) }).outcome).toBe("unjudged");
    expect(classify({ question: q("a"), relevantInContext: true, verdicts: v({ correctness: "yes" }) }).outcome).toBe("unjudged");
  });

  it("a no on one rubric fails the answer even when another errored", () => {
    expect(classify({ question: q("a"), relevantInContext: true, verdicts: v({ correctness: "error", faithfulness: "no" }) }).outcome).toBe("generation-failure");
  });

  it("classifies unanswerable questions by their not-found outcome", () => {
    expect(classify({ question: q("u", false), relevantInContext: false, verdicts: v({ "not-found": "yes" }) }).outcome).toBe("correct-not-found");
    expect(classify({ question: q("u", false), relevantInContext: false, verdicts: v({ "not-found": "no" }) }).outcome).toBe("invented-answer");
    expect(classify({ question: q("u", false), relevantInContext: false, verdicts: v({}) }).outcome).toBe("unjudged");
  });
});

describe("crossTab and diagnosis", () => {
  it("counts overall, by kind and by tag, and names the half to fix", () => {
    const outcomes = [
      classify({ question: q("a", true, "conceptual", ["hr"]), relevantInContext: false, verdicts: v({ correctness: "no", faithfulness: "yes" }) }),
      classify({ question: q("b", true, "conceptual", ["hr"]), relevantInContext: false, verdicts: v({ correctness: "no", faithfulness: "no" }) }),
      classify({ question: q("c", true, "lexical", ["it"]), relevantInContext: true, verdicts: v({ correctness: "no", faithfulness: "yes" }) }),
      classify({ question: q("u", false, "unanswerable"), relevantInContext: false, verdicts: v({ "not-found": "no" }) }),
    ];
    const tab = crossTab(outcomes);
    expect(tab.overall.n).toBe(4);
    expect(tab.overall.counts["retrieval-failure"]).toBe(2);
    expect(tab.byKind.get("conceptual")!.counts["retrieval-failure"]).toBe(2);
    expect(tab.byTag.get("it")!.counts["generation-failure"]).toBe(1);
    expect([...tab.byKind.keys()]).toEqual(["conceptual", "lexical", "unanswerable"]);
    expect(diagnosis(tab.overall)).toBe(
      "3 failed answers: 2 retrieval failures (the relevant chunk never reached the context), 1 generation failure (it did); fix search first. 1 unanswerable question got an invented answer.",
    );
  });
});
