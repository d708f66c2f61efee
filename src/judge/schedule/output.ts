import type { Judgment } from "../../golden/schema/items.js";

/** Judgments serialised per block before their bytes are taken (see {@link judgmentsJsonl}). */
const BLOCK = 2048;

/**
 * The bytes of a judgments JSONL file: one `JSON.stringify(judgment)` line
 * each, newline-terminated (nothing for no judgments), exactly the text
 * `judgments.map(JSON.stringify).join("\n") + "\n"` encodes to (judgments
 * are plain objects: each serialises to `{...}`). Built a block of lines at
 * a time into one buffer, so an 80,000-verdict run never holds
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
    const b = Buffer.from(blockLines(judgments.slice(start, start + BLOCK)), "utf8");
    blocks.push(b);
    size += b.length;
  }
  return Buffer.concat(blocks, size);
}

/**
 * The lines of a block of judgments. One JSON.stringify of the whole block
 * costs a fraction of one per judgment; it is `[` + the judgments' own JSON
 * joined by `,` + `]`, each starting with `{` and ending with `}`, so the
 * n - 1 boundaries between them are among the occurrences of `},{`. When
 * there are exactly n - 1 occurrences (none inside a string), they are the
 * boundaries and become newlines; otherwise each judgment is written alone.
 */
function blockLines(block: readonly Judgment[]): string {
  const whole = JSON.stringify(block);
  let seams = 0;
  for (let i = whole.indexOf("},{"); i !== -1 && seams < block.length; i = whole.indexOf("},{", i + 3)) seams++;
  if (seams === block.length - 1) return whole.slice(1, -1).replaceAll("},{", "}\n{") + "\n";
  let text = "";
  for (const j of block) text += JSON.stringify(j) + "\n";
  return text;
}
