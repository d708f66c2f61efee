import { existsSync, lstatSync, mkdirSync, realpathSync, statSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { displayPath, InputError } from "./errors.js";
import { fsWords } from "./fs-words.js";

/**
 * Where a write may go. Every writer resolves its target through here before
 * writing anything, so a path the user got wrong (a folder named as a file,
 * a file named as a folder, a symbolic link leading out of a folder ragjudge
 * owns) is one InputError naming it (exit 2), found before any work is done
 * and never after a temporary file was left behind.
 */

const isOutside = (rel: string) => rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);

/** True when `child` is `root` or lies inside it (both absolute, resolved). */
export function isInside(root: string, child: string): boolean {
  return !isOutside(relative(root, child));
}

/**
 * The file-system error of a write as the problem a user can act on; any
 * error without an errno code (a bug) is returned unchanged.
 *
 * @example
 * try { renameSync(tmp, file) } catch (e) { throw writeProblem(file, e) }
 */
export function writeProblem(file: string, e: unknown): unknown {
  if (e instanceof InputError) return e;
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return e;
  const why = fsWords(code, "write") ?? `cannot write (${code})`;
  return new InputError(file, undefined, undefined, why);
}

function lstatOrUndefined(path: string, shown: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    throw writeProblem(shown, e);
  }
}

/** Refuses a path whose nearest existing ancestor is a file (so its folder could never be made). */
function checkAncestors(path: string, shown: string): void {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError(shown, undefined, undefined, fsWords("ENOTDIR", "write")!);
}

/**
 * Checks that `dir` is, or can become, a folder, and returns it resolved:
 * an existing file there, or a file on the way to it, is an InputError
 * naming it and `what` it was meant to be. Creates nothing (pass
 * `create: true` to make it).
 *
 * @example
 * checkFolder(flags.cacheDir, "the cache folder")
 * // "/work/proj/x: is a file, not a folder: the cache folder must be a folder"
 */
export function checkFolder(dir: string, what: string, options: { create?: boolean } = {}): string {
  const abs = resolve(dir);
  let st: Stats | undefined;
  try {
    st = statSync(abs, { throwIfNoEntry: false });
  } catch (e) {
    throw writeProblem(dir, e);
  }
  if (st && !st.isDirectory()) throw new InputError(dir, undefined, undefined, `is a file, not a folder: ${what} must be a folder`);
  if (!st) checkAncestors(abs, dir);
  if (options.create && !st) {
    try {
      mkdirSync(abs, { recursive: true });
    } catch (e) {
      throw writeProblem(dir, e);
    }
  }
  return abs;
}

/**
 * Resolves the file a whole-file write replaces, refusing what must not be
 * replaced: a folder, a named pipe, device or socket, a symbolic link that
 * leads out of its own folder (a link to a file beside it is followed, so
 * the write lands in the linked file), and a path under a file. With
 * `within`, the target must also resolve inside that folder, through no
 * symbolic link at all (see {@link confinedPath}). With `create` the
 * target's folder is made; without, nothing is (a check before any work).
 *
 * @example
 * writableTarget("out/judgments.jsonl", { create: false }) // "/abs/out/judgments.jsonl", or throws
 */
export function writableTarget(file: string, options: { within?: string; create?: boolean } = {}): string {
  const create = options.create ?? true;
  let target = resolve(file);
  if (options.within !== undefined) target = confinedPath(options.within, relative(resolve(options.within), target), { create });
  else {
    checkAncestors(target, file);
    if (create) {
      try {
        mkdirSync(dirname(target), { recursive: true });
      } catch (e) {
        throw writeProblem(file, e);
      }
    }
  }
  let st = lstatOrUndefined(target, file);
  if (st?.isSymbolicLink()) {
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      throw new InputError(file, undefined, undefined, "is a symbolic link to a file that does not exist: refusing to write through it");
    }
    if (!isInside(realpathSync(dirname(target)), real)) {
      throw new InputError(file, undefined, undefined, `is a symbolic link to ${real}, outside its folder: refusing to write through it`);
    }
    target = real;
    st = lstatOrUndefined(target, file);
  }
  if (st?.isDirectory()) throw new InputError(file, undefined, undefined, fsWords("EISDIR", "write")!);
  if (st && !st.isFile()) throw new InputError(file, undefined, undefined, "is not a regular file (a named pipe, device or socket): refusing to write to it");
  return target;
}

