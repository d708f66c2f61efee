import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { InputError } from "../../src/golden/errors.js";
import { readText } from "../../src/golden/files.js";

/** A `##` section of a document (or the text before the first one), as offsets into the document text. */
export interface Section {
  /** The `##` heading, or undefined for the text between the title and the first `##`. */
  heading: string | undefined;
  /** Offsets of the section body (after the heading line) in {@link Doc.text}. */
  start: number;
  end: number;
}

/** One corpus document: a markdown file with a `#` title and `##` sections. */
export interface Doc {
  /** File name without `.md`; the `doc` of chunks and anchors. */
  id: string;
  title: string;
  /** The file's text (BOM dropped, line ends LF). Chunk texts are slices of it. */
  text: string;
  sections: Section[];
}

/**
 * Parses one markdown document. The first line must be a `# ` title; `## `
 * lines open sections; `#` inside code fences is not a heading.
 *
 * @example
 * parseDoc("hr-leave", "# Leave\n\nIntro.\n\n## Sick leave\n\nTen days.\n").sections.length // 2
 */
export function parseDoc(id: string, text: string, file = `${id}.md`): Doc {
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  if (!first.startsWith("# ")) throw new InputError(file, 1, undefined, "a corpus document must start with a '# ' title line");
  const title = first.slice(2).trim();
  const sections: Section[] = [];
  let offset = first.length + 1;
  let current: Section = { heading: undefined, start: offset, end: offset };
  let inFence = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("```")) inFence = !inFence;
    if (!inFence && line.startsWith("## ")) {
      current.end = offset;
      sections.push(current);
      current = { heading: line.slice(3).trim(), start: offset + line.length + 1, end: 0 };
    } else if (!inFence && /^#\s/.test(line)) {
      throw new InputError(file, i + 1, undefined, "only one '# ' title per document; use '## ' for sections");
    }
    offset += line.length + 1;
  }
  if (inFence) throw new InputError(file, undefined, undefined, "unclosed ``` code fence");
  current.end = Math.min(offset, text.length);
  sections.push(current);
  return { id, title, text, sections: sections.filter((s) => s.heading !== undefined || text.slice(s.start, s.end).trim() !== "") };
}

/** Loads every `*.md` file of a folder except `SOURCES.md` and `README.md`, sorted by id. */
export function loadCorpus(dir: string): Doc[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== "SOURCES.md" && f !== "README.md")
    .sort();
  if (files.length === 0) throw new InputError(dir, undefined, undefined, "no .md documents in the corpus folder");
  return files.map((f) => parseDoc(basename(f, ".md"), readText(join(dir, f)), join(dir, f)));
}
