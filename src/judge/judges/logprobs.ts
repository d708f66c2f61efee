import type { CallResult } from "../transport/client.js";

/**
 * Whether the LLM judge asks for token log-probabilities, and what it does
 * when a server lacks them (config `judge.logprobs`):
 *
 * - `"auto"` (default): ask, unless this endpoint and model are remembered
 *   without them. A 400 naming the parameter, or a reply without
 *   `choices[0].logprobs`, switches the run off, remembers it in the cache,
 *   and asks that item again without them, so every verdict of the run has
 *   the fingerprint of the request it was made with (asking changes the
 *   request, so the fingerprint). A reply without log-probabilities costs
 *   one call per call in flight, once per endpoint and model.
 * - `true`: always ask; a 400 naming the parameter stops the run (a setup
 *   error), a reply without them is a verdict without pYes.
 * - `false`: never ask; fingerprints are those of a judge without them.
 */
export type LogprobsSetting = "auto" | boolean;

/** Where the judge remembers an endpoint and model without log-probabilities (the verdict cache is one). */
export interface LogprobsMemory {
  logprobsSupport(baseURL: string, model: string): boolean | undefined;
  rememberLogprobs(baseURL: string, model: string, supported: boolean, cause?: string): void;
}

/** What to do with a call's result. */
export type LogprobsAction = { kind: "keep" } | { kind: "resend" } | { kind: "fatal"; message: string };

/**
 * The judge's log-probability state for one run: `on` says whether the next
 * request asks. {@link after} reads each result of a request made with
 * `asked` and switches off (and remembers) when the server lacks them.
 *
 * @example
 * const lp = new LogprobsSwitch("auto", { memory: cache, baseURL, model });
 * const asked = lp.on; // whether this request asks for log-probabilities
 * const r = await client.complete(asked ? { ...body, logprobs: true, top_logprobs: 5 } : body);
 * lp.after(asked, r) // { kind: "resend" } when the reply lacked them: lp.on is now false, and the cache remembers it
 */
export class LogprobsSwitch {
  on: boolean;

  constructor(
    readonly setting: LogprobsSetting,
    private readonly o: { memory?: LogprobsMemory; baseURL: string; model: string; onChange?: (cause: string) => void },
  ) {
    this.on = setting === true || (setting === "auto" && o.memory?.logprobsSupport(o.baseURL, o.model) !== false);
  }

  after(asked: boolean, r: CallResult): LogprobsAction {
    if (!asked) return { kind: "keep" };
    const lacking = !r.ok && r.noLogprobs ? r.cause : r.ok && !r.logprobs ? "the server replied without log-probabilities" : undefined;
    if (lacking === undefined) return { kind: "keep" };
    if (this.setting === true) {
      return r.ok ? { kind: "keep" } : { kind: "fatal", message: `${lacking} (the endpoint rejects log-probabilities: set judge.logprobs to "auto" or false)` };
    }
    if (this.on) {
      this.on = false;
      this.o.memory?.rememberLogprobs(this.o.baseURL, this.o.model, false, lacking);
      this.o.onChange?.(lacking);
    }
    return { kind: "resend" };
  }
}
