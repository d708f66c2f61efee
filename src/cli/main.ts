#!/usr/bin/env node
import { runCli } from "./program.js";

// `ragjudge ... | head` closes stdout early: that is a normal end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
