/**
 * The openai SDK, loaded at the first request rather than at start-up.
 *
 * Loading the SDK's modules costs about 80 ms, a tenth of a cached rerun of
 * 8,000 verdicts that sends no request at all, and every offline command
 * (baseline judge, `retrieval`, `validate`) would pay it for nothing. The
 * judge client asks for it when it sends its first call; code that only
 * classifies errors reads {@link loadedSdk}, since an SDK error can only
 * exist once the SDK is loaded.
 */
type Sdk = typeof import("openai");

let loaded: Sdk | undefined;
let loading: Promise<Sdk> | undefined;

/**
 * The SDK's module, loaded once.
 *
 * @example
 * const { default: OpenAI } = await loadSdk();
 * const sdk = new OpenAI({ apiKey: "x", baseURL: "http://127.0.0.1:8000/v1" });
 */
export function loadSdk(): Promise<Sdk> {
  loading ??= import("openai").then((m) => (loaded = m));
  return loading;
}

/** The SDK's module if something has loaded it already, else undefined (never loads it). */
export function loadedSdk(): Sdk | undefined {
  return loaded;
}
