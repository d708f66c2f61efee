/**
 * The one table that turns a Node file-system error code into words a user
 * can act on. Readers, writers and the CLI's last-resort handler all name a
 * user's path with these words, so one problem reads the same whichever
 * part of ragjudge met it. No imports: the CLI loads this at every start-up.
 */

/** What was being done to the path when the error came. */
export type FsDoing = "read" | "write" | "use";

/** Words for every code a user's own path can cause, whatever was being done. */
const WORDS: Readonly<Record<string, string>> = {
  ENOENT: "not found",
  ENOTDIR: "is a file, or inside one, where a folder is needed",
  EISDIR: "is a folder, where a file is needed",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EEXIST: "already exists",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  EROFS: "on a read-only file system",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
};

/**
 * Where reading or writing says more than the general words: a reader's
 * missing path is a file, a writer given a folder needs a file name, a
 * folder that "already exists" while creating folders is a file in the way,
 * and a writer refuses links (O_NOFOLLOW) rather than meeting too many.
 */
const WHEN: Readonly<Record<FsDoing, Readonly<Record<string, string>>>> = {
  read: { ENOENT: "file not found" },
  write: {
    EISDIR: "is a folder: give a file name to write",
    EEXIST: WORDS.ENOTDIR!,
    ELOOP: "refusing to write through a symbolic link",
  },
  use: {},
};

/**
 * The words for `code` met while doing `doing`, or undefined for a code
 * that is not about the user's path (then the caller decides: a reader or
 * writer says "cannot read (EIO)", the CLI treats it as a bug).
 *
 * @example
 * fsWords("EISDIR", "write") // "is a folder: give a file name to write"
 * fsWords("EISDIR", "read")  // "is a folder, where a file is needed"
 * fsWords("EIO", "use")      // undefined
 */
export function fsWords(code: string, doing: FsDoing): string | undefined {
  return WHEN[doing][code] ?? WORDS[code];
}
