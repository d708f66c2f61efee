import { describe, expect, it } from "vitest";
import { cacheKey } from "../../../src/judge/schedule/cache.js";
import { BatchInputLine, BatchOutputLine, customIdOf, keyOfCustomId, partName } from "../../../src/judge/batch/format.js";

const FP = "a".repeat(64);
const IH = "0123456789abcdef".repeat(4);

describe("batch file formats", () => {
  it("writes the cache key as the custom_id and reads it back", () => {
    const id = customIdOf(cacheKey(FP, IH, 3));
    expect(id).toBe(`${FP}-${IH}-3`);
    expect(keyOfCustomId(id)).toEqual({ fingerprint: FP, inputHash: IH, repeat: 3 });
    expect(keyOfCustomId("request-1")).toBeUndefined();
    expect(keyOfCustomId(`${FP}-${IH}-x`)).toBeUndefined();
    expect(keyOfCustomId(`${FP.toUpperCase()}-${IH}-0`)).toBeUndefined();
  });

  it("names export parts file, name.2.jsonl, ... (or appends .n without a .jsonl extension)", () => {
    expect(partName("out/judge.jsonl", 1)).toBe("out/judge.jsonl");
    expect(partName("out/judge.jsonl", 2)).toBe("out/judge.2.jsonl");
    expect(partName("out/judge.JSONL", 12)).toBe("out/judge.12.JSONL");
    expect(partName("calls", 3)).toBe("calls.3");
  });

  it("checks input lines strictly and output lines leniently, but never an empty result", () => {
    const ok = { custom_id: "x", method: "POST", url: "/v1/chat/completions", body: { model: "m", messages: [{ role: "user", content: "q" }] } };
    expect(BatchInputLine.safeParse(ok).success).toBe(true);
    expect(BatchInputLine.safeParse({ ...ok, url: "/v1/embeddings" }).success).toBe(false);
    expect(BatchInputLine.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(BatchOutputLine.safeParse({ id: "vllm-1", custom_id: "x", response: { status_code: 200, request_id: "r", body: {} }, error: null, extra: 1 }).success).toBe(true);
    expect(BatchOutputLine.safeParse({ custom_id: "x", response: null, error: { code: "batch_expired", message: "m" } }).success).toBe(true);
    const empty = BatchOutputLine.safeParse({ custom_id: "x", response: null, error: null });
    expect(empty.success).toBe(false);
    expect(empty.error!.issues[0]!.message).toBe("the line has neither a response nor an error");
    expect(BatchOutputLine.safeParse({ response: { status_code: 200 } }).success).toBe(false);
  });
});
