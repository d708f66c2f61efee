import type { RankedList } from "./schema/pipeline.js";

/**
 * Where a question's relevant chunks sit in its `retrieved` list: their
 * 1-based ranks, ascending. Scoring (every measure), the miss analysis (is
 * it a miss, the final rank), pool recall and the precision ceiling all
 * read them; at 50,000 questions x 100 retrieved each reading is 5,000,000
 * look-ups of id strings in sets, so they are worked out once per list and
 * relevant set. Like the relevant sets (relevance.ts), the memo is keyed by the objects
 * themselves, and kept only for objects ragjudge made and never changes
 * ({@link READ_ONLY}): a list or set a caller built may be changed between
 * two calls, and is read as it is at each.
 */
const memo = new WeakMap<Readonly<RankedList>, { relevant: ReadonlySet<string>; ranks: readonly number[] }>();

/**
 * The lists and relevant sets whose ranks are remembered: the `retrieved`
 * lists a loader read (adoptCheckedOutputs, dataset.ts) and the sets
 * relevantSets made (relevance.ts), both read and never changed after. A
 * caller's own list, changed in place between two calls of poolRecall,
 * precisionCap or analyseMisses, was answered from the first call's ranks
 * when every list was remembered.
 */
const READ_ONLY = new WeakSet<object>();

/** Marks a loaded list or a shared relevant set as never changed, so that its ranks may be remembered ({@link READ_ONLY}). */
export function markReadOnly(list: Readonly<RankedList> | ReadonlySet<string>): void {
  READ_ONLY.add(list);
}

/**
 * The 1-based ranks, ascending, of the ids of `list` that are in
 * `relevant` (an id listed twice counts at each place, as `countInTop`
 * counts it), remembered for this list and set when both are
 * {@link READ_ONLY}.
 *
 * @example
 * relevantRanks(["d3", "d8", "d1", "d6", "d2"], new Set(["d1", "d2", "d5"])) // [3, 5]
 */
export function relevantRanks(list: Readonly<RankedList>, relevant: ReadonlySet<string>): readonly number[] {
  const kept = READ_ONLY.has(list) && READ_ONLY.has(relevant);
  if (kept) {
    const known = memo.get(list);
    if (known !== undefined && known.relevant === relevant) return known.ranks;
  }
  const ranks: number[] = [];
  for (let i = 0; i < list.length; i++) if (relevant.has(list[i]!)) ranks.push(i + 1);
  if (kept) memo.set(list, { relevant, ranks });
  return ranks;
}

/**
 * The ranks {@link relevantRanks} would take from its memo (worked out
 * ahead by a {@link codeRanker}, or asked for before); undefined when it
 * would work them out. For tests and benchmarks that check the work ahead
 * was done.
 */
export function knownRelevantRanks(list: Readonly<RankedList>, relevant: ReadonlySet<string>): readonly number[] | undefined {
  if (!READ_ONLY.has(list) || !READ_ONLY.has(relevant)) return undefined;
  const known = memo.get(list);
  return known !== undefined && known.relevant === relevant ? known.ranks : undefined;
}

/**
 * How many of the ranks are within the top `n`: as `countInTop` counts,
 * the places before index `n` (so a cutoff of 2.5 takes three places, as
 * `i < 2.5` does, where `rank <= 2.5` took two).
 *
 * @example
 * ranksWithin([3, 5], 4) // 1
 */
export function ranksWithin(ranks: readonly number[], n: number): number {
  let c = 0;
  while (c < ranks.length && ranks[c]! - 1 < n) c++;
  return c;
}

/** A block of ranked lists as the output worker posts them (ranked-codes.ts): new ids, then each list as numbers. */
interface CodedBlock {
  fresh: readonly string[];
  codes: Int32Array;
  lengths: Int32Array;
}

/**
 * Works out {@link relevantRanks} from the numbers a block of ranked lists
 * arrives as, before anything reads the lists: comparing a question's one
 * or two relevant numbers with its list's numbers reads an Int32Array in
 * order, where `relevant.has(id)` on the rebuilt lists touches 5,000,000
 * strings scattered over the heap at 50,000 questions x 100 retrieved (0.2
 * to 0.4 s of this thread, profiled). Blocks that come before the relevant
 * sets are known wait for them (`against`); a list whose question has no
 * relevant set is left to {@link relevantRanks}.
 *
 * @example
 * const ranker = codeRanker();
 * ranker.add(block, [list0, list1], ["q1", "q2"]); // lists rebuilt from the block, and their questions
 * ranker.against(relevantSets(golden, chunks));    // relevantRanks(list0, set of q1) is now known
 */
export function codeRanker() {
  let relevant: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  /** Relevant id -> its number, once a block has brought it. */
  let numbers: Map<string, number> | undefined;
  let seen = 0;
  const earlier: (readonly string[])[] = [];
  const waiting: [CodedBlock, readonly (readonly string[])[], readonly string[]][] = [];
  const number = (fresh: readonly string[], first: number) => {
    for (let j = 0; j < fresh.length; j++) if (numbers!.has(fresh[j]!)) numbers!.set(fresh[j]!, first + j);
  };
  const rank = (block: CodedBlock, lists: readonly (readonly string[])[], questions: readonly string[]) => {
    const { codes, lengths } = block;
    const wanted: number[] = [];
    let at = 0;
    for (let i = 0; i < lengths.length; i++) {
      const n = lengths[i]!;
      const rel = relevant!.get(questions[i]!);
      if (rel !== undefined) {
        wanted.length = 0;
        let unknown = false;
        for (const id of rel) {
          const c = numbers!.get(id);
          if (c === undefined) unknown = true; // not in the sets given to `against`: left to relevantRanks
          else if (c >= 0) wanted.push(c);
        }
        if (unknown) {
          at += n;
          continue;
        }
        const ranks: number[] = [];
        if (wanted.length === 1) {
          const w = wanted[0]!;
          for (let j = 0; j < n; j++) if (codes[at + j] === w) ranks.push(j + 1);
        } else if (wanted.length > 1) {
          for (let j = 0; j < n; j++) if (wanted.includes(codes[at + j]!)) ranks.push(j + 1);
        }
        memo.set(lists[i]!, { relevant: rel, ranks });
      }
      at += n;
    }
  };
  return {
    /** One block, its lists as rebuilt from it, and the question of each list. */
    add(block: CodedBlock, lists: readonly (readonly string[])[], questions: readonly string[]): void {
      if (numbers === undefined) {
        earlier.push(block.fresh);
        waiting.push([block, lists, questions]);
        return;
      }
      number(block.fresh, seen);
      seen += block.fresh.length;
      rank(block, lists, questions);
    },
    /** The relevant sets the lists are to be ranked against; the waiting blocks are ranked now. */
    against(sets: ReadonlyMap<string, ReadonlySet<string>>): void {
      if (numbers !== undefined) return;
      relevant = sets;
      numbers = new Map();
      for (const rel of sets.values()) for (const id of rel) numbers.set(id, -1);
      for (const fresh of earlier.splice(0)) {
        number(fresh, seen);
        seen += fresh.length;
      }
      for (const [block, lists, questions] of waiting.splice(0)) rank(block, lists, questions);
    },
  };
}
