import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvaluationFolder, folderStamp, latestEvaluation, safeName } from "../../src/report/folder.js";
import { tempDir } from "../helpers/temp.js";

describe("evaluation folders", () => {
  it("names folders by UTC time and a safe name", () => {
    expect(folderStamp(new Date("2026-11-30T13:45:01.999Z"))).toBe("20261130T134501Z");
    expect(safeName("hybrid rerank / v2")).toBe("hybrid-rerank-v2");
    expect(safeName("../../etc")).toBe("etc");
    expect(safeName("हिन्दी")).toBe("evaluation");
  });

  it("is invisible until committed, and leaves nothing behind when discarded", () => {
    const dir = tempDir("ragjudge-folder-");
    const f = EvaluationFolder.start(dir, "x", new Date("2026-11-30T13:45:01Z"));
    f.write("a.txt", "a");
    expect(readdirSync(dir).every((n) => n.startsWith("."))).toBe(true);
    expect(latestEvaluation(dir)).toBeUndefined();
    f.discard();
    expect(readdirSync(dir)).toEqual([]);
    const g = EvaluationFolder.start(dir, "x", new Date("2026-11-30T13:45:01Z"));
    g.write("a.txt", "a");
    expect(() => g.write("a.txt", "again")).toThrow();
    expect(g.commit("report.json", "{}")).toBe(join(dir, "20261130T134501Z-x"));
    expect(g.list()).toEqual(["a.txt", "report.json"]);
    g.discard();
    expect(existsSync(join(dir, "20261130T134501Z-x", "report.json"))).toBe(true);
  });

  it("never reuses a folder: a second run in the same second gets -2", () => {
    const dir = tempDir("ragjudge-folder-");
    const t = new Date("2026-11-30T13:45:01Z");
    const a = EvaluationFolder.start(dir, "x", t);
    a.commit("report.json", "{}");
    const b = EvaluationFolder.start(dir, "x", t);
    expect(b.commit("report.json", "{}")).toBe(join(dir, "20261130T134501Z-x-2"));
  });

  it("finds the latest complete evaluation, skipping hidden and incomplete folders", () => {
    const dir = tempDir("ragjudge-folder-");
    for (const n of ["20261129T100000Z-a", "20261130T100000Z-b", "20261201T100000Z-incomplete", ".20261202T100000Z-tmp"]) mkdirSync(join(dir, n));
    writeFileSync(join(dir, "20261129T100000Z-a", "report.json"), "{}");
    writeFileSync(join(dir, "20261130T100000Z-b", "report.json"), "{}");
    writeFileSync(join(dir, ".20261202T100000Z-tmp", "report.json"), "{}");
    expect(latestEvaluation(dir)).toBe(join(dir, "20261130T100000Z-b"));
    expect(latestEvaluation(join(dir, "missing"))).toBeUndefined();
  });

  it("removes the hidden folders of killed runs whose process is gone, and keeps those of live runs", () => {
    const dir = tempDir("ragjudge-folder-");
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const dead = `.20261130T134501Z-example.${gone}.1764500000000.tmp`;
    const live = `.20261130T134502Z-example.${process.ppid}.1764500000000.tmp`;
    const other = ".not-ours.tmp";
    for (const n of [dead, live, other]) {
      mkdirSync(join(dir, n));
      writeFileSync(join(dir, n, "summary.txt"), "half");
    }
    const f = EvaluationFolder.start(dir, "example", new Date("2026-11-30T13:45:03Z"));
    f.commit("report.json", "{}");
    expect(readdirSync(dir).sort()).toEqual([live, other, "20261130T134503Z-example"].sort());
  });
});
