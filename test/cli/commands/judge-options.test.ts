import { describe, expect, it } from "vitest";
import { buildProgram } from "../../../src/cli/program.js";
import { OUTAGE_HINT } from "../../../src/judge/transport/client.js";
import { MAIN_JUDGE_KNOBS } from "../../../src/judge/transport/knobs.js";
import { NO_KEY, runCliCaptured } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp.js";
import { exampleCopy } from "../../report/helpers.js";
import { startOpenAIServer } from "../../server/openai-server.js";

/** The long option names a command accepts. */
function optionsOf(name: string): string[] {
  const command = buildProgram().commands.find((c) => c.name() === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.options.map((o) => o.long!).filter(Boolean);
}

// The messages that stop the main judge are printed by whichever command judged: a flag they name must work there, pasted as printed.
describe("the main judge's hints", () => {
  const k = MAIN_JUDGE_KNOBS;
  const texts = [OUTAGE_HINT, k.timeout, k.endpoint, k.concurrency, k.textMode, k.omit("temperature"), k.omit("seed"), k.omit("maxTokens")];
  const flags = texts.flatMap((t) => t.match(/--[a-z][a-z-]*/g) ?? []);

  it("name flags", () => {
    expect(flags).toEqual(expect.arrayContaining(["--timeout-ms", "--base-url", "--response-format", "--no-seed"]));
  });

  it.each(["judge", "run"])("name only flags that ragjudge %s accepts", (command) => {
    const accepted = optionsOf(command);
    for (const f of flags) expect(accepted, `${command} lacks ${f}`).toContain(f);
  });

  it("run takes the judge's deadline and retry options", () => {
    expect(optionsOf("run")).toEqual(expect.arrayContaining(["--timeout-ms", "--max-retries"]));
  });

  it("run told that the model rejects seed takes --no-seed as printed, and its next run command keeps it", async () => {
    const server = await startOpenAIServer({ script: (r) => ("seed" in r.body ? { status: 400, message: "Unsupported parameter: 'seed' is not supported with this model." } : { verdict: "yes" }) });
    try {
      const config = exampleCopy((c) => void (c.trust = { minLabels: 20, minPerClass: 4, kappaLower: 0.5 })).config;
      const args = ["run", "--config", config, "--judge", "openai", "--model", "m", "--base-url", server.baseURL, "--cache-dir", tempDir(), "--evaluations-dir", tempDir()];
      const refused = await runCliCaptured([...args, "--no-progress"], NO_KEY);
      expect(refused.code, refused.err).toBe(2);
      const flag = /if the model rejects that parameter, pass (--[a-z-]+)\)/.exec(refused.err)?.[1];
      expect(flag).toBe("--no-seed");
      const ran = await runCliCaptured([...args, flag!, "--no-progress"], NO_KEY);
      expect(ran.code, ran.err).toBe(0);
      expect(ran.out).toMatch(/ragjudge run [^\n]*--no-seed/);
      expect(await runCliCaptured([...args, "--seed", "1", "--no-seed"], NO_KEY)).toMatchObject({ code: 2, err: expect.stringContaining("--seed and --no-seed contradict each other") });
    } finally {
      await server.close();
    }
  }, 60_000);
});
