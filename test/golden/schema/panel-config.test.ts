import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { parseConfigText } from "../../../src/golden/config.js";
import { InputErrors } from "../../../src/golden/errors.js";

const base = (judges: unknown[]) => JSON.stringify({ golden: "q.jsonl", variants: [{ name: "v", output: "o.jsonl" }], judges }, null, 1);

function problems(text: string): string[] {
  try {
    parseConfigText(text, "ragjudge.config.json");
    return [];
  } catch (e) {
    if (e instanceof InputErrors) return e.problems.map((x) => x.message);
    throw e;
  }
}

describe("the config's judges (a panel)", () => {
  it("accepts leaves and combined judges beside or without `judge`", () => {
    const { config } = parseConfigText(base([
      { name: "small", kind: "openai", model: "m-small", baseUrl: "http://127.0.0.1:8000/v1", price: { input: 0.1, output: 0.4 } },
      { name: "lexical", kind: "baseline" },
      { name: "yes", kind: "constant", verdict: "yes" },
      { name: "vote", kind: "majority", members: ["small", "lexical", "yes"] },
      { name: "strict", kind: "unanimous", members: ["small", "lexical"] },
      { name: "cheap-first", kind: "cascade", first: "lexical", then: "small" },
    ]), "ragjudge.config.json");
    expect(config.judges).toHaveLength(6);
    expect(config.judges![5]).toMatchObject({ confidence: 0.8, sample: 0 });
  });

  it("refuses a duplicate name, an unknown member, a self-member and a cycle, each at its file:line", () => {
    const dup = problems(base([{ name: "a", kind: "baseline" }, { name: "a", kind: "constant", verdict: "yes" }]));
    expect(dup).toHaveLength(1);
    expect(dup[0]).toMatch(/^ragjudge\.config\.json:\d+: judges\[1\]\.name: duplicate judge name "a" \(also judges\[0\]\)/);
    expect(problems(base([{ name: "a", kind: "baseline" }, { name: "m", kind: "majority", members: ["a", "b"] }]))[0]).toMatch(/:\d+: .*no judge named "b"/);
    expect(problems(base([{ name: "a", kind: "baseline" }, { name: "m", kind: "unanimous", members: ["a", "m"] }]))[0]).toMatch(/cannot be its own member/);
    const cyc = problems(base([{ name: "a", kind: "baseline" }, { name: "x", kind: "majority", members: ["a", "y"] }, { name: "y", kind: "majority", members: ["a", "x"] }]));
    expect(cyc.join("\n")).toMatch(/judges form a cycle: x → y → x/);
    expect(problems(base([{ name: "c", kind: "cascade", first: "a", then: "a", confidence: 0.3 }])).join("\n")).toMatch(/confidence/);
  });

  it("a duplicate judge name stops ragjudge run with exit 2 and one file:line line", async () => {
    const dir = tempDir();
    const file = join(dir, "ragjudge.config.json");
    writeFileSync(file, base([{ name: "a", kind: "baseline" }, { name: "a", kind: "constant", verdict: "yes" }]));
    const r = await runCliCaptured(["run", "--config", file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/ragjudge\.config\.json:\d+: judges\[1\]\.name: duplicate judge name "a"/);
  });
});