/**
 * Resolves `name` inside `dir` and refuses anything that would land outside
 * it (`..`, absolute paths, a sub-folder that links elsewhere, a symbolic
 * link planted at the target). Writers into folders ragjudge owns (the
 * labels folder and its calibration records, the review's progress, the
 * judge cache) build every path through this, so neither a request nor a
 * planted link can make them write outside. `folder` names the folder in
 * messages.
 *
 * With `create` (the default, for a write) the folders on the way are
 * created; without it (for a read, or a check before any work) nothing is
 * created: a folder that does not exist yet holds nothing to read, and only
 * the parts that exist are checked for links leading out.
 *
 * @example
 * confinedPath("labels", "asha.jsonl")   // "/abs/labels/asha.jsonl"
 * confinedPath("labels", "../x.jsonl")   // throws
 * confinedPath("labels", ".review/asha.skips.jsonl", { create: false }) // creates no folder
 */
export function confinedPath(dir: string, name: string, options: { create?: boolean; folder?: string } = {}): string {
  const create = options.create ?? true;
  const folder = options.folder ?? "the labels folder";
  const refuse = (why: string) => new InputError(dir, undefined, undefined, `refusing to write ${JSON.stringify(name.split(sep).join("/"))}: ${why}`);
  const lexical = relative(resolve(dir), resolve(dir, name));
  if (lexical === "" || isOutside(lexical)) throw refuse(`outside ${folder}`);
  if (create) checkFolder(dir, folder, { create: true });
  else if (!existsSync(dir)) return resolve(dir, name);
  const root = realpathSync(dir);
  const target = resolve(root, name);
  const rel = relative(root, target);
  if (rel === "" || isOutside(rel)) throw refuse(`outside ${folder}`);
  // A sub-folder (".review", "calibration") that is a link to elsewhere would also escape.
  if (create) checkFolder(dirname(target), "its folder", { create: true });
  else if (!existsSync(dirname(target))) return target;
  if (!isInside(root, realpathSync(dirname(target)))) throw refuse(`its folder links outside ${folder}`);
  // lstat, not exists: a dangling link must be refused too.
  if (lstatOrUndefined(target, target)?.isSymbolicLink()) {
    throw new InputError(target, undefined, undefined, `refusing to write through a symbolic link in ${folder}`);
  }
  return target;
}

/** A file or folder a command reads, which none of its outputs may replace: `what` names it in the message. */
export interface ReadPath {
  path: string;
  what: string;
  /** A folder: nothing inside it may be written either. */
  folder?: boolean;
  /**
   * Who reads it, when not this command ("ragjudge": a file the config names
   * for other commands, such as the judge cache for `sample`); the message
   * says "which this command reads" without it.
   */
  readBy?: string;
}

/** A path with its symbolic links resolved, as far as it exists (a file not made yet: its folder's real path). */
function canonical(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/**
 * Refuses a write target that is one of the files a command reads, or lies
 * inside a folder it reads (the labels folder): `sample --out
 * ragjudge.config.json` replaced the config with a review queue without a
 * word. `shown` names the target as the user gave it.
 *
 * @example
 * refuseOverInput(target, flags.out, configInputs(cfg))
 * // ragjudge.config.json: is the config file this command reads: give another file to write
 */
export function refuseOverInput(target: string, shown: string, reads: readonly ReadPath[]): void {
  const real = canonical(target);
  for (const r of reads) {
    const p = canonical(r.path);
    if (r.folder ? isInside(p, real) : p === real) {
      const where = r.folder ? `lies in ${r.what} (${displayPath(r.path)})` : `is ${r.what}`;
      throw new InputError(shown, undefined, undefined, `${where}, which ${r.readBy ?? "this command"} reads: give another file to write`);
    }
  }
}

/**
 * Checks where a whole output file (a review queue, a CSV or TREC export) is
 * to be written, before any work: a writable file (not a folder, pipe or
 * link out of its folder) that is none of `reads` (see
 * {@link refuseOverInput}). `sample --out golden` used to record its draws
 * first and refuse the folder after; `labels export --out
 * ragjudge.config.json` replaced the config. Creates nothing; returns the
 * path to write.
 *
 * @example
 * const out = outputTarget(flags.out, configInputs(cfg)); // ... work ...; writeOutputFile(out, text)
 */
export function outputTarget(file: string, reads: readonly ReadPath[]): string {
  const target = writableTarget(file, { create: false });
  refuseOverInput(target, file, reads);
  return target;
}
