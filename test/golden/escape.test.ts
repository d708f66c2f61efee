import { describe, expect, it } from "vitest";
import { escapeMarkdown, markdownCode, neutraliseCsvCell, plainLine, plainText, restoreCsvCell } from "../../src/golden/escape.js";
import { wordCount } from "../../src/golden/words.js";

describe("escapeMarkdown", () => {
  it("keeps markup, table syntax, links and emphasis as text, on one line", () => {
    expect(escapeMarkdown("</td></tr></table>\n| x | *b* _i_ [l](u) `c` ~s~ a&b $m$")).toBe("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt; \\| x \\| \\*b\\* \\_i\\_ \\[l\\](u) \\`c\\` \\~s\\~ a&amp;b \\$m\\$");
  });
  it("escapes # only where it would open a heading", () => {
    expect(escapeMarkdown("# title")).toBe("\\# title");
    expect(escapeMarkdown("chunk hr#1")).toBe("chunk hr#1");
  });
});

describe("markdownCode", () => {
  it("fences with more backticks than the text holds", () => {
    expect(markdownCode("a`b")).toBe("``a`b``");
    expect(markdownCode("`x`")).toBe("`` `x` ``");
    expect(markdownCode("plain")).toBe("`plain`");
  });
});

describe("plain text", () => {
  it("removes control characters and bidi overrides, keeps line breaks; plainLine joins lines", () => {
    expect(plainText("a\u001b[2Jb\u202ec\nd\te")).toBe("a\uFFFD[2Jb\uFFFDc\nd\te");
    expect(plainLine("a\n  b\tc")).toBe("a b c");
  });
});

describe("CSV cells", () => {
  it("neutralises formula starts and restores exactly what was written", () => {
    for (const v of ["=1+1", "+1", "-2", "@x", "\tx", "\rx", "'=x", "''-y", "plain", "", "'quoted", "a=b"]) {
      expect(restoreCsvCell(neutraliseCsvCell(v))).toBe(v);
      expect(/^[=+\-@\t\r]/.test(neutraliseCsvCell(v))).toBe(false);
    }
    expect(neutraliseCsvCell("plain")).toBe("plain");
    expect(neutraliseCsvCell("'quoted")).toBe("'quoted");
  });
});

describe("wordCount", () => {
  it("counts white-space separated pieces holding a letter or digit", () => {
    expect(wordCount("Rs 1,500 a day — thanks")).toBe(5);
    expect(wordCount("आपके मैनेजर या एचआर")).toBe(4);
  });
});
