import { describe, expect, it } from "vitest";
import { reviewNext } from "../../../src/cli/actions/sample.js";
import type { ResolvedConfig } from "../../../src/golden/config.js";

/** A config whose labels folder is a project's own ("labels" beside it), shipped example or not. */
const cfg = (isShippedExample: boolean) => ({ isShippedExample, path: (p: string) => `/project/${p}`, config: { labels: "labels" } }) as Pick<ResolvedConfig, "isShippedExample" | "path" | "config">;

describe("reviewNext", () => {
  it("prints the review command for the queue sample wrote, each argument quoted for a shell only when it needs it", () => {
    expect(reviewNext({ annotator: "asha", config: "ragjudge.config.json" }, "/tmp/q.jsonl", undefined, cfg(false))).toBe("ragjudge review --annotator asha --config ragjudge.config.json");
    expect(reviewNext({ annotator: "Asha K", example: true, labels: "my labels", out: "q.jsonl" }, "q.jsonl", "evaluations/x y/judgments.jsonl", cfg(true))).toBe(
      "ragjudge review q.jsonl --annotator 'Asha K' --example --labels 'my labels' --judgments 'evaluations/x y/judgments.jsonl'",
    );
  });
});
