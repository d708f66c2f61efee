import { closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { ResolvedConfig } from "../golden/config.js";
import { checkFolder, writeProblem } from "../golden/paths.js";
import { hostTag, pidAlive } from "../golden/process.js";
import { TextSink, writeContent, type FileContent } from "./text-sink.js";

/** The file every complete evaluation folder holds; `compare` and `latestEvaluation` look for it. */
export const REPORT_FILE = "report.json";

/**
 * The UTC time stamp of an evaluation folder's name: sortable, no colons.
 *
 * @example
 * folderStamp(new Date("2026-11-30T13:45:01.250Z")) // "20261130T134501Z"
 */
export function folderStamp(d: Date): string {
  return d.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/**
 * A name made safe for a folder on every file system: letters, digits,
 * `.`, `_` and `-`; anything else becomes `-`.
 *
 * @example
 * safeName("hybrid rerank / v2") // "hybrid-rerank-v2"
 */
export function safeName(name: string): string {
  const s = name.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "");
  return s || "evaluation";
}

/**
 * An evaluation folder being written: files go into a hidden temporary
 * folder beside the final one, which appears under its final name only when
 * {@link EvaluationFolder.commit} renames it, so a reader (or `compare`)
 * never sees half an evaluation, and a failed run leaves nothing behind.
 */
export class EvaluationFolder {
  private readonly files: string[] = [];
  private committed = false;

  private constructor(
    /** The final folder (does not exist until commit). */
    readonly path: string,
    /** The temporary folder being filled. */
    readonly tmp: string,
  ) {}

  /**
   * Starts `<dir>/<stamp>-<name>`; when that exists (two runs in one
   * second), `-2`, `-3`... is appended.
   */
  static start(dir: string, name: string, time: Date): EvaluationFolder {
    checkFolder(dir, "the evaluations folder", { create: true });
    removeAbandoned(dir);
    const base = `${folderStamp(time)}-${safeName(name)}`;
    let final = join(dir, base);
    for (let i = 2; existsSync(final); i++) final = join(dir, `${base}-${i}`);
    const tmp = join(dir, `.${base}.${process.pid}.${Date.now()}.${hostTag()}.tmp`);
    try {
      mkdirSync(tmp);
    } catch (e) {
      throw writeProblem(tmp, e);
    }
    return new EvaluationFolder(final, tmp);
  }

  /** The folder's name (`<stamp>-<name>`). */
  get name(): string {
    return this.path.slice(dirname(this.path).length + 1);
  }

  /**
   * Writes one new file (path relative to the folder, `/`-separated),
   * flushed to disk before the folder is renamed into place, and records it.
   * The content may come in pieces (text-sink.ts): large files are never
   * held as one string.
   */
  write(rel: string, content: FileContent): void {
    this.writeAt(this.at(rel), content);
    this.files.push(rel);
  }

  private sink?: TextSink;

  /** Called between writes of the folder's files, every megabyte or so (see TextSink). */
  onFlush?: () => void;

  private writeAt(abs: string, content: FileContent): void {
    try {
      const fd = openSync(abs, "wx");
      try {
        writeContent((this.sink ??= new TextSink(fd, undefined, () => this.onFlush?.())).retarget(fd), content);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw writeProblem(abs, e); // a full disk is the user's to fix (exit 2), not a bug
    }
  }

  /** Writes through a function that creates the file itself (for example a calibration record); records it. */
  writeWith(rel: string, make: (absolute: string) => void): void {
    const abs = this.at(rel);
    make(abs);
    if (!existsSync(abs)) throw new Error(`internal: ${rel} was not written`);
    this.files.push(rel);
  }

  /** Absolute path of a file inside the temporary folder (its parent is created). */
  at(rel: string): string {
    const abs = join(this.tmp, ...rel.split("/"));
    mkdirSync(dirname(abs), { recursive: true });
    return abs;
  }

  /** Every file written so far, plus `extra`, sorted: the list report.json carries. */
  list(extra: readonly string[] = []): string[] {
    return [...new Set([...this.files, ...extra])].sort();
  }

  /**
   * Writes the last file (to a temporary name, renamed when complete) and
   * renames the folder into place.
   */
  commit(lastRel: string, content: FileContent): string {
    const abs = this.at(lastRel);
    const part = `${abs}.${process.pid}.part`;
    this.writeAt(part, content);
    renameSync(part, abs);
    this.files.push(lastRel);
    renameSync(this.tmp, this.path);
    this.committed = true;
    return this.path;
  }

  /** Removes the temporary folder (after a failure); a no-op after commit. */
  discard(): void {
    if (!this.committed) rmSync(this.tmp, { recursive: true, force: true });
  }
}

/**
 * The hidden folder of a run being written: `.<stamp>-<name>.<pid>.<ms>.<host tag>.tmp`
 * (older versions wrote no host tag).
 */
const TEMP_FOLDER = /^\.\d{8}T\d{6}Z-.+\.(\d+)\.\d+(?:\.([0-9a-f]{8}))?\.tmp$/;

/** A temporary folder of another host is left alone unless it is this old (no write takes a day). */
const FOREIGN_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the hidden folders that killed runs left behind (a run killed
 * while writing never renames its folder into place): those of this host
 * whose process is gone, and any older than a day. A live run's folder,
 * and anything not named like one, is left alone.
 */
export function removeAbandoned(dir: string, alive: (pid: number) => boolean = pidAlive, now = Date.now()): string[] {
  const removed: string[] = [];
  const mine = hostTag();
  for (const n of readdirSync(dir)) {
    const m = TEMP_FOLDER.exec(n);
    if (!m) continue;
    const p = join(dir, n);
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    const here = m[2] === undefined || m[2] === mine;
    const gone = here ? !alive(Number(m[1])) : now - st.mtimeMs > FOREIGN_MAX_AGE_MS;
    if (!gone) continue;
    rmSync(p, { recursive: true, force: true });
    removed.push(n);
  }
  return removed;
}

/**
 * The newest complete evaluation in a folder: the last by name (names start
 * with the UTC time) among visible sub-folders holding report.json, or
 * undefined when there is none.
 */
export function latestEvaluation(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const names = readdirSync(dir)
    .filter((n) => !n.startsWith("."))
    .filter((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() && existsSync(join(p, REPORT_FILE));
    })
    .sort();
  const last = names[names.length - 1];
  return last === undefined ? undefined : join(dir, last);
}

/**
 * Where a config's evaluation folders go: its `evaluationsDir`, relative to
 * the config's folder, except for the shipped example (`--example`): then
 * relative to the working directory, so a run never writes into the
 * installed package.
 *
 * @example
 * configEvaluationsDir(loadConfig(flags.config)) // "/work/project/evaluations"
 */
export function configEvaluationsDir(resolved: Pick<ResolvedConfig, "config" | "outPath">): string {
  return resolved.outPath(resolved.config.evaluationsDir);
}

/** A path relative to `from` with `/` separators (for report.json and messages). */
export function relPath(from: string, to: string): string {
  return relative(from, to).split(sep).join("/") || ".";
}
