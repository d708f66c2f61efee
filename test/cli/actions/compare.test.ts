import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../../src/cli/errors.js";
import { runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";

describe("ragjudge compare --evaluations-dir", () => {
  const dir = tempDir("ragjudge-compare-dir-");

  it("names a folder that is not there as the flag's, rather than one with no evaluation in it", async () => {
    const r = await runCliCaptured(["compare", "--variants", "a,b", "--evaluations-dir", join(dir, "nope")]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toMatch(/nope: evaluations folder not found \(--evaluations-dir\)/);
  });

  it("asks for a run that writes where compare looks: the same --evaluations-dir (a bare `ragjudge run` wrote elsewhere)", async () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    const r = await runCliCaptured(["compare", "--variants", "a,b", "--evaluations-dir", empty]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.err).toContain(`no evaluation in ${empty}: run \`ragjudge run --evaluations-dir ${empty}\` first`);
  });
});
