import { InputError } from "./errors.js";
import type { StageRoles } from "./schema/config.js";
import type { PipelineOutput } from "./schema/pipeline.js";

/** The role a ranked list plays in a variant's pipeline; `retrieved` is the final ranking. */
export type StageRole = "first" | "fused" | "reranked" | "pool" | "retrieved";

/** One ranked list of a pipeline output line, by name and role. */
export interface StageList {
  name: string;
  role: StageRole;
}

/**
 * The stage lists a variant declares, in pipeline order (first-stage lists,
 * fused, reranked, then a separate pool list), each name once. Roles come
 * only from the config: a list called "rerank" is not assumed to be one.
 *
 * @example
 * declaredLists({ first: ["bm25", "vector"], fused: "fused", reranked: "reranked" })
 * // [{name:"bm25",role:"first"},{name:"vector",role:"first"},{name:"fused",role:"fused"},{name:"reranked",role:"reranked"}]
 */
export function declaredLists(roles: StageRoles): StageList[] {
  const out: StageList[] = [];
  const add = (name: string | undefined, role: StageRole) => {
    if (name !== undefined && !out.some((l) => l.name === name)) out.push({ name, role });
  };
  for (const name of roles.first) add(name, "first");
  add(roles.fused, "fused");
  add(roles.reranked, "reranked");
  add(roles.pool, "pool");
  return out;
}

/**
 * The declared stage lists one output line lacks, as input problems at
 * `file:line: stages.<name>`. A missing list is bad input, never read as "the
 * chunk is absent", which would turn into a false vocabulary gap. Shared by
 * `validate` and the miss analysis so both report the same thing.
 */
export function missingStages(
  out: Pick<PipelineOutput, "stages">,
  roles: StageRoles,
  where: { file: string; line: number | undefined; variant: string },
): InputError[] {
  const problems: InputError[] = [];
  for (const { name, role } of declaredLists(roles)) {
    if (out.stages?.[name] !== undefined) continue;
    const what = role === "first" ? "first-stage" : role;
    problems.push(new InputError(where.file, where.line, `stages.${name}`, `missing: variant ${JSON.stringify(where.variant)} declares ${JSON.stringify(name)} as its ${what} list (the config's stages)`));
  }
  return problems;
}
