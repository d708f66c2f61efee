import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { csvLine, csvText, readCsv } from "../../src/golden/csv.js";
import { mulberry32 } from "../helpers/seeded.js";
import { tempDir } from "../helpers/temp.js";

/** Pieces a cell is made of: the characters CSV treats specially, and text around them. */
const PIECES = ["a", "word", " ", ",", '"', '""', "\n", "\r", "\r\n", "=", "'", "é", "\u0928\u093c", "😀", "\t", ";", ""];

function randomCell(next: () => number, pieces = PIECES): string {
  let c = "";
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) c += pieces[Math.floor(next() * pieces.length)];
  return c;
}

/** Without carriage returns: readCsv reads a file's line ends as line feeds, inside quotes too. */
const READ_BACK = PIECES.filter((p) => !p.includes("\r"));

describe("csvLine / csvText", () => {
  it("writes the bytes csv-stringify writes with its defaults, on 2,000 random rows of awkward cells", () => {
    const next = mulberry32(20261206);
    const header = ["id", "text, with comma", 'quote "q"', "line\nbreak"];
    const rows = Array.from({ length: 2000 }, () => header.map(() => randomCell(next)));
    expect(csvText(header, rows)).toBe(stringify(rows, { header: true, columns: header }));
    for (const r of rows.slice(0, 200)) expect(csvLine(r)).toBe(stringify([r]));
  });

  it("writes a header alone as csv-stringify does when there are no rows", () => {
    expect(csvText(["a", "b,c"], [])).toBe(stringify([], { header: true, columns: ["a", "b,c"] }));
  });

  it("quotes only what needs it, and reads back to the same cells", () => {
    expect(csvLine(["plain", "", "a,b", 'say "hi"', "two\nlines", "cr\r", "=1"])).toBe('plain,,"a,b","say ""hi""","two\nlines","cr\r",=1\n');
    const next = mulberry32(7);
    const header = ["h1", "h2", "h3"];
    const rows = Array.from({ length: 300 }, () => [`id${Math.floor(next() * 1e6)}`, randomCell(next, READ_BACK) || "x", randomCell(next, READ_BACK) || "y"]);
    const file = join(tempDir("ragjudge-csv-"), "back.csv");
    writeFileSync(file, csvText(header, rows));
    const back = readCsv(file);
    expect(back.header).toEqual(header);
    expect(back.rows.map((r) => r.cells)).toEqual(rows);
  });
});
