import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { csvLine, csvText, delimiterOf, readCsv } from "../../src/golden/csv.js";
import { mulberry32 } from "../helpers/seeded.js";
import { inputErrorMessages } from "../helpers/input-errors.js";
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

describe("readCsv's delimiter", () => {
  const read = (text: string) => {
    const file = join(tempDir(), "d.csv");
    writeFileSync(file, text);
    return readCsv(file);
  };

  it("reads a semicolon file as a European spreadsheet writes it, and a tab-separated one, as it reads commas", () => {
    const expected = { header: ["question", "contexts", "answer"], rows: [{ line: 2, cells: ["A, or a", '["B; b"]', "C"] }] };
    expect(read('\uFEFFquestion;contexts;answer\r\n"A, or a";"[""B; b""]";C\r\n')).toMatchObject(expected);
    expect(read('question\tcontexts\tanswer\n"A, or a"\t"[""B; b""]"\tC\n')).toMatchObject(expected);
    expect(read('question,contexts,answer\n"A, or a","[""B; b""]",C\n')).toMatchObject(expected);
  });

  it("counts only the header line, outside quotes, and takes a comma on a tie", () => {
    expect(delimiterOf('"a;b;c",d\n1;2;3;4;5\n')).toBe(",");
    expect(delimiterOf("question\n")).toBe(",");
    expect(delimiterOf("a;b,c\n")).toBe(",");
    expect(delimiterOf("a;b;c,d\n")).toBe(";");
  });
});

describe("readCsv's malformed quoting", () => {
  it("says how to quote a cell that holds a quote without starting with one (a JSON list typed in), naming its column", () => {
    const dir = tempDir("ragjudge-csv-quote-");
    const tsv = join(dir, "data.tsv");
    writeFileSync(tsv, 'question\tcontexts\nWhy?\t["a passage"]\n');
    expect(inputErrorMessages(() => readCsv(tsv))).toEqual([
      `${tsv}:2: contexts: not valid CSV: a cell holds a quote but does not start with one; quote the whole cell ("..." with each quote inside doubled, as spreadsheets and pandas write it)`,
    ]);
    const csv = join(dir, "data.csv");
    writeFileSync(csv, 'question,contexts\nWhy?,"[""a passage""]"\n');
    expect(readCsv(csv).rows[0]!.cells).toEqual(["Why?", '["a passage"]']);
  });
});
