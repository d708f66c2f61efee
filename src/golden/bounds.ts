/**
 * The bounds of every number a user sets, by a flag, a config key or both:
 * one definition that the config's schema (golden/schema/) and the
 * command-line parsers (cli/commands/numbers.ts) both read, so that
 * `--concurrency` and `judge.concurrency` accept and refuse the same values
 * in the same words. Without a bound, a value typed by mistake became
 * another failure: a timeout past Node's timer limit fired at once and read
 * as an outage (exit 4), a concurrency of 4294967296 an internal error,
 * 100,000 repeats or bootstrap resamples ran out of memory or for ever.
 * Imports nothing, so start-up (`--help`) loads it without zod. The
 * README's "Limits" table of numbers is rendered from {@link BOUNDS}
 * (test/golden/bounds.test.ts).
 */

/** Node's longest timer, 2^31 - 1 ms (about 24.8 days): a longer delay fires after 1 ms, with only a warning. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A number's bounds, both inclusive, and what it is. */
export interface NumberBounds {
  min: number;
  max: number;
  /** A whole number (`3`, never `3.5` or `1e3`). */
  integer: boolean;
  /** The flags that set it, as typed (`--concurrency`). */
  flags: readonly string[];
  /** The config key that sets it (`judge.concurrency`), when there is one. */
  config?: string;
  /** Why the largest value is where it is, for messages and the README. */
  why: string;
}

const SAFE = Number.MAX_SAFE_INTEGER;
const COUNT = "nothing grows with it; 2^53 - 1 is the largest whole number a JSON number holds exactly";

/**
 * Every bounded number, by name. A number whose size costs nothing (a
 * cutoff, a seed) goes up to 2^53 - 1, the largest whole number a JSON
 * number carries exactly; one that costs memory, time or a server's
 * patience has a smaller maximum, with its reason.
 */
export const BOUNDS = {
  concurrency: { min: 1, max: 1024, integer: true, flags: ["--concurrency"], config: "judge.concurrency", why: "calls in flight at once; each holds a connection, and a server serves only so many at a time" },
  timeoutMs: { min: 1, max: MAX_TIMER_MS, integer: true, flags: ["--timeout-ms"], config: "judge.timeoutMs", why: "Node's longest timer, about 24.8 days; a longer one fires at once and every attempt would time out" },
  maxRetries: { min: 0, max: 100, integer: true, flags: ["--max-retries"], config: "judge.maxRetries", why: "retries of one call, each after a wait of up to a minute; 100 keep one call going for over an hour" },
  repeats: { min: 1, max: 25, integer: true, flags: ["--repeats"], config: "judge.repeats", why: "each repeat judges every item once more and is held in memory; self-disagreement shows within a few" },
  temperature: { min: 0, max: 2, integer: false, flags: ["--temperature"], config: "judge.temperature", why: "the range the OpenAI API accepts" },
  seed: { min: 0, max: SAFE, integer: true, flags: ["--seed"], config: "judge.seed", why: COUNT },
  maxTokens: { min: 1, max: SAFE, integer: true, flags: ["--max-tokens"], config: "judge.maxTokens", why: COUNT },
  cutoff: { min: 1, max: SAFE, integer: true, flags: ["-k"], config: "k", why: COUNT },
  poolDepth: { min: 1, max: SAFE, integer: true, flags: ["--pool-depth"], config: "poolDepth", why: COUNT },
  contextK: { min: 1, max: SAFE, integer: true, flags: ["--context-k"], config: "variants[].contextK", why: COUNT },
  level: { min: 0, max: SAFE, integer: true, flags: ["-l"], why: COUNT },
  bootstrapReps: { min: 100, max: 100_000, integer: true, flags: ["compare --reps", "calibrate --reps"], why: "the time grows with the resamples, and intervals stop changing long before" },
  simulationReps: { min: 0, max: 100_000, integer: true, flags: ["plan --reps"], why: "the time grows with the replicates; 0 skips the check" },
  minGroup: { min: 2, max: SAFE, integer: true, flags: ["compare --min-group"], why: COUNT },
  randomSeed: { min: 0, max: SAFE, integer: true, flags: ["compare --seed", "calibrate --seed", "plan --seed", "sample --seed"], why: COUNT },
  sampleSize: { min: 1, max: SAFE, integer: true, flags: ["sample --random", "sample --balanced", "plan --budget", "plan --active"], why: COUNT },
  batchRequests: { min: 1, max: SAFE, integer: true, flags: ["--batch-max-requests", "batch submit --max-requests"], why: COUNT },
  batchBytes: { min: 1, max: SAFE, integer: true, flags: ["--batch-max-bytes", "batch submit --max-bytes"], why: COUNT },
  pollInterval: { min: 0, max: 86_400, integer: false, flags: ["batch collect --poll-interval"], why: "seconds between polls; a batch finishes within a day" },
  port: { min: 0, max: 65_535, integer: true, flags: ["review --port"], why: "the largest TCP port; 0 takes a free one" },
} as const satisfies Record<string, NumberBounds>;

