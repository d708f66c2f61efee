import { join, resolve } from "node:path";
import { configInputs, describeRubrics, loadConfig } from "../../golden/config.js";
import { writeFileAtomic } from "../../golden/files.js";
import { checkFolder, refuseOverInput, writableTarget } from "../../golden/paths.js";
import { baselineBackend, baselineUnsupported } from "../../judge/judges/baseline.js";
import { FatalJudgeError, type Judge } from "../../judge/judges/judge.js";
import { llmBackend, type OpenAIBackend } from "../../judge/judges/llm.js";
import { JudgeCache } from "../../judge/schedule/cache.js";
import { estimateRun, formatEstimate } from "../../judge/schedule/estimate.js";
import { exportBatch } from "../../judge/batch/export.js";
import { BATCH_LIMITS } from "../../judge/batch/format.js";
import { formatExport } from "../../judge/batch/report.js";
import { loadJudgeInputs } from "../../judge/items/inputs.js";
import { progressReporter } from "../../judge/schedule/progress.js";
import { redact } from "../../judge/transport/redact.js";
import { runJudge } from "../../judge/schedule/run.js";
import { judgmentsJsonl } from "../../judge/schedule/output.js";
import { withDerivedVerdicts } from "../../judge/items/derive-claims.js";
import { cachedClaimsFrom, prepareClaimItems } from "../../judge/claims/prepare.js";
import { isClaimUnit } from "../../judge/items/claims.js";
import { plainText } from "../../golden/escape.js";
import { claimsSection, unsupportedClaims } from "../../report/claims.js";
import { resolveJudge, type JudgeFlags, type OpenAISettings } from "../../judge/judges/settings.js";
import { summarise } from "../../judge/summary/summary.js";
import { formatSummary } from "../../judge/summary/format.js";
import { costLine, costTotals } from "../../judge/schedule/cost.js";
import { wordingsOf } from "../../calibration/context.js";
import { summaryTrust } from "../../calibration/summary-trust.js";
import { EXIT, UsageError } from "../errors.js";
import { displayPath } from "../../golden/errors.js";
import { projectArgs, shellArg } from "../../golden/project-args.js";
import { calibrateHint, labelsToRead } from "./example-labels.js";
import { nameList, refuseNoneInList } from "./lists.js";
import { checkPanelSetup, mainJudgeOf } from "../../judge/judges/panel.js";

export interface JudgeCommandFlags extends JudgeFlags {
  config?: string;
  rubrics?: string;
  variant?: string[];
  out?: string;
  cacheDir?: string;
  labels?: string;
  dryRun?: boolean;
  allowErrors?: boolean;
  progress?: boolean;
  json?: boolean;
  by?: string;
  batchExport?: string;
  batchMaxRequests?: number;
  batchMaxBytes?: number;
}

function parseBy(v: string): ("kind" | "tags")[] {
  const parts = nameList("--by", v, "breakdown (kind, tags or none)");
  if (parts.length === 1 && parts[0] === "none") return [];
  refuseNoneInList(parts, v);
  for (const p of parts) if (p !== "kind" && p !== "tags") throw new UsageError(`--by takes kind, tags or none, got ${JSON.stringify(p)}`);
  return parts as ("kind" | "tags")[];
}

function makeBackend(s: OpenAISettings, cache: JudgeCache | undefined, log: (s: string) => void): OpenAIBackend {
  return llmBackend(s, {
    cache,
    onModeChange: (_mode, cause) => log(`judge: the server rejects structured outputs (${redact(cause, [s.apiKey])}); asking for JSON in the text from now on (remembered for ${s.baseURL}, model ${s.model})\n`),
    onLogprobsOff: (cause) => log(`judge: the server gives no token log-probabilities (${redact(cause, [s.apiKey])}); judging without them (no P(yes)) from now on, remembered for ${s.baseURL}, model ${s.model}\n`),
  });
}

