import { InputError, InputErrors } from "../golden/errors.js";
import { MeasureSpecError, parseMeasure } from "./measures/parse.js";
import type { Measure } from "./measures/types.js";

/** A pinned minimum for one measure's overall value ("R@10 must stay >= 0.70"). */
export interface Floor {
  measure: Measure;
  min: number;
}

/** A floor the result fell below. */
export interface FloorMiss {
  label: string;
  value: number;
  min: number;
}

/**
 * How far below its floor a value may sit and still meet it: a mean of
 * fractions such as 1/7 is computed with rounding error (eight questions whose
 * true mean R@10 is 0.25 can sum to 0.24999999999999997), and a floor must not
 * fail on that.
 */
export const FLOOR_TOLERANCE = 1e-9;

/** One floor, checked: a known measure with one cutoff, and a minimum it can reach. */
function makeFloor(name: string, min: number, raw: string): Floor {
  if (!Number.isFinite(min)) throw new MeasureSpecError(`bad floor "${raw}": expected MEASURE=NUMBER, such as R@10=0.70`);
  const ms = parseMeasure(name, []);
  if (ms.length !== 1) throw new MeasureSpecError(`bad floor "${raw}": name one measure with its cutoff, such as R@10`);
  const measure = ms[0]!;
  if (measure.def.aggregation === "mean" && (min < 0 || min > 1)) {
    throw new MeasureSpecError(`bad floor "${raw}": ${measure.label} lies between 0 and 1, so its floor must too (write 0.70, not 70)`);
  }
  if (min < 0) throw new MeasureSpecError(`bad floor "${raw}": ${measure.label} is a count; its floor must be 0 or more`);
  return { measure, min };
}

/** Where the config's floors were written, so a bad one is reported at its file, line and key. */
export interface FloorsSource {
  file: string;
  /** 1-based line of a config field (ResolvedConfig.lineOf). */
  lineOf?: (path: readonly (string | number)[]) => number | undefined;
}

/**
 * The config's floors, checked one by one: the floors and, for each bad one,
 * an {@link InputError} at its line and `floors.<name>` key. The one check
 * `run`, `retrieval` and `validate` share, so a floor validate passes is one
 * run accepts.
 *
 * @example
 * checkConfigFloors({ recall: 2 }, { file: "ragjudge.config.json", lineOf }).problems[0].message
 * // 'ragjudge.config.json:41: floors.recall: bad floor "recall=2": name one measure with its cutoff, such as R@10'
 */
export function checkConfigFloors(fromConfig: Record<string, number>, source: FloorsSource): { floors: Floor[]; problems: InputError[] } {
  const floors: Floor[] = [];
  const problems: InputError[] = [];
  for (const [name, min] of Object.entries(fromConfig)) {
    try {
      floors.push(makeFloor(name, min, `${name}=${min}`));
    } catch (e) {
      if (!(e instanceof MeasureSpecError)) throw e;
      problems.push(new InputError(source.file, source.lineOf?.(["floors", name]), `floors.${name}`, e.message));
    }
  }
  return { floors, problems };
}

/**
 * Parses `--fail-under` text (`R@10=0.70,RR=0.5`) and/or the config's
 * `floors` object into floors; a later floor for the same measure replaces an
 * earlier one, so a flag overrides the config. A floor outside what its
 * measure can reach (`R@10=70`) is refused rather than failing every run.
 * With `source`, bad config floors are {@link InputError}s naming that file,
 * line and `floors` key (every one, see {@link checkConfigFloors}); flag
 * problems are {@link MeasureSpecError}s.
 *
 * @example
 * parseFloors("R@10=0.70,RR=0.5").map((f) => [f.measure.label, f.min]) // [["R@10", 0.7], ["RR", 0.5]]
 */
export function parseFloors(text?: string, fromConfig: Record<string, number> = {}, source?: FloorsSource): Floor[] {
  const out = new Map<string, Floor>();
  if (source === undefined) {
    for (const [name, min] of Object.entries(fromConfig)) {
      const f = makeFloor(name, min, `${name}=${min}`);
      out.set(f.measure.label, f);
    }
  } else {
    const { floors, problems } = checkConfigFloors(fromConfig, source);
    if (problems.length === 1) throw problems[0]!;
    if (problems.length) throw new InputErrors(problems);
    for (const f of floors) out.set(f.measure.label, f);
  }
  if (text !== undefined) {
    // An empty flag (`--fail-under "$FLOORS"` with the variable unset) must not
    // turn every floor off in CI without a word: it is refused.
    if (text.split(",").every((part) => part.trim() === "")) {
      throw new MeasureSpecError(`--fail-under names no floor${text === "" ? "" : ` ("${text}")`}: expected MEASURE=NUMBER[,MEASURE=NUMBER...], such as R@10=0.70; leave the flag out for no floors`);
    }
    for (const part of text.split(",")) {
      if (part.trim() === "") continue;
      const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(part);
      if (!m) throw new MeasureSpecError(`bad floor "${part.trim()}": expected MEASURE=NUMBER, such as R@10=0.70`);
      const f = makeFloor(m[1]!, Number(m[2]), part.trim());
      out.set(f.measure.label, f);
    }
  }
  return [...out.values()];
}

/**
 * The floors whose measure's value is below the floor (by more than
 * {@link FLOOR_TOLERANCE}); a floor whose measure was not computed is skipped.
 */
export function checkFloors(floors: readonly Floor[], valueOf: (label: string) => number | undefined): FloorMiss[] {
  const misses: FloorMiss[] = [];
  for (const f of floors) {
    const v = valueOf(f.measure.label);
    if (v === undefined) continue;
    if (v < f.min - FLOOR_TOLERANCE) misses.push({ label: f.measure.label, value: v, min: f.min });
  }
  return misses;
}

/**
 * The value of a missed floor as the message shows it: 4 decimals, or as
 * many more as it takes to show that it is below the floor (0.69996 against
 * 0.7 is "0.69996", not "0.7000", which would read as meeting it).
 *
 * @example
 * formatMissedValue({ label: "R@10", value: 0.69996, min: 0.7 }) // "0.69996"
 */
export function formatMissedValue(miss: FloorMiss): string {
  for (let d = 4; d <= 17; d++) {
    const s = miss.value.toFixed(d);
    if (Number(s) < miss.min) return s;
  }
  return String(miss.value);
}