export type BoundName = keyof typeof BOUNDS;

/**
 * The whole number a flag's text spells, or undefined: decimal digits only,
 * white space around them ignored (`" 3"` as `3`, as in a comma list
 * `-k "1, 5"`), and at most 2^53 - 1. The one reading of every whole-number
 * flag, so `1e3`, `0x10`, `+3` and `3.0` are refused by every flag alike.
 *
 * @example
 * readWhole(" 42") // 42
 * readWhole("1e3") // undefined
 */
export function readWhole(text: string): number | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The decimal number a flag's text spells, or undefined: digits with an
 * optional fraction (`0.7`, `.5`, `2`), white space around them ignored; no
 * sign, exponent or hex, as {@link readWhole}.
 *
 * @example
 * readDecimal("0.7") // 0.7
 * readDecimal("-1")  // undefined
 */
export function readDecimal(text: string): number | undefined {
  const t = text.trim();
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * A bound as people read it ("1,024"). Digits are grouped by hand, not by
 * toLocaleString: the config schema words its messages when its module
 * loads, and the first Intl call there loaded ICU's locale data into every
 * command's start-up (about 20 ms of `ragjudge retrieval` on the example).
 */
const shown = (n: number) => {
  if (n === SAFE) return "2^53 - 1";
  const [whole, fraction] = String(n).split(".");
  return whole!.replace(/\B(?=(\d{3})+$)/g, ",") + (fraction === undefined ? "" : `.${fraction}`);
};

/**
 * The values a bound allows, in words: "a whole number from 1 to 1,024",
 * "a number from 0 to 2", and, where only the floor matters to a user (the
 * ceiling is the largest exact JSON number), "a positive whole number" or
 * "a whole number of 0 or more".
 */
export function describeBounds(b: NumberBounds): string {
  const kind = b.integer ? "a whole number" : "a number";
  if (b.max === SAFE) return b.integer && b.min === 1 ? "a positive whole number" : `${kind} of ${shown(b.min)} or more`;
  return `${kind} from ${shown(b.min)} to ${shown(b.max)}`;
}

/** Whether `n` lies within `b` (and is whole when `b` says so). */
export function withinBounds(n: number, b: NumberBounds): boolean {
  return Number.isFinite(n) && (!b.integer || Number.isInteger(n)) && n >= b.min && n <= b.max;
}

/**
 * `value` itself when it lies within `b`, else a RangeError naming it and
 * the values allowed: "reps: 1000000000 is out of range: expected a whole
 * number from 100 to 100,000 (the time grows with ...)". The guard of the
 * library's entry points (`runEvaluation`, `calibrate`, `compareSides`, the
 * samplers and planners, the judge's settings, ...), which take numbers
 * from code rather than from a flag ({@link withinBounds} through the CLI's
 * parser) or a config key (the schema's `bounded`): without it a library
 * caller's `reps: 1e9` ran for ever or out of memory, a concurrency of 2^32
 * aborted V8 and a timeout past {@link MAX_TIMER_MS} fired at once. Checked
 * once where a call enters the library, never per item. `undefined` passes
 * through (an option left to its default).
 *
 * @example
 * requireWithin("reps", options.reps, BOUNDS.bootstrapReps) // options.reps, or throws RangeError
 */
export function requireWithin<T extends number | undefined>(name: string, value: T, b: NumberBounds): T {
  if (value === undefined || withinBounds(value, b)) return value;
  const over = typeof value === "number" && value > b.max ? ` (${b.why})` : "";
  const shownValue = typeof value === "number" ? String(value) : JSON.stringify(value);
  throw new RangeError(`${name}: ${shownValue} is out of range: expected ${describeBounds(b)}${over}`);
}

/**
 * The README's table of bounded numbers, one row per {@link BOUNDS} entry:
 * the README shows this text, and a test keeps the two equal.
 */
export function renderBoundsMarkdown(): string {
  const rows = Object.values(BOUNDS).map((b: NumberBounds) => {
    const set = [...b.flags.map((f) => `\`${f}\``), ...(b.config ? [`config \`${b.config}\``] : [])].join(", ");
    return `| ${set} | ${shown(b.min)} to ${shown(b.max)}${b.integer ? "" : " (decimals allowed)"} | ${b.why} |`;
  });
  return ["| set by | allowed | why the largest |", "|---|---|---|", ...rows].join("\n") + "\n";
}
