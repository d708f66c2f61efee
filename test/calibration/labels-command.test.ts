import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadLabels } from "../../src/calibration/labels.js";
import { loadRubric } from "../../src/judge/rubric/rubric.js";
import { wordingHash } from "../../src/judge/rubric/wording.js";
import { runCliCaptured } from "../helpers/cli.js";
import { copyFixture, tempDir } from "../helpers/temp.js";

const H = "e".repeat(64);
let dir: string;
beforeEach(() => {
  dir = copyFixture("calibration", "ragjudge-labels-cmd-");
});

const cfg = () => ["--config", join(dir, "ragjudge.config.json")];
function csv(text: string): string {
  const f = join(dir, "in.csv");
  writeFileSync(f, text);
  return f;
}

describe("ragjudge labels import", () => {
  it("appends validated rows to labels/<annotator>.jsonl and skips rows already present", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q01,faithfulness,answer,${H},yes,2026-12-01T00:00:00Z\nbm25,q02,correctness,answer,${H},no,2026-12-01T00:00:00Z\n`);
    const args = ["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "random", "--inclusion-probability", "0.2", "--attest", "vendor sample, 1 in 5", ...cfg()];
    const first = await runCliCaptured(args);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/imported 2 label\(s\) into .*chen\.jsonl/);
    const written = readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(written[0]).toMatchObject({ question: "q01", annotator: "chen", frame: "random", inclusionProbability: 0.2, label: "yes" });
    const again = await runCliCaptured(args);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/imported 0 label\(s\); 2 already present, skipped/);
  });

  it("skips untimed rows that repeat the annotator's current label, and keeps a changed one", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    const args = ["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()];
    expect((await runCliCaptured(args)).code).toBe(0);
    const again = await runCliCaptured(args);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/imported 0 label\(s\); 1 already present, skipped/);
    csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},no\n`);
    expect((await runCliCaptured(args)).code).toBe(0);
    expect(readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("stamps each row with its rubric's wording as on disk, keeps a wordingHash cell, and names a bad one at its line", async () => {
    const today = wordingHash(loadRubric(join(dir, "rubrics", "faithfulness.yaml")));
    const earlier = "a".repeat(64);
    const f = csv(`variant,question,rubric,unit,inputHash,label,wordingHash\nbm25,q01,faithfulness,answer,${H},yes,\nbm25,q02,faithfulness,answer,${H},no,${earlier.toUpperCase()}\n`);
    const args = ["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()];
    expect((await runCliCaptured(args)).code).toBe(0);
    const written = readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(written.map((l) => l.wordingHash)).toEqual([today, earlier]);
    csv(`variant,question,rubric,unit,inputHash,label,wordingHash\nbm25,q03,faithfulness,answer,${H},yes,v2\n`);
    const bad = await runCliCaptured(args);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`ragjudge: error: ${f}:2: wordingHash: must be a lower-case hex SHA-256\n`);
  });

  it("a sheet imported again after its rubric's question changed stays the earlier wording's: its rows are already present, not answers to today's question", async () => {
    const rubric = join(dir, "rubrics", "faithfulness.yaml");
    const before = wordingHash(loadRubric(rubric));
    // untimed rows, no wordingHash column: a sheet typed by hand
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\nbm25,q02,faithfulness,answer,${H},no\n`);
    const args = ["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()];
    expect((await runCliCaptured(args)).code).toBe(0);
    writeFileSync(rubric, readFileSync(rubric, "utf8").replace(/^question: (.*)\?$/m, "question: $1, even where a source contradicts it?"));
    expect(wordingHash(loadRubric(rubric))).not.toBe(before);
    // the same sheet again: the same answers, given to the earlier question; stamped with today's wording they would count for it
    const again = await runCliCaptured(args);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/imported 0 label\(s\); 2 already present, skipped/);
    expect(again.out).toContain("note: 2 skipped row(s) repeat labels that answered an earlier wording of the question of faithfulness, which do not count for today's; to answer today's question, label those items again (ragjudge review)\n");
    const written = readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(written.map((l) => l.wordingHash)).toEqual([before, before]);
    // an exported copy with the wordingHash cells cleared is the same labels (same times): skipped too
    const out = join(dir, "chen.csv");
    expect((await runCliCaptured(["labels", "export", "--out", out, ...cfg()])).code).toBe(0);
    const chens = readFileSync(out, "utf8").split("\n").filter((l, i) => i === 0 || l.includes(",chen,"));
    expect(chens).toHaveLength(3);
    writeFileSync(out, chens.join("\n").split(before).join("") + "\n");
    const third = await runCliCaptured(["labels", "import", out, ...cfg()]);
    expect(third.code).toBe(0);
    expect(readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
    // a changed answer is a new label, for today's question
    csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},no\n`);
    expect((await runCliCaptured(args)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "labels", "chen.jsonl"), "utf8").trim().split("\n").at(-1)!).wordingHash).toBe(wordingHash(loadRubric(rubric)));
  });

  it("refuses rows without a wordingHash for a rubric whose file does not read (their wording cannot be recorded), writing nothing", async () => {
    const rubric = join(dir, "rubrics", "faithfulness.yaml");
    writeFileSync(rubric, readFileSync(rubric, "utf8").replace(/^question: /m, "question: [unclosed "));
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    const r = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${f}:2: wordingHash: the file of rubric "faithfulness" does not read, or two files (.yaml and .yml) give its name, so which wording of its question this label answered cannot be recorded: fix the rubric file, then import again\n`);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
  });

  it("an export of labels that record no wording imports back into its own folder as already present, not as answers to today's question", async () => {
    const out = join(dir, "out.csv");
    expect((await runCliCaptured(["labels", "export", "--history", "--out", out, ...cfg()])).code).toBe(0);
    // the rows of variants this config names (the fixture also holds two of other variants)
    const rows = readFileSync(out, "utf8").split("\n").filter((l, i) => i === 0 || l.startsWith("bm25,"));
    writeFileSync(out, rows.join("\n") + "\n");
    const before = loadLabels(join(dir, "labels")).history.length;
    expect(rows.length - 1).toBe(before - 2);
    const back = await runCliCaptured(["labels", "import", out, ...cfg()]);
    expect(back.err).toBe("");
    expect(back.code).toBe(0);
    expect(back.out).toMatch(/imported 0 label\(s\); \d+ already present, skipped/);
    expect(loadLabels(join(dir, "labels")).history).toHaveLength(before);
  });

  it("fails with one line naming file, line and column for a missing column, writing nothing", async () => {
    const f = csv(`variant,question,rubric,unit,label\nbm25,q01,faithfulness,answer,yes\n`);
    const { code, err } = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "random", ...cfg()]);
    expect(code).toBe(2);
    expect(err).toBe(`ragjudge: error: ${f}:1: inputHash: missing column (the header needs variant, question, rubric, unit, inputHash, label)\n`);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
  });

  it("rejects unknown rubrics and bad labels with their CSV lines, writing nothing", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulnes,answer,${H},yes\nbm25,q02,faithfulness,answer,${H},maybe\n`);
    const badLabel = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(badLabel.code).toBe(2);
    expect(badLabel.err).toMatch(/in\.csv:3: label: expected yes or no \(or y, n\), got "maybe"/);
    const g = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulnes,answer,${H},yes\n`);
    const badRubric = await runCliCaptured(["labels", "import", g, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(badRubric.code).toBe(2);
    expect(badRubric.err).toMatch(/in\.csv:2: rubric: unknown rubric "faithfulnes" \(known: citation, correctness, faithfulness; did you mean "faithfulness"\?\)/);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
  });

  it("reports every bad row at once, a rubric typo among bad times and labels, writing nothing", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q01,faithfulness,answer,${H},yes,31/12/2026\nbm25,q02,faithfulnes,answer,${H},yes,2026-12-01T00:00:00Z\nbm25,q03,correctness,answer,${H},maybe,2026-12-01T00:00:00Z\n`);
    const r = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toBe([
      `ragjudge: error: ${f}:2: time: Invalid ISO datetime`,
      `ragjudge: error: ${f}:3: rubric: unknown rubric "faithfulnes" (known: citation, correctness, faithfulness; did you mean "faithfulness"?)`,
      `ragjudge: error: ${f}:4: label: expected yes or no (or y, n), got "maybe"`,
    ].join("\n") + "\n");
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
  });

  it("refuses rows naming a question the golden set lacks or a variant the config lacks, one line each with the name meant, writing nothing", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q1,faithfulness,answer,${H},yes\nbm52,q01,faithfulness,answer,${H},yes\nbm25,q02,faithfulness,answer,${H},no\nbm25,zz,correctness,answer,${H},no\n`);
    const args = ["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "manual"];
    const r = await runCliCaptured([...args, ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toBe([
      `ragjudge: error: ${f}:2: question: "q1" is not in the golden set ${join(dir, "golden.jsonl")} (did you mean "q01"?)`,
      `ragjudge: error: ${f}:3: variant: "bm52" is not a variant of ${join(dir, "ragjudge.config.json")} (variants: bm25; did you mean "bm25"?)`,
      `ragjudge: error: ${f}:5: question: "zz" is not in the golden set ${join(dir, "golden.jsonl")}`,
    ].join("\n") + "\n");
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
    // a labels folder named without a config has no golden set or variants to check against
    const bare = await runCliCaptured([...args, "--labels", join(dir, "labels")]);
    expect(bare.code, bare.err).toBe(0);
    expect(bare.out).toMatch(/^imported 4 label\(s\)/);
  });

  it("refuses two rows giving one annotator's item two answers at one time, naming both lines, writing nothing; rows with their own times are a history and import", async () => {
    const twice = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\nbm25,q02,faithfulness,answer,${H},no\nbm25,q01,faithfulness,answer,${H},no\nbm25,q02,faithfulness,answer,${H},no\n`);
    const r = await runCliCaptured(["labels", "import", twice, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${twice}:4: label: "no" for the item chen labelled "yes" on line 2 (same variant, question, rubric, unit, input hash and time): keep one row, or give each its time\n`);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
    const sameInstant = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q01,faithfulness,answer,${H},yes,2026-12-01T10:00:00Z\nbm25,q01,faithfulness,answer,${H},no,2026-12-01T11:00:00.000+01:00\n`);
    const instant = await runCliCaptured(["labels", "import", sameInstant, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(instant.code).toBe(2);
    expect(instant.err).toMatch(/in\.csv:3: label: "no" for the item chen labelled "yes" on line 2/);
    const history = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q01,faithfulness,answer,${H},yes,2026-01-01T00:00:00Z\nbm25,q01,faithfulness,answer,${H},no,2026-01-02T00:00:00Z\n`);
    const ok = await runCliCaptured(["labels", "import", history, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/^imported 2 label\(s\)/);
  });

  it("refuses, on the CSV's line, a time in the future or a name that reads like another annotator's, writing nothing (every later command would refuse the labels folder)", async () => {
    const future = csv(`variant,question,rubric,unit,inputHash,label,time\nbm25,q01,faithfulness,answer,${H},yes,2026-01-01T00:00:00Z\nbm25,q02,faithfulness,answer,${H},no,2099-01-01T00:00:00Z\n`);
    const r = await runCliCaptured(["labels", "import", future, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/in\.csv:3: time: 2099-01-01T00:00:00Z is in the future/);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
    const ok = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    expect((await runCliCaptured(["labels", "import", ok, "--annotator", "chen", "--provenance", "human", "--frame", "manual", ...cfg()])).code).toBe(0);
    // "chen" with a Cyrillic е: two names for one person
    const lookalike = await runCliCaptured(["labels", "import", ok, "--annotator", "ch\u0435n", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(lookalike.code).toBe(2);
    expect(lookalike.err).toMatch(/in\.csv:2: annotator: .*reads like/);
    expect(existsSync(join(dir, "labels", "ch\u0435n.jsonl"))).toBe(false);
    // an annotator column dated before chen's first label: still the CSV's name to change
    const dated = csv(`variant,question,rubric,unit,inputHash,label,annotator,time\nbm25,q01,faithfulness,answer,${H},yes,Chen,2020-01-01T00:00:00Z\n`);
    const early = await runCliCaptured(["labels", "import", dated, "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(early.code).toBe(2);
    expect(early.err).toMatch(/in\.csv:2: annotator: "Chen" reads like "chen", an annotator already in \S*chen\.jsonl:1, but is another name: .*write "chen" in the annotator column/);
    expect(existsSync(join(dir, "labels", "Chen.jsonl"))).toBe(false);
    // every command still reads the folder
    expect((await runCliCaptured(["labels", "export", "--out", join(dir, "out.csv"), ...cfg()])).code).toBe(0);
  });

  it("accepts random labels drawn outside ragjudge only with --attest, and says they are declared random", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    const refused = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "random", ...cfg()]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/in\.csv:2: frame: random, but no recorded draw \(labels\/draws\/\) drew this item: pass --attest/);
    expect(existsSync(join(dir, "labels", "chen.jsonl"))).toBe(false);
    const ok = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "random", "--attest", "drawn uniformly by the QA team's script, seed 7", ...cfg()]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/1 label\(s\) are declared random \(attested\), not drawn by ragjudge: the trust gate counts them only when the config's trust.attested is true/);
    expect(JSON.parse(readFileSync(join(dir, "labels", "chen.jsonl"), "utf8"))).toMatchObject({ frame: "random", attestation: "drawn uniformly by the QA team's script, seed 7" });
    // A row naming a draw must be one of its drawn items.
    const g = csv(`variant,question,rubric,unit,inputHash,label,draw\nbm25,q01,faithfulness,answer,${H},yes,0123456789abcdef\n`);
    const bad = await runCliCaptured(["labels", "import", g, "--annotator", "dana", "--provenance", "human", "--frame", "random", ...cfg()]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/in\.csv:2: draw: no draw 0123456789abcdef in /);
  });

  it("rejects a bad --frame or --provenance before reading anything", async () => {
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    expect((await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "human", "--frame", "convenience", ...cfg()])).code).toBe(2);
    const { code, err } = await runCliCaptured(["labels", "import", f, "--annotator", "chen", "--provenance", "import", "--frame", "random", ...cfg()]);
    expect(code).toBe(2);
    expect(err).toMatch(/source: imported labels \(--provenance import\) need --source NAME or a source column/);
  });
});

describe("ragjudge labels import: never writes outside the labels folder", () => {
  it("refuses labels/<annotator>.jsonl that is a symbolic link to a file outside, exit 2, writing nothing", async () => {
    const outside = join(tempDir("ragjudge-outside-"), "victim.txt");
    writeFileSync(outside, ""); // an empty file reads as no labels: only the write can go wrong
    symlinkSync(outside, join(dir, "labels", "zed.jsonl"));
    const f = csv(`variant,question,rubric,unit,inputHash,label\nbm25,q01,faithfulness,answer,${H},yes\n`);
    const r = await runCliCaptured(["labels", "import", f, "--annotator", "zed", "--provenance", "human", "--frame", "manual", ...cfg()]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`ragjudge: error: ${join(dir, "labels", "zed.jsonl")}: refusing to write through a symbolic link in the labels folder\n`);
    expect(readFileSync(outside, "utf8")).toBe("");
  });
});

describe("ragjudge labels export", () => {
  it("writes effective labels (or the history) as CSV that imports back unchanged", async () => {
    const out1 = join(dir, "out.csv");
    const { code, out } = await runCliCaptured(["labels", "export", "--out", out1, ...cfg()]);
    expect(code).toBe(0);
    const book = loadLabels(join(dir, "labels"));
    // 93 effective asha labels (one per evidence), 20 ben, 2 adjudications.
    expect(out).toMatch(new RegExp(`exported ${book.effective.length + 2} label\\(s\\)`));
    const header = readFileSync(out1, "utf8").split("\n")[0];
    expect(header).toBe("variant,question,rubric,unit,inputHash,label,annotator,provenance,source,frame,inclusionProbability,stratum,split,draw,attestation,adjudication,wordingHash,note,time");
    expect((await runCliCaptured(["labels", "export", "--history", "--out", join(dir, "all.csv"), ...cfg()])).code).toBe(0);
    expect(readFileSync(join(dir, "all.csv"), "utf8").trim().split("\n")).toHaveLength(book.history.length + 1);
    // Import into a labels folder with the same draws and no label: the same effective labels come back.
    const fresh = tempDir("ragjudge-labels-rt-");
    cpSync(join(dir, "labels", "draws"), join(fresh, "draws"), { recursive: true });
    expect((await runCliCaptured(["labels", "import", out1, "--labels", fresh])).code).toBe(0);
    const back = loadLabels(fresh);
    const norm = (b: typeof book) => [...b.effective.map((l) => l.value), ...[...b.items.values()].flatMap((i) => (i.adjudication ? [i.adjudication.value] : []))]
      .map((v) => JSON.stringify(Object.entries(v).sort())).sort();
    expect(norm(back)).toEqual(norm(book));
  });

  it("says in one line, exit 2, when --out is a folder or under a file", async () => {
    const folder = await runCliCaptured(["labels", "export", "--out", join(dir, "labels"), ...cfg()]);
    expect(folder.code).toBe(2);
    expect(folder.err).toBe(`ragjudge: error: ${join(dir, "labels")}: is a folder: give a file name to write\n`);
    const underFile = await runCliCaptured(["labels", "export", "--out", join(dir, "ragjudge.config.json", "x.csv"), ...cfg()]);
    expect(underFile.code).toBe(2);
    expect(underFile.err).toMatch(/x\.csv: is a file, or inside one, where a folder is needed\n$/);
  });
});
