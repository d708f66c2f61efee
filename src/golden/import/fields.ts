/**
 * The fields an import row converts, each with its `--*-col` flag and the
 * columns tried by default (Ragas' names, old and new). A module of its own,
 * with no imports, so `ragjudge import --help` builds its flags from it
 * without loading the converter's schemas.
 */
export const IMPORT_FIELDS = {
  id: { flag: "--id-col", defaults: ["id", "question_id"], required: false },
  question: { flag: "--question-col", defaults: ["question", "user_input"], required: true },
  contexts: { flag: "--contexts-col", defaults: ["contexts", "retrieved_contexts"], required: true },
  answer: { flag: "--answer-col", defaults: ["answer", "response"], required: true },
  reference: { flag: "--reference-col", defaults: ["ground_truth", "reference"], required: false },
  referenceContexts: { flag: "--reference-contexts-col", defaults: ["reference_contexts"], required: false },
  split: { flag: "--split-col", defaults: ["split"], required: false },
  kind: { flag: "--kind-col", defaults: ["kind"], required: false },
  unanswerable: { flag: "--unanswerable-col", defaults: [], required: false },
} as const;
export type ImportField = keyof typeof IMPORT_FIELDS;

/** A field as people read it in help and messages: "reference contexts", not the key `referenceContexts`. */
export function fieldLabel(field: string): string {
  return field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}