/** `ragjudge judge`'s action (see commands/judge.ts). */
export async function judgeAction(flags: JudgeCommandFlags): Promise<void> {
  const log = (s: string) => process.stderr.write(s);
  const by = parseBy(flags.by ?? "kind");
  const rubricNames = flags.rubrics === undefined ? undefined : nameList("--rubrics", flags.rubrics, "rubric");
  // repeated or comma separated: each given value must name one at least
  const variants = flags.variant?.flatMap((v) => nameList("--variant", v, "variant"));
  const resolved = loadConfig(flags.config);
  const labelsDir = labelsToRead(resolved, flags.labels);
  // Where the judge writes, checked before any work: a folder given as --out fails now, not after judging.
  const cacheDir = checkFolder(flags.cacheDir ? resolve(flags.cacheDir) : resolved.outPath(resolved.config.cacheDir), "the cache folder");
  const out = writableTarget(flags.out ? resolve(flags.out) : resolve(cacheDir, "judgments.jsonl"), { create: false });
  // --out naming the config or a file it names would replace an input with judgments
  refuseOverInput(out, flags.out ?? out, configInputs(resolved));
  // A dry run sends nothing, so it needs no key.
  const settings = resolveJudge({ ...resolved.config, judge: mainJudgeOf(resolved.config) }, flags, process.env, { keyless: flags.dryRun === true });
  // the panel (judged after the main judge, unless a flag chose one judge) is set up before any call too
  const judges = resolved.config.judges;
  if (judges && !flags.dryRun && flags.batchExport === undefined && flags.judge === undefined && flags.model === undefined && flags.baseUrl === undefined) checkPanelSetup(judges, resolved.config);
  const inputs = loadJudgeInputs(resolved, { rubrics: rubricNames, variants, claimsFrom: cachedClaimsFrom(cacheDir) });
  const { itemSet, rubrics } = inputs;
  log(`judge: ${describeRubrics(inputs.rubricsSource, rubrics.map((r) => r.name))}\n`);

  if (flags.batchExport !== undefined) {
    if (settings.kind !== "openai") throw new UsageError("--batch-export needs the LLM judge (--judge openai --model NAME); the baseline makes no calls");
    if (flags.dryRun) throw new UsageError("--batch-export and --dry-run do not combine");
    const limits = { maxRequests: flags.batchMaxRequests ?? BATCH_LIMITS.maxRequests, maxBytes: flags.batchMaxBytes ?? BATCH_LIMITS.maxBytes };
    const { cache, close } = JudgeCache.openLeased(cacheDir, "ragjudge judge --batch-export");
    try {
      const { plan, result } = exportBatch({ items: itemSet.items, backend: makeBackend(settings, cache, log), cache, repeats: settings.repeats, file: resolve(flags.batchExport), limits });
      const where = [...projectArgs(resolved), ...(flags.cacheDir ? ["--cache-dir", displayPath(cacheDir)] : [])];
      // the endpoint flag too: without it, submit sends the batch to the config's endpoint (or OpenAI's), not this one
      const endpoint = flags.baseUrl !== undefined ? ["--base-url", flags.baseUrl] : [];
      process.stdout.write(formatExport(plan, result, settings.model, where.map(shellArg).join(" "), endpoint.map(shellArg).join(" ")));
    } finally {
      close();
    }
    return;
  }
  if (flags.batchMaxRequests !== undefined || flags.batchMaxBytes !== undefined) throw new UsageError("--batch-max-requests and --batch-max-bytes go with --batch-export");

  if (settings.kind === "baseline") {
    const unsupported = baselineUnsupported(rubrics);
    if (unsupported.length) throw new UsageError(`the baseline judge has no rule for rubric ${unsupported.join(", ")}`);
    if (flags.repeats && flags.repeats > 1) log("judge: the baseline is deterministic; --repeats is ignored\n");
  }
  if (flags.dryRun) {
    if (settings.kind === "baseline") {
      const calls = itemSet.items.filter((i) => !i.rule).length;
      process.stdout.write(`dry run: the baseline judge makes no calls and costs nothing (${calls} items judged locally, ${itemSet.items.length - calls} by rule).\n`);
      return;
    }
    const cache = JudgeCache.openReadOnly(cacheDir);
    try {
      const backend = makeBackend(settings, cache, log);
      process.stdout.write(formatEstimate(estimateRun({ items: itemSet.items, backend, cache, repeats: settings.repeats, maxTokens: settings.maxTokens, prices: resolved.config.prices })));
    } finally {
      cache?.close();
    }
    return;
  }

  let cache: JudgeCache | undefined;
  let backend: Judge;
  if (settings.kind === "openai") {
    cache = JudgeCache.open(cacheDir);
    backend = makeBackend(settings, cache, log);
  } else backend = baselineBackend();
  log(`judge: ${backend.label}; ${itemSet.items.length} items${settings.kind === "openai" && settings.repeats > 1 ? ` x ${settings.repeats} repeats` : ""}; cache ${cache ? cache.file : "off (baseline)"}\n`);
  const progress = flags.progress === false ? undefined : progressReporter(process.stderr);
  let result;
  let items = itemSet.items;
  try {
    // Claim-level faithfulness with the claims rubric: the judge model extracts the claims first (judge/claims).
    items = (await prepareClaimItems(inputs, settings, cacheDir, log)).items;
    result = await runJudge({
      items,
      backend,
      cache,
      repeats: settings.repeats,
      concurrency: settings.concurrency,
      onProgress: progress ? (p) => progress.update(p) : undefined,
      ...(settings.kind === "openai" && resolved.config.prices[settings.model] ? { price: resolved.config.prices[settings.model] } : {}),
    });
  } catch (e) {
    if (e instanceof FatalJudgeError) {
      const committed = cache ? `; the verdicts already committed stay in ${cache.file}, and a rerun continues from there` : "";
      progress?.interrupt();
      if (e.kind === "setup") throw new UsageError(`the judge stopped: ${e.message}${committed}`);
      // The endpoint, not the setup: not bad input (exit 2) but a judge that could not finish (exit 4).
      log(`ragjudge: the judge stopped: ${e.message}${committed}\n`);
      process.exitCode = EXIT.judgeUnfinished;
      return;
    }
    throw e;
  } finally {
    cache?.close();
  }
  progress?.finish(result.progress);
  // Claim-level faithfulness: each answer's verdict derived from its claims' (derive-claims.ts).
  result = { ...result, judgments: withDerivedVerdicts(items, result.judgments) };
  writeFileAtomic(out, judgmentsJsonl(result.judgments));
  const summary = summarise({ judgments: result.judgments, golden: inputs.golden, rubrics, requireCitations: resolved.config.requireCitations, skipped: itemSet.skipped, usage: backend.kind === "llm" ? result.usage : undefined });
  const decided = summaryTrust(result.judgments, labelsDir, resolved.config.trust, inputs.golden.questions, wordingsOf(resolved));
  // where the verdicts were written, when calibrate would not look there by default
  const written = flags.out ?? (flags.cacheDir !== undefined ? join(flags.cacheDir, "judgments.jsonl") : undefined);
  const hint = (message: string) => calibrateHint(resolved, flags.labels, message, written);
  const trust = { ...decided, states: decided.states.map((s) => ({ ...s, message: hint(s.message) })), lines: new Map([...decided.lines].map(([k, l]) => [k, { ...l, message: hint(l.message) }])) };
  if (trust.problem) log(`judge: ${trust.problem}\n`);
  const cost = costTotals(backend, result.usage.values(), resolved.config.prices);
  // Claim-level faithfulness: which claims the sources did not support, with the context each was checked against.
  const claims = result.judgments.some((j) => isClaimUnit(j.unit)) ? unsupportedClaims(result.judgments, inputs.variants, inputs.golden.questions.map((q) => q.id)) : undefined;
  const claimLines = claims ? "\n" + plainText(claimsSection({ unsupportedClaims: claims, variants: inputs.variants.map((v) => ({ name: v.name })) as never }, "terminal")) : "";
  process.stdout.write(flags.json ? JSON.stringify({ ...summary, trust: trust.states, cost, ...(claims ? { unsupportedClaims: claims } : {}) }, null, 2) + "\n" : formatSummary(summary, { by, trust: trust.lines }) + costLine(cost) + "\n" + claimLines);
  log(`judge: wrote ${result.judgments.length} judgments to ${out}\n`);
  // A judge panel (config `judges`) judges too, unless a flag chose one judge.
  const panelErrors = resolved.config.judges && flags.judge === undefined && flags.model === undefined && flags.baseUrl === undefined
    ? await (await import("./judge-panel.js")).judgeWithPanel(resolved, { ...inputs, itemSet: { ...inputs.itemSet, items } }, cacheDir, out, log, labelsDir, flags.labels) : 0;
  const errors = result.judgments.filter((j) => j.verdict === "error" && !j.derived).length + panelErrors;
  if (errors && !flags.allowErrors) {
    log(`ragjudge: the judge did not finish: ${errors} item${errors === 1 ? "" : "s"} ended as error verdicts (not yes or no); rerun to retry them, or pass --allow-errors\n`);
    process.exitCode = EXIT.judgeUnfinished;
  }
}
