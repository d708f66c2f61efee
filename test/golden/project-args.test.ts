import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeFirst, projectArgs, shellArg } from "../../src/golden/project-args.js";

describe("projectArgs and judgeFirst", () => {
  it("names the example by --example and any other project by its config, as typed from here", () => {
    expect(projectArgs({ isShippedExample: true, file: "/pkg/ragjudge.config.json" })).toEqual(["--example"]);
    expect(projectArgs({ isShippedExample: false, file: join(process.cwd(), "eval", "ragjudge.config.json") })).toEqual(["--config", join("eval", "ragjudge.config.json")]);
    expect(projectArgs({ isShippedExample: false, file: "/elsewhere/ragjudge.config.json" })).toEqual(["--config", "/elsewhere/ragjudge.config.json"]);
  });

  it("quotes a config path a shell would split", () => {
    expect(judgeFirst({ isShippedExample: false, file: "/my evals/it's.json" })).toBe("run `ragjudge run --config '/my evals/it'\\''s.json'` (or `ragjudge judge --config '/my evals/it'\\''s.json'`) first");
    expect(shellArg("plain/path.json")).toBe("plain/path.json");
  });
});
