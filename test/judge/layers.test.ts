import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/paths.js";

/**
 * The floors of src/judge (see src/judge/index.ts): a folder imports only
 * from folders on a lower floor, and from the earlier stages golden/ and
 * retrieval/; nothing inside imports the index.
 */
const FLOOR: Record<string, number> = {
  verdict: 0,
  rubric: 0,
  baseline: 0,
  transport: 1,
  items: 1,
  judges: 2,
  schedule: 3,
  batch: 4,
  claims: 4,
  summary: 4,
};
const EARLIER_STAGES = ["golden", "retrieval"];

const JUDGE = join(ROOT, "src", "judge");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every relative import of a file, resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => resolve(dirname(file), m[1]!));
}

const folderOf = (p: string) => relative(JUDGE, p).split(sep)[0]!;

describe("src/judge's floors", () => {
  it("keeps every file in a concern folder that has a floor (only index.ts at the top)", () => {
    const loose = readdirSync(JUDGE).filter((f) => !statSync(join(JUDGE, f)).isDirectory() && f !== "index.ts");
    expect(loose).toEqual([]);
    const folders = readdirSync(JUDGE).filter((f) => statSync(join(JUDGE, f)).isDirectory());
    expect(folders.filter((f) => FLOOR[f] === undefined)).toEqual([]);
  });

  it("imports only downwards: a lower floor of the judge, golden/ or retrieval/", () => {
    const wrong: string[] = [];
    for (const file of sources(JUDGE)) {
      const from = folderOf(file);
      if (from === "index.ts") continue;
      for (const target of importsOf(file)) {
        const rel = relative(join(ROOT, "src"), target);
        const where = `${relative(ROOT, file)} -> ${relative(ROOT, target)}`;
        if (!rel.startsWith(`judge${sep}`)) {
          if (!EARLIER_STAGES.includes(rel.split(sep)[0]!)) wrong.push(`${where} (a later stage)`);
          continue;
        }
        const to = folderOf(target);
        if (to === "index.ts") wrong.push(`${where} (the index is the door, not a floor)`);
        else if (to !== from && !(FLOOR[to]! < FLOOR[from]!)) wrong.push(`${where} (floor ${FLOOR[to]} is not below ${FLOOR[from]})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
