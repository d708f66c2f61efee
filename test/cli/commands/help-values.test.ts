import { describe, expect, it } from "vitest";
import { DEFAULT_REPS, DEFAULT_SEED } from "../../../src/calibration/stats/bootstrap.js";
import { BATCH_LIMITS } from "../../../src/judge/batch/format.js";
import { Frame, Provenance } from "../../../src/golden/schema/items.js";
import { BATCH_LIMITS_SHOWN, BOOTSTRAP_SHOWN, FRAMES_SHOWN, PROVENANCES_SHOWN } from "../../../src/cli/commands/help-values.js";

// The command definitions show copies of these values (so start-up loads none of their modules); a change at the source must reach the copy.
describe("values shown in --help", () => {
  it("equal their sources", () => {
    expect(BATCH_LIMITS_SHOWN).toEqual(BATCH_LIMITS);
    expect([...PROVENANCES_SHOWN]).toEqual(Provenance.options);
    expect([...FRAMES_SHOWN]).toEqual(Frame.options);
    expect(BOOTSTRAP_SHOWN).toEqual({ seed: DEFAULT_SEED, reps: DEFAULT_REPS });
  });
});
