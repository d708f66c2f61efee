import type { Command } from "commander";
import { Option } from "commander";
import { measureHelp } from "../../retrieval/measures/help.js";
import type { RetrievalFlags } from "../actions/retrieval.js";

const collect = (v: string, prev: string[]) => [...prev, v];

/**
 * `ragjudge retrieval`: scores search with trec_eval's arithmetic, either a
 * golden set with pipeline outputs (from the config or explicit files) or a
 * TREC run with qrels, and fails (exit 1) when a pinned floor is missed.
 */
export function registerRetrieval(program: Command): void {
  program
    .command("retrieval")
    .description("Score retrieval: did search find the right chunks? Golden set + pipeline output (from the config, or --golden/--chunks/--output), or a TREC run + qrels (--qrels/--trec-run), with numbers equal to trec_eval's.")
    .option("-k, --cutoffs <list>", "cutoffs for P@k, R@k, nDCG@k, Hit@k (default: the config's k, else 1,5,10)")
    .option("-m, --measure <names>", "measures to compute, repeatable: R@10,RR,nDCG@5, trec_eval's -m form P.1,5,10, or all (default: RR, R@k at every k, nDCG@k and Hit@k at the largest k for table and md; every trec_eval measure with counts for json and trec)", collect, [])
    .option("--by <list>", "group golden-set means by kind, tags, split (comma list), or none (default: kind)")
    .option("--per-query", "also print each question's scores")
    .addOption(new Option("--format <format>", "output format; trec is byte-identical to trec_eval -q -c").choices(["table", "json", "md", "trec"]).default("table"))
    .option("--fail-under <floors>", "exit 1 when an overall value is below its floor, e.g. 'R@10=0.70,RR=0.5' (adds to the config's floors)")
    .option("--full-precision", "print round-trip exact values (trec: printf %.17g) instead of 4 decimals")
    .option("--config <file>", "config file (default: ./ragjudge.config.json; --example: the shipped example)")
    .option("--golden <file>", "golden set JSONL (explicit inputs; with --chunks and --output)")
    .option("--chunks <file>", "chunks JSONL of the variant")
    .option("--output <file>", "pipeline output JSONL of the variant")
    .option("--variant <name>", "variant to score (config) or its name (explicit inputs; default: the output's file name)")
    .option("--qrels <file>", "TREC qrels (qid iter docno grade); with --trec-run")
    .option("--trec-run <file>", "TREC run (qid Q0 docno rank score tag); ranked as trec_eval ranks it")
    .option("--no-complete", "skip qrels queries missing from the run (trec_eval 9.0.8 without -c) instead of scoring them 0")
    .option("-l, --level <n>", "minimum grade that counts as relevant in graded qrels (trec_eval -l; default 1)")
    .option("--export-trec-run <file>", "write the variant's pipeline output as a TREC run (strictly decreasing scores)")
    .option("--export-qrels <file>", "write the golden relevance (ids and anchors, for the variant's chunks) as TREC qrels")
    .option("--list-measures", "print the measures with their definitions and sources, then exit")
    .option("--misses", "also print every miss (no relevant chunk in the top k, k = the largest cutoff): its rank in each stage list, failure kind and fix")
    .option("--pool-depth <n>", "depth at which pool recall and stage ranks are read (default: the config's poolDepth, else 50)")
    .addHelpText("after", `\n${measureHelp()}\n`)
    .action(async (flags: RetrievalFlags) => (await import("../actions/retrieval.js")).retrievalAction(flags));
}
