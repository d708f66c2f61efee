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
 * Parses `--fail-under` text (`R@10=0.70,RR=0.5`) and/or the config's
 * `floors` object into floors; a later floor for the same measure replaces an
 * earlier one, so a flag overrides the config.
 *
 * @example
 * parseFloors("R@10=0.70,RR=0.5").map((f) => [f.measure.label, f.min]) // [["R@10", 0.7], ["RR", 0.5]]
 */
export function parseFloors(text?: string, fromConfig: Record<string, number> = {}): Floor[] {
  const out = new Map<string, Floor>();
  const add = (name: string, min: number, raw: string) => {
    if (!Number.isFinite(min)) throw new MeasureSpecError(`bad floor "${raw}": expected MEASURE=NUMBER, such as R@10=0.70`);
    const ms = parseMeasure(name, []);
    if (ms.length !== 1) throw new MeasureSpecError(`bad floor "${raw}": name one measure with its cutoff, such as R@10`);
    out.set(ms[0]!.label, { measure: ms[0]!, min });
  };
  for (const [name, min] of Object.entries(fromConfig)) add(name, min, `${name}=${min}`);
  if (text !== undefined) {
    for (const part of text.split(",")) {
      if (part.trim() === "") continue;
      const m = /^\s*([^=\s]+)\s*=\s*([^=\s]+)\s*$/.exec(part);
      if (!m || m[2]!.trim() === "") throw new MeasureSpecError(`bad floor "${part.trim()}": expected MEASURE=NUMBER, such as R@10=0.70`);
      add(m[1]!, Number(m[2]), part.trim());
    }
  }
  return [...out.values()];
}

/** The floors whose measure's value is below the floor. */
export function checkFloors(floors: readonly Floor[], valueOf: (label: string) => number | undefined): FloorMiss[] {
  const misses: FloorMiss[] = [];
  for (const f of floors) {
    const v = valueOf(f.measure.label);
    if (v === undefined) continue;
    if (v < f.min) misses.push({ label: f.measure.label, value: v, min: f.min });
  }
  return misses;
}
