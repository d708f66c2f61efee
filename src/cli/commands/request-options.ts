import type { Command } from "commander";
import { BOUNDS } from "../../golden/bounds.js";
import { numberFlag, refuseWithNegation } from "./numbers.js";

/**
 * The LLM judge's request options, for every command that judges (`judge`
 * and `run`): the messages that stop a run name them (`pass --no-seed`,
 * `pass --response-format text`), and a hint printed by `run` named flags
 * only `judge` had, so pasted into `run` it was an unknown option.
 */
export function requestOptions(cmd: Command): Command {
  cmd
    .option("--temperature <t>", `sampling temperature, ${BOUNDS.temperature.min} to ${BOUNDS.temperature.max} (default: config, 0)`, numberFlag("--temperature", "temperature"))
    .option("--no-temperature", "omit temperature from requests (for models that reject it)")
    .option("--seed <n>", "seed (default: config, 0)", numberFlag("--seed", "seed"))
    .option("--no-seed", "omit seed from requests")
    .option("--max-tokens <n>", "max_tokens per reply (default: config, 512)", numberFlag("--max-tokens", "maxTokens"))
    .option("--no-max-tokens", "omit max_tokens from requests")
    .option("--response-format <mode>", "json_schema (structured outputs; falls back to text when the server rejects it) or text (JSON asked for in the prompt)");
  return refuseWithNegation(cmd, ["temperature", "seed", "max-tokens"]);
}
