import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli/program.js";
import { OUTAGE_HINT } from "../../../src/judge/transport/client.js";
import { MAIN_JUDGE_KNOBS } from "../../../src/judge/transport/knobs.js";

/** The long option names a command accepts. */
function optionsOf(name: string): string[] {
  const command = buildProgram().commands.find((c) => c.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.options.map((o) => o.long!).filter(Boolean);
}

// The outage message (and the main judge's other hints) are printed by whichever command judged: a flag they name must work there, pasted as printed.
describe("the judge-outage hint", () => {
  const k = MAIN_JUDGE_KNOBS;
  const flags = [OUTAGE_HINT, k.timeout, k.endpoint, k.concurrency].flatMap((t) => t.match(/--[a-z][a-z-]*/g) ?? []);

  it("names a flag", () => {
    expect(flags).toContain("--timeout-ms");
  });

  it.each(["judge", "run"])("names only flags that ragjudge %s accepts", (command) => {
    const accepted = optionsOf(command);
    for (const f of flags) expect(accepted, `${command} lacks ${f}`).toContain(f);
  });

  // `run` has no --response-format nor --no-temperature, --no-seed, --no-max-tokens (yet): these hints hold for `judge`.
  it("names in its request-parameter hints only flags that ragjudge judge accepts", () => {
    const named = [k.textMode, k.omit("temperature"), k.omit("seed"), k.omit("maxTokens")].flatMap((t) => t.match(/--[a-z][a-z-]*/g) ?? []);
    expect(named).toHaveLength(4);
    for (const f of named) expect(optionsOf("judge"), f).toContain(f);
  });

  it("run takes the judge's deadline and retry options", () => {
    expect(optionsOf("run")).toEqual(expect.arrayContaining(["--timeout-ms", "--max-retries"]));
  });
});
