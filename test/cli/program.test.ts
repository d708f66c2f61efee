import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli/errors.js";
import { runCliCaptured } from "../helpers/cli.js";

describe("required options", () => {
  it("names a mistyped flag, with its suggestion, rather than the required option it left out", async () => {
    const r = await runCliCaptured(["sample", "--random", "10", "--split", "heldout", "--anotator", "asha"]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("ragjudge: error: unknown option '--anotator'");
    expect(r.err).toContain("(Did you mean --annotator?)");
    expect(r.err).not.toContain("required option");
  });

  it("still refuses a required option left out, with commander's message, before the command runs", async () => {
    const r = await runCliCaptured(["sample", "--random", "10"]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain("ragjudge: error: required option '--annotator <name>' not specified");
    expect(r.err).toContain("(run with --help for usage)");
    const nested = await runCliCaptured(["labels", "export"]);
    expect(nested.code).toBe(EXIT.badInput);
    expect(nested.err).toContain("required option '--out <file>' not specified");
  });
});
