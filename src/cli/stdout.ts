import { writeProblem } from "../golden/paths.js";
import { TextSink } from "../report/text-sink.js";

/**
 * Writes a command's output to standard output as `produce` gives it, a
 * megabyte at a time, each written before the next is made. Why: through a
 * pipe (`ragjudge retrieval --format json | jq`, a CI step, a benchmark),
 * `process.stdout.write` queues whatever the reader has not taken yet, and
 * the golden-set JSON of 50,000 questions is 95 MB: the queue held most of
 * it, 190 MiB more at the peak (930 against 740 MiB), and more for a larger
 * run. Written synchronously (waiting while the pipe is full, see TextSink),
 * the output costs one buffer whatever its size, and the same bytes.
 *
 * Goes through `process.stdout.write` instead when the stream still holds
 * text written before (the order must stay), when something has put its
 * own `write` on the stream (a test capturing the output, a program that
 * embeds the CLI), or when standard output is a terminal.
 *
 * A reader that goes away (`| head`) stops the writing and the call returns:
 * the command goes on to its messages on stderr and its exit status (a
 * missed floor still exits 1). Any other failure to write (a full disk
 * behind `> file`) is the user's to fix, said in one line (exit 2).
 *
 * @example
 * writeToStdout((write) => writeRetrievalResults(views, misses, diagnostics, opts, write));
 */
export function writeToStdout(produce: (write: (text: string) => void) => void): void {
  const out = process.stdout;
  // a terminal takes its text through the stream (which also converts it for a Windows console) and never queues much
  if (out.writableLength > 0 || Object.prototype.hasOwnProperty.call(out, "write") || typeof out.fd !== "number" || out.isTTY) {
    produce((text) => void out.write(text));
    return;
  }
  const sink = new TextSink(out.fd);
  try {
    // no closure per piece: a 95 MB output comes in millions of them
    produce((text) => {
      try {
        sink.write(text);
      } catch (e) {
        throw new WriteFailed(e);
      }
    });
    try {
      sink.flush();
    } catch (e) {
      throw new WriteFailed(e);
    }
  } catch (e) {
    if (!(e instanceof WriteFailed)) throw e; // the output's own failure, not the write's
    // the reader is gone (`| head`): nothing more to write, and nothing wrong with the command
    if ((e.cause as NodeJS.ErrnoException).code === "EPIPE") return;
    throw writeProblem("standard output", e.cause);
  }
}

/** A write to standard output that failed, told apart from an error of the code producing the output. */
class WriteFailed {
  constructor(readonly cause: unknown) {}
}
