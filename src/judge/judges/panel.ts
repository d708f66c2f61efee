import type { RagjudgeConfig } from "../../golden/schema/config.js";
import { membersOf, type PanelJudgeConfig } from "../../golden/schema/panel.js";
import { JudgeSetupError } from "../transport/endpoint.js";
import { panelJudgeKnobs } from "../transport/knobs.js";
import { baselineBackend, baselineUnsupported } from "./baseline.js";
import { constantJudge } from "./constant.js";
import { combinedJudge, type CombinedJudge } from "./combined.js";
import type { Judge } from "./judge.js";
import { llmBackend, type ResponseModeMemory } from "./llm.js";
import { resolveJudge, type OpenAISettings } from "./settings.js";
import type { Rubric } from "../rubric/rubric.js";

/**
 * The config's `judges` as judge records, members before the judges that
 * combine them. Each LLM judge gets its own client (its endpoint's
 * concurrency, timeout and retries); combined judges compose the records of
 * their members, so a member judged once is never called again for them.
 */

/** The USD per million tokens of one model. */
export interface PanelPrice {
  input: number;
  output: number;
}

/** One judge of a panel, ready to run. */
export interface PanelEntry {
  /** The panel name (config `judges[].name`). */
  name: string;
  kind: PanelJudgeConfig["kind"];
  judge: Judge;
  /** Set for a combined judge (majority, unanimous, cascade). */
  combined?: CombinedJudge;
  /** Calls in flight at most (this judge's endpoint). */
  concurrency: number;
  /** USD per million tokens: the judge's `price`, else the config's `prices` for its model; 0 for the baseline; undefined when unknown. */
  price?: PanelPrice;
  /** The LLM settings of a leaf LLM judge (endpoint and model). */
  settings?: OpenAISettings;
}

/** The panel's judges in an order where every member comes before the judges that combine it. */
export function panelOrder(judges: readonly PanelJudgeConfig[]): PanelJudgeConfig[] {
  const byName = new Map(judges.map((j) => [j.name, j]));
  const out: PanelJudgeConfig[] = [];
  const seen = new Set<string>();
  const visit = (j: PanelJudgeConfig) => {
    if (seen.has(j.name)) return;
    seen.add(j.name);
    for (const m of membersOf(j)) visit(byName.get(m)!);
    out.push(j);
  };
  for (const j of judges) visit(j);
  return out;
}

/**
 * The config block of the run's main judge when only `judges` is given: the
 * first leaf (openai or baseline) of the panel, so `judge` stays optional.
 */
export function mainJudgeOf(config: RagjudgeConfig): RagjudgeConfig["judge"] {
  if (config.judge || !config.judges) return config.judge;
  const leaf = config.judges.find((j) => j.kind === "openai" || j.kind === "baseline");
  if (!leaf) return undefined;
  if (leaf.kind === "baseline") return { kind: "baseline" };
  const { name: _name, price: _price, ...rest } = leaf;
  return { ...rest, repeats: 1 };
}

type OpenAIPanelJudge = Extract<PanelJudgeConfig, { kind: "openai" }>;

/** A panel model judge's settings as `judge` would give them (endpoint and key from the environment); a setup error names the judge. */
function panelJudgeSettings(j: OpenAIPanelJudge, config: RagjudgeConfig, env: NodeJS.ProcessEnv = process.env): OpenAISettings {
  const { name: _name, price: _price, ...judge } = j;
  try {
    return resolveJudge({ ...config, judge: { ...judge, repeats: 1 } }, {}, env) as OpenAISettings;
  } catch (e) {
    if (e instanceof JudgeSetupError) throw new JudgeSetupError(`judges: ${j.name}: ${e.message}`);
    throw e;
  }
}

/**
 * Checks that every model judge of the panel can be set up (its endpoint and
 * its key in the environment) before any judge runs: a key missing for the
 * panel's third judge stopped the run only after the main judge had made
 * every call. Throws {@link JudgeSetupError} naming the judge.
 */
export function checkPanelSetup(judges: readonly PanelJudgeConfig[], config: RagjudgeConfig, env: NodeJS.ProcessEnv = process.env): void {
  for (const j of judges) if (j.kind === "openai") panelJudgeSettings(j, config, env);
}

/**
 * Builds every judge record of the panel. LLM settings come from each
 * entry as `judge` would give them (endpoint and key from the environment),
 * and the hints of the messages that stop a model judge name that entry's
 * fields (in `configFile`, when given); a baseline on a panel with a rubric
 * it has no rule for is a setup error.
 *
 * @example
 * const entries = panelEntries(config.judges!, config, rubrics, { memory: cache });
 */
export function panelEntries(judges: readonly PanelJudgeConfig[], config: RagjudgeConfig, rubrics: readonly Rubric[], o: { env?: NodeJS.ProcessEnv; memory?: ResponseModeMemory; wrap?: (name: string, j: Judge) => Judge; configFile?: string } = {}): PanelEntry[] {
  const wrap = o.wrap ?? ((_n: string, j: Judge) => j);
  const built = new Map<string, PanelEntry>();
  for (const j of panelOrder(judges)) {
    let entry: PanelEntry;
    if (j.kind === "baseline") {
      const unsupported = baselineUnsupported(rubrics);
      if (unsupported.length) throw new JudgeSetupError(`judges: ${j.name}: the baseline judge has no rule for rubric ${unsupported.join(", ")}`);
      const judge = baselineBackend();
      entry = { name: j.name, kind: j.kind, judge, concurrency: judge.maxConcurrency, price: { input: 0, output: 0 } };
    } else if (j.kind === "constant") {
      entry = { name: j.name, kind: j.kind, judge: constantJudge(j.verdict), concurrency: 1, price: { input: 0, output: 0 } };
    } else if (j.kind === "openai") {
      const settings = panelJudgeSettings(j, config, o.env);
      const p = j.price ?? config.prices[j.model];
      // Its hints name its entry: the main judge's flags (--timeout-ms, --base-url) never reach a panel judge.
      const knobs = panelJudgeKnobs(judges.indexOf(j), j.name, o.configFile);
      entry = { name: j.name, kind: j.kind, judge: llmBackend(settings, { knobs, ...(o.memory ? { cache: o.memory } : {}) }), concurrency: settings.concurrency, settings, ...(p ? { price: p } : {}) };
    } else {
      const members = membersOf(j).map((m) => ({ name: m, judge: built.get(m)!.judge }));
      const rule = j.kind === "cascade" ? { kind: j.kind, confidence: j.confidence, sample: j.sample } : { kind: j.kind };
      const combined = combinedJudge(rule, members);
      entry = { name: j.name, kind: j.kind, judge: combined, combined, concurrency: Math.max(...membersOf(j).map((m) => built.get(m)!.concurrency)) };
    }
    built.set(j.name, { ...entry, judge: wrap(j.name, entry.judge) });
  }
  return judges.map((j) => built.get(j.name)!);
}
