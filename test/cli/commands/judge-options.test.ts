import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli/program.js";
import { OUTAGE_HINT } from "../../../src/judge/transport/client.js";

/** The long option names a command accepts. */
function optionsOf(name: string): string[] {
  const command = buildProgram().commands.find((c) => c.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.options.map((o) => o.long!).filter(Boolean);
}

// The outage message is printed by whichever command judged: a flag it names must work there, pasted as printed.
describe("the judge-outage hint", () => {
  const flags = OUTAGE_HINT.match(/--[a-z][a-z-]*/g) ?? [];

  it("names a flag", () => {
    expect(flags).toContain("--timeout-ms");
  });

  it.each(["judge", "run"])("names only flags that ragjudge %s accepts", (command) => {
    const accepted = optionsOf(command);
    for (const f of flags) expect(accepted, `${command} lacks ${f}`).toContain(f);
  });

  it("run takes the judge's deadline and retry options", () => {
    expect(optionsOf("run")).toEqual(expect.arrayContaining(["--timeout-ms", "--max-retries"]));
  });
});
