import { readdirSync } from "node:fs";
import { join, basename } from "node:path";
import { isNode, LineCounter, parseDocument, YAMLParseError } from "yaml";
import { z } from "zod";
import { InputError, InputErrors, locatedProblems } from "../../golden/errors.js";
import { readText } from "../../golden/files.js";
import { MAX_DOCUMENT_BYTES } from "../../golden/limits.js";
import { Id } from "../../golden/schema/common.js";

/** Evidence fields a rubric may ask for (see `Evidence` in golden/schema/items.ts). */
export const EvidenceField = z.enum(["question", "answer", "reference", "context", "sentence", "cited", "candidates", "answerable"]);
export type EvidenceField = z.infer<typeof EvidenceField>;

/**
 * Which items a rubric applies to:
 * - `answered`: answerable questions whose pipeline output has a non-empty answer;
 * - `answerable`: every answerable question;
 * - `all`: every golden question;
 * - `retrieval-misses`: answerable questions whose relevant chunk is outside the top k (anchor ambiguity).
 */
export const AppliesTo = z.enum(["answered", "answerable", "all", "retrieval-misses"]);

/**
 * A rubric file (`rubrics/<name>.yaml`). The prompt text lives here, not in
 * code, so a prompt change shows in a diff and changes the judge's
 * fingerprint. "yes" always means the answer behaved correctly.
 *
 * - `question`: the narrow yes/no question, shown to the judge and to labellers;
 * - `unit`: `answer` (one item per answer), `citation` (one per sentence-citation
 *   pair), or `question` (one per question, no answer involved);
 * - `system`, `user`: message templates with `{{field}}` placeholders for the
 *   evidence fields; untrusted fields are fenced when rendered;
 * - `cases`: optional text substituted for `{{case}}`, chosen by whether the
 *   question is answerable (the not-found rubric asks a different narrow question
 *   in each case while "yes" keeps meaning "behaved correctly");
 * - `optional`: not judged unless named in the config's `rubrics` list.
 */
export const RubricFile = z.strictObject({
  name: Id,
  version: z.union([z.number(), z.string()]).transform(String),
  description: z.string().optional(),
  question: z.string().min(1),
  evidence: z.array(EvidenceField).min(1),
  appliesTo: AppliesTo,
  unit: z.enum(["answer", "citation", "question"]),
  optional: z.boolean().default(false),
  cases: z.strictObject({ answerable: z.string(), unanswerable: z.string() }).optional(),
  system: z.string().min(1),
  user: z.string().min(1),
});
export type Rubric = z.infer<typeof RubricFile> & { file: string };

/**
 * A rubric file's YAML with, for each path of it, the line it is on: a
 * problem in a 60-line rubric names its line as one in a JSONL file does.
 */
function parseRubricYaml(file: string, text: string): { data: unknown; lineOf: (path: readonly PropertyKey[]) => number | undefined } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const error = doc.errors[0];
  if (error) {
    const line = error instanceof YAMLParseError ? lines.linePos(error.pos[0]).line : undefined;
    throw new InputError(file, line, undefined, `not valid YAML (${error.message.split("\n")[0]})`);
  }
  // the line of the path's node, or of its nearest ancestor that is there (a missing key: the object that lacks it)
  const lineOf = (path: readonly PropertyKey[]) => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n).map((k) => (typeof k === "symbol" ? String(k) : k)), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return isNode(doc.contents) && doc.contents.range ? lines.linePos(doc.contents.range[0]).line : undefined;
  };
  return { data: doc.toJS(), lineOf };
}

/** Reads one rubric file; the file name must match its `name`. */
export function loadRubric(file: string): Rubric {
  const { data, lineOf } = parseRubricYaml(file, readText(file, MAX_DOCUMENT_BYTES));
  const parsed = RubricFile.safeParse(data);
  if (!parsed.success) throw new InputErrors(locatedProblems(parsed.error, data, file, lineOf, RubricFile));
  const expected = basename(file).replace(/\.ya?ml$/, "");
  if (parsed.data.name !== expected) {
    throw new InputError(file, lineOf(["name"]), "name", `rubric name ${JSON.stringify(parsed.data.name)} must match its file name ${JSON.stringify(expected)}`);
  }
  return { ...parsed.data, file };
}

/**
 * Loads the rubrics of a folder. With `names`, exactly those (an unknown name
 * is an error); without, every non-optional rubric. Sorted by name.
 */
export function loadRubrics(dir: string, names?: readonly string[]): Rubric[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch {
    throw new InputError(dir, undefined, undefined, "rubrics folder not found");
  }
  const all = files.map((f) => loadRubric(join(dir, f)));
  // A name is an identity (verdicts, labels and calibration records join on it): two files of one name would silently replace each other.
  const byName = new Map<string, Rubric>();
  const clashes: InputError[] = [];
  for (const r of all) {
    const first = byName.get(r.name);
    if (first) clashes.push(new InputError(r.file, undefined, "name", `rubric name ${JSON.stringify(r.name)} is also the name of ${basename(first.file)}: names are identities, keep one file per rubric`));
    else byName.set(r.name, r);
  }
  if (clashes.length) throw new InputErrors(clashes);
  if (!names) return all.filter((r) => !r.optional);
  return names.map((n) => {
    const r = byName.get(n);
    if (!r) throw new InputError(dir, undefined, undefined, `no rubric named ${JSON.stringify(n)} (have: ${[...byName.keys()].join(", ")})`);
    return r;
  });
}
