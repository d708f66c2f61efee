import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TextSink, writeContent } from "../../src/report/text-sink.js";
import { tempDir } from "../helpers/temp.js";

describe("TextSink", () => {
  it("writes the UTF-8 of the pieces joined, whatever their size and however they split surrogate pairs' slices", () => {
    const dir = tempDir("ragjudge-sink-");
    const big = "ab😀".repeat(100_000) + "é".repeat(70_001);
    const parts = ["x", big, "नीति".repeat(10), "", "😀".repeat(50_000), "end"];
    const file = join(dir, "out.txt");
    const fd = openSync(file, "w");
    writeContent(new TextSink(fd, 4096), parts);
    closeSync(fd);
    expect(readFileSync(file).equals(Buffer.from(parts.join(""), "utf8"))).toBe(true);
    const bytes = join(dir, "bytes.bin");
    const fd2 = openSync(bytes, "w");
    const sink = new TextSink(fd2, 16);
    sink.write("héllo");
    sink.writeBytes(Buffer.from("0123456789abcdefXYZ"));
    sink.write("😀");
    sink.flush();
    closeSync(fd2);
    expect(readFileSync(bytes, "utf8")).toBe("héllo0123456789abcdefXYZ😀");
  });
});
