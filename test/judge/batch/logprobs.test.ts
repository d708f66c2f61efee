/** A Batch API output line carrying token log-probabilities gives the verdict its P(yes), read as online. */
import { describe, expect, it } from "vitest";
import { interpretLine } from "../../../src/judge/batch/read-output.js";
import { readCompletion } from "../../../src/judge/transport/completion.js";
import { tokenLogprobs } from "../../server/logprobs.js";

const content = '{"reason":"Source 2 states it.","verdict":"no"}';
const body = (logprobs: unknown) => ({ model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs }] });

describe("log-probabilities in a batch output line", () => {
  it("give the verdict its P(yes), as the online client reads it", () => {
    const b = body({ content: tokenLogprobs(content, 0.3, 5) });
    const line = interpretLine({ custom_id: "x", response: { status_code: 200, body: b }, error: null } as Parameters<typeof interpretLine>[0]);
    expect(line).toMatchObject({ kind: "verdict", reply: { verdict: "no" }, pYes: expect.closeTo(0.3, 12) });
    expect(readCompletion(b)).toMatchObject({ ok: true, logprobs: true, pYes: expect.closeTo(0.3, 12) });
  });

  it("without them the verdict has no pYes; with unreadable ones it has none either, and the cause", () => {
    const none = interpretLine({ custom_id: "x", response: { status_code: 200, body: body(null) }, error: null } as Parameters<typeof interpretLine>[0]);
    expect(none).toMatchObject({ kind: "verdict" });
    expect("pYes" in none).toBe(false);
    expect(readCompletion(body({ content: [{ token: "x", logprob: -1 }] }))).toMatchObject({ ok: true, logprobs: true, pYesCause: "the tokens do not spell the reply" });
  });
});
