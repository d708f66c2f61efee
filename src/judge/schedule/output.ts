import type { Judgment } from "../../golden/schema/items.js";

/** Judgments serialised per block before their bytes are taken (see {@link judgmentsJsonl}). */
const BLOCK = 2048;

/**
 * The bytes of a judgments JSONL file: one `JSON.stringify(judgment)` line
 * each, newline-terminated (nothing for no judgments), exactly the text
 * `judgments.map(JSON.stringify).join("\n") + "\n"` encodes to. Built a block
 * of lines at a time into one buffer, so an 80,000-verdict run never holds
 * every line and their joined copy as strings at once (80 MB of strings for
 * a 40 MB file).
 *
 * @example
 * writeFileAtomic(out, judgmentsJsonl(result.judgments));
 */
export function judgmentsJsonl(judgments: readonly Judgment[]): Buffer {
  const blocks: Buffer[] = [];
  let size = 0;
  for (let start = 0; start < judgments.length; start += BLOCK) {
    let text = "";
    const end = Math.min(judgments.length, start + BLOCK);
    for (let i = start; i < end; i++) text += JSON.stringify(judgments[i]) + "\n";
    const b = Buffer.from(text, "utf8");
    blocks.push(b);
    size += b.length;
  }
  return Buffer.concat(blocks, size);
}
