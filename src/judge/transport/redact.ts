/**
 * Keeps API keys out of everything ragjudge writes: cache rows, judgments,
 * logs and reports. Error messages from servers sometimes echo the key (or a
 * prefix of it), so every string that leaves the client passes through here.
 */

/** Shapes of bearer tokens and OpenAI-style keys. */
const KEY_SHAPES = [/\bsk-[A-Za-z0-9_*-]{6,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi];

/**
 * Returns `text` with the given secrets and anything shaped like an API key
 * replaced by `[redacted]`.
 *
 * @example
 * redact("Incorrect API key provided: sk-abc123xyz", ["sk-abc123xyz"]) // "Incorrect API key provided: [redacted]"
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join("[redacted]");
  }
  for (const re of KEY_SHAPES) out = out.replace(re, "[redacted]");
  return out;
}
