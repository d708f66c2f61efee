import { findNodeAtLocation, parseTree } from "jsonc-parser";

/**
 * A config file's text with one more entry at the end of its `variants`,
 * written as the entries before it are: on a line of its own at their
 * indentation when they stand one a line (as `init` and `import` write
 * them), else after them on theirs. The rest of the text, comments and
 * layout included, is the user's and stays as it was; a formatter's edit
 * rewrote every entry of the list. The caller checks the result parses.
 *
 * @example
 * appendVariant('{"variants": [\n  { "name": "a", "output": "a.jsonl" }\n]}', { name: "b", output: "b.jsonl" })
 * // '{"variants": [\n  { "name": "a", "output": "a.jsonl" },\n  { "name": "b", "output": "b.jsonl" }\n]}'
 */
export function appendVariant(text: string, variant: { name: string; output: string }): string {
  const entry = `{ "name": ${JSON.stringify(variant.name)}, "output": ${JSON.stringify(variant.output)} }`;
  const list = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, ["variants"]);
  const last = list?.children?.at(-1);
  if (!list || !last) throw new Error("appendVariant: the config has no variants list with an entry");
  let at = last.offset + last.length;
  // a trailing comma after the last entry (allowed in a config) is kept before the new one
  const comma = /^\s*,/.exec(text.slice(at));
  const separator = comma ? "" : ",";
  if (comma) at += comma[0].length;
  const lineStart = text.lastIndexOf("\n", last.offset) + 1;
  const before = text.slice(lineStart, last.offset);
  const own = /^[ \t]*$/.test(before) ? `\n${before}` : " ";
  return text.slice(0, at) + separator + own + entry + text.slice(at);
}
