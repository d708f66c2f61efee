import { createInterface } from "node:readline";
import { styleText } from "node:util";
import { displayPath } from "../golden/errors.js";
import type { Segment } from "./highlight.js";
import { ReviewRequestError, type ReviewSession } from "./session.js";
import type { ChunkView, ItemView } from "./view.js";

/** Streams the terminal review talks through (stdin/stdout, or test streams). */
export interface TtyIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** ANSI styling; default: output is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** The command that resumes this review, printed when it ends with items to go (default: "the same command"). */
  resume?: string;
}

/**
 * Makes untrusted text safe to print: control characters (an ESC could
 * rewrite the screen or the window title) and bidirectional overrides (which
 * can reorder what is displayed) are shown as `<U+XXXX>`; line breaks and
 * tabs stay.
 *
 * @example
 * safeTerminalText("a\u001b[2Jb") // "a<U+001B>[2Jb"
 */
export function safeTerminalText(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`);
}

const HELP = [
  "  y [note]   label yes (yes works too; anything after it and a space is saved as a note)",
  "  n [note]   label no (no works too)",
  "  s          skip (comes back at the end; not a label)",
  "  b / f      back / forward one item without answering",
  "  g N        go to item N",
  "  v          show the judge's verdict: on this item once you have labelled it, or, right after",
  "             an answer, on the item you just answered (never before you answer)",
  "  q          quit (every label is already saved)",
].join("\n");

type Style = Parameters<typeof styleText>[0];

/**
 * The review flow in a terminal, for remote shells: the same queue, labels,
 * skips and resume point as the web page, one item at a time, reading one
 * command per line. Labels are durable before the next item prints. Ends on
 * `q` or end of input.
 *
 * @example
 * await runTtyReview(session, { input: process.stdin, output: process.stdout });
 */
export async function runTtyReview(session: ReviewSession, io: TtyIo): Promise<void> {
  const color = io.color ?? (Boolean((io.output as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR);
  const paint = (style: Style, s: string) => (color ? styleText(style, s) : s);
  const out = (s = "") => io.output.write(s + "\n");

  const segments = (segs: Segment[]) =>
    segs
      .map((s) => {
        const t = safeTerminalText(s.text);
        if (s.mark === "anchor") return color ? paint(["underline", "cyan"], t) : `»${t}«`;
        if (s.mark === "cite") return paint("yellow", t);
        if (s.mark === "cite-unknown") return paint("red", t) + (color ? "" : "(?)");
        return t;
      })
      .join("");
  const indent = (s: string, pad = "  ") => s.split("\n").map((l) => pad + l).join("\n");
  const chunk = (c: ChunkView) => {
    const flags = [c.position === undefined ? "" : c.position > 0 ? `[${c.position}]` : "(not in the context)", safeTerminalText(c.id)].filter(Boolean);
    if (c.heading) flags.push(`· ${safeTerminalText(c.heading)}`);
    if (c.cited) flags.push(paint("yellow", "*cited*"));
    if (c.hasAnchor) flags.push(paint("cyan", "*anchor*"));
    out(`  ${flags.join(" ")}`);
    out(indent(segments(c.text), "    "));
  };

  const show = (v: ItemView) => {
    const c = session.counts();
    out();
    out(paint("bold", `── item ${v.index + 1} of ${v.total} ── ${c.labelled} labelled, ${c.skipped} skipped, ${c.open} to go ──`));
    out(paint("dim", `${safeTerminalText(v.item.variant)} / ${safeTerminalText(v.item.question)} / ${safeTerminalText(v.item.rubric)} / ${safeTerminalText(v.item.unit)}`));
    out(paint("bold", `RUBRIC: ${safeTerminalText(v.rubricQuestion)}`));
    if (v.rubricGuidance) out(indent(safeTerminalText(v.rubricGuidance)));
    out(`${paint("bold", "QUESTION:")} ${safeTerminalText(v.questionText)}`);
    if (v.answerable !== undefined) out(`  (the golden set says the documents ${v.answerable ? "hold an answer" : 'hold NO answer: the right output is "not found"'})`);
    if (v.answer) out(`${paint("bold", v.claim ? `CLAIM ${v.claim} OF THE ANSWER (label this claim alone):` : "ANSWER:")}\n${indent(segments(v.answer))}`);
    if (v.sentence) out(`${paint("bold", "SENTENCE JUDGED:")}\n${indent(segments(v.sentence))}`);
    if (v.reference !== undefined) out(`${paint("bold", "REFERENCE:")}\n${indent(safeTerminalText(v.reference))}`);
    if (v.anchor) out(`${paint("bold", "ANCHOR:")} ${safeTerminalText(v.anchor.text)} (in ${safeTerminalText(v.anchor.doc)})`);
    if (v.cited) {
      out(paint("bold", "CITED CHUNK:"));
      chunk(v.cited);
    }
    if (v.context) {
      out(paint("bold", "CONTEXT:"));
      v.context.forEach(chunk);
    }
    if (v.candidates) {
      out(paint("bold", "TOP-RANKED CHUNKS WITHOUT THE ANCHOR:"));
      v.candidates.forEach(chunk);
    }
    if (v.label) out(paint("green", `You labelled this "${v.label.label}"${v.label.note ? ` (note: ${safeTerminalText(v.label.note)})` : ""}; answer again to replace it, v to see the judge.`));
    else if (v.skipped) out(paint("dim", "You skipped this item earlier."));
  };

  const reveal = (i: number, title?: string) => {
    const r = session.reveal(i);
    if (title) out(paint("bold", title));
    if (r.judgments.length === 0) out("No judge verdict for this item and input hash in the judgments file.");
    for (const j of r.judgments) {
      out(`Judge (${j.judgeWords}${j.model ? " " + safeTerminalText(j.model) : ""}${j.repeat ? `, repeat ${j.repeat}` : ""}): ${j.verdict}${j.error ? ` [${safeTerminalText(j.error)}]` : ""}${j.pYes !== undefined ? ` (P(yes) ${j.pYes.toFixed(2)})` : ""} — ${safeTerminalText(j.reason)}`);
    }
    out(paint("dim", `Sampled by frame "${r.frame}"${r.stratum ? `, stratum ${safeTerminalText(r.stratum)}` : ""}${r.inclusionProbability ? `, inclusion probability ${r.inclusionProbability.toPrecision(3)}` : ""}.`));
  };

  let index = session.startIndex();
  /**
   * The item answered by the last command, while the cursor sits on the item
   * that answer moved it to: `v` there reveals the answered one (the current
   * one is still unanswered, so its verdict stays hidden). Answering, skipping
   * or moving clears it.
   */
  let justAnswered: number | null = null;
  const prompt = () => {
    if (index >= session.total) {
      const c = session.counts();
      out();
      out(paint("bold", `Queue done: ${c.labelled} of ${c.total} labelled, ${c.skipped} skipped. b goes back, g N goes to item N, q quits.`));
    } else {
      const v = session.view(index);
      show(v);
      out(paint("bold", `→ ${safeTerminalText(v.rubricQuestion)}`));
    }
    io.output.write("y/n [note], s skip, b/f back/forward, v judge, q quit, ? help > ");
  };

  const rl = createInterface({ input: io.input, terminal: false, crlfDelay: Infinity });
  prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      const cmd = line.slice(0, 1).toLowerCase();
      const rest = line.slice(1).trim();
      const atItem = index < session.total;
      const answer = parseAnswer(line);
      try {
        if (answer && atItem) {
          const v = session.view(index);
          session.answer(index, v.inputHash, answer.label, answer.note);
          out(paint("green", `Saved "${answer.label}" for item ${index + 1}; type v next to see the judge's verdict on it.`));
          const note = session.gateNote(index, v.label?.label, answer.label);
          if (note) out(paint("dim", `Note: ${note}.`));
          justAnswered = index;
          index = session.nextAfter(index);
        } else if (cmd === "v" && rest === "" && justAnswered !== null && (!atItem || session.state(index) !== "labelled")) {
          const a = session.view(justAnswered).item;
          reveal(justAnswered, `Judge on item ${justAnswered + 1}, the one you just answered (${safeTerminalText(a.question)} / ${safeTerminalText(a.rubric)} / ${safeTerminalText(a.unit)}):`);
          io.output.write("> ");
          continue;
        } else if (cmd === "s" && rest === "" && atItem) {
          session.skip(index, session.view(index).inputHash);
          index = session.nextAfter(index);
          justAnswered = null;
        } else if (cmd === "b" && rest === "") [index, justAnswered] = [Math.max(0, index - 1), null];
        else if (cmd === "f" && rest === "") [index, justAnswered] = [Math.min(session.total, index + 1), null];
        else if (cmd === "g" && /^\d+$/.test(rest)) {
          // Item numbers are 1..total: anything else is said, not clamped to an item the user did not ask for.
          const n = Number(rest);
          if (n < 1 || n > session.total) {
            out(paint("red", `No item ${rest}: the queue's items are 1 to ${session.total}.`));
            io.output.write("> ");
            continue;
          }
          [index, justAnswered] = [n - 1, null];
        }
        else if (cmd === "v" && rest === "" && atItem) {
          reveal(index);
          io.output.write("> ");
          continue;
        } else if (cmd === "q" && rest === "") break;
        else {
          if (line !== "") out(line === "?" ? HELP : `Not a command: ${JSON.stringify(safeTerminalText(line))}\n${HELP}`);
          io.output.write("> ");
          continue;
        }
      } catch (e) {
        if (!(e instanceof ReviewRequestError)) throw e;
        out(paint("red", e.message));
        io.output.write("> ");
        continue;
      }
      prompt();
    }
  } finally {
    rl.close();
  }
  const c = session.counts();
  out();
  // Resuming only helps while items are open: with none left, say the queue is done instead of sending the user back to it.
  if (c.open > 0) out(`${c.labelled} of ${c.total} labelled, ${c.skipped} skipped, ${c.open} to go. Labels are in ${displayPath(session.labelsDir)}; ${io.resume ? `to resume, run:\n  ${io.resume}` : "run the same command to resume."}`);
  else out(`Queue done: ${c.labelled} of ${c.total} labelled, ${c.skipped} skipped. Labels are in ${displayPath(session.labelsDir)}.${c.skipped > 0 ? " Skipped items stay unlabelled: run the same command again to start at the first of them (or type g N to go to item N)." : ""}`);
}

/**
 * Reads an answer line: `y`/`n` or the words `yes`/`no` (any case), then an
 * optional note after a space. Whole words only, so a mistyped command such
 * as `yy` or `nope` is refused rather than saved as a label, and a piped
 * answer never shifts onto the next item.
 *
 * @example
 * parseAnswer("Yes looks right") // { label: "yes", note: "looks right" }
 * parseAnswer("nope")            // null
 */
export function parseAnswer(line: string): { label: "yes" | "no"; note?: string } | null {
  const m = /^(y|yes|n|no)(?:\s+(.*))?$/i.exec(line.trim());
  if (!m) return null;
  const note = m[2]?.trim();
  return { label: m[1]!.toLowerCase().startsWith("y") ? "yes" : "no", ...(note ? { note } : {}) };
}
