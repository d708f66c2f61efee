import { hashJson } from "../../golden/hash.js";
import type { Judge } from "./judge.js";

/**
 * A judge that gives every item the same verdict: the reference point of a
 * panel (a judge that says yes to everything has kappa 0 against any labels
 * and a TPR of 1, so a panel shows what a real judge adds over it), and an
 * offline member for example panels. Never a judge to trust.
 */
export function constantJudge(verdict: "yes" | "no"): Judge {
  const fp = hashJson({ judge: "ragjudge-constant", version: 1, verdict });
  return {
    name: "ragjudge-constant",
    kind: "baseline",
    label: `constant "${verdict}" (the same verdict for every item: a reference point, not a judge)`,
    covers: ["the constant verdict"],
    cached: false,
    repeatable: false,
    maxConcurrency: 1,
    fingerprint: () => fp,
    template: (rubric) => ({ judge: "ragjudge-constant", version: 1, verdict, rubric: rubric.name }),
    judge: async () => ({ verdict, reason: `always ${verdict}`, fingerprint: fp }),
  };
}
