import type { InputError } from "../../golden/errors.js";
import { missingStages } from "../../golden/stages.js";
import type { StageRoles } from "../../golden/schema/config.js";
import type { RankedList } from "../../golden/schema/pipeline.js";
import type { VariantData } from "../../golden/dataset.js";

export { declaredLists, type StageList, type StageRole } from "../../golden/stages.js";

/** Which list pool recall is measured on, and why that one. */
export type PoolChoice =
  | { available: true; list: string; source: "pool" | "fused" | "only-first" }
  | { available: false; reason: string };

/**
 * The declared pool list: `stages.pool`, else `stages.fused`, else the only
 * first-stage list. Several first-stage lists with no fused or pool list, or
 * no stages at all, give no pool: pool recall is then unavailable rather than
 * faked from `retrieved`.
 */
export function poolList(roles: StageRoles): PoolChoice {
  if (roles.pool !== undefined) return { available: true, list: roles.pool, source: "pool" };
  if (roles.fused !== undefined) return { available: true, list: roles.fused, source: "fused" };
  if (roles.first.length === 1) return { available: true, list: roles.first[0]!, source: "only-first" };
  if (roles.first.length === 0) return { available: false, reason: "no declared pool (the variant declares no stage lists; give it stages.first, stages.fused or stages.pool in the config's variants)" };
  return { available: false, reason: `no declared pool (${roles.first.length} first-stage lists and no stages.fused or stages.pool to say which list is the pool)` };
}

/**
 * Where the best-ranked relevant chunk sits in one list:
 * `ranked` within the depth, `beyond-depth` further down a longer list,
 * `absent` when no relevant chunk is in the list at all.
 */
export type ListRank =
  | { status: "ranked"; rank: number; chunk: string }
  | { status: "beyond-depth"; rank: number; chunk: string }
  | { status: "absent" };

/**
 * The rank (from 1) of the best-ranked chunk of `wanted` in `list`, judged
 * against `depth`.
 *
 * @example
 * bestRank(["a", "b"], new Set(["b"]), 50) // {status:"ranked", rank:2, chunk:"b"}
 * bestRank(["a", "b"], new Set(["b"]), 1)  // {status:"beyond-depth", rank:2, chunk:"b"}
 */
export function bestRank(list: Readonly<RankedList>, wanted: ReadonlySet<string>, depth: number): ListRank {
  for (let i = 0; i < list.length; i++) if (wanted.has(list[i]!)) return rankOf(list, i + 1, depth);
  return { status: "absent" };
}

/**
 * {@link bestRank} for a best rank already known (undefined: none).
 *
 * @example
 * rankOf(["a", "b"], 2, 1) // {status:"beyond-depth", rank:2, chunk:"b"}
 */
export function rankOf(list: Readonly<RankedList>, rank: number | undefined, depth: number): ListRank {
  if (rank === undefined) return { status: "absent" };
  const chunk = list[rank - 1]!;
  // index rank - 1 within the depth, as bestRank reads it (a depth of 2.5 ranks three places)
  return rank - 1 < depth ? { status: "ranked", rank, chunk } : { status: "beyond-depth", rank, chunk };
}

/**
 * How many of the list's top `n` entries are in `wanted` (0 when the output
 * line has no such list): hits for P@k and recall within a depth.
 *
 * @example
 * countInTop(["a", "b", "c"], new Set(["a", "c"]), 2) // 1
 */
export function countInTop(list: Readonly<RankedList> | undefined, wanted: ReadonlySet<string>, n: number): number {
  if (!list) return 0;
  let c = 0;
  for (let i = 0; i < Math.min(n, list.length); i++) if (wanted.has(list[i]!)) c++;
  return c;
}

/**
 * True when the chunk is in the list's top `n`, whatever the depth: with a
 * depth below k, a chunk at rank depth + 1 is still in the top k.
 */
export function within(r: ListRank, n: number): boolean {
  return r.status !== "absent" && r.rank <= n;
}

/**
 * Every output line must carry every list its variant declares; a missing
 * one is bad input (named by file, line and field), never silently read as
 * "the chunk is absent", which would turn into a false vocabulary gap.
 */
export function checkDeclaredStages(variant: Pick<VariantData, "name" | "outputFile" | "outputs" | "lineOf" | "stages">): InputError[] {
  const problems: InputError[] = [];
  for (const [id, out] of variant.outputs) {
    problems.push(...missingStages(out, variant.stages, { file: variant.outputFile, line: variant.lineOf.get(id), variant: variant.name }));
  }
  return problems;
}
