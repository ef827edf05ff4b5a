/**
 * Collects the calls made within one turn of the event loop and hands them to `write` together:
 * on drop day hundreds of writes of one kind (a place in a draw, a proof spent) arrive within
 * milliseconds, and one transaction for all of them costs little more than one for each.
 *
 * A call waits at most until the loop has run this turn's I/O (`setImmediate`, by default); while
 * a batch is being written the next one gathers, and is written as soon as that one ends (one
 * batch at a time: the next sees what the last wrote). Each caller gets its own item's answer:
 * `write` answers one result per item, in order, and an Error in an item's place rejects that
 * caller alone. A batch that fails (it throws, or answers the wrong number of results) rejects
 * every one of its callers with that error: none is left waiting.
 */
export interface BatcherOptions<I, O> {
  write(items: I[]): Promise<(O | Error)[]>;
  /** Most items in one batch; more wait for the next (default 256). */
  maxItems?: number;
  /** How a batch's writing is put off until the calls of this turn have arrived. */
  schedule?: (run: () => void) => void;
  /**
   * Each batch waits for `schedule`, also the one gathered while the last was written (by
   * default that one is written at once: its callers already waited a whole batch). For writes
   * nobody waits for, gathered over a while to be few.
   */
  paced?: boolean;
}

export type Batcher<I, O> = ((item: I) => Promise<O>) & {
  /** Writes everything waiting now, without waiting for `schedule`, and resolves once it is written (at shutdown). */
  drain(): Promise<void>;
};

export function createBatcher<I, O>(options: BatcherOptions<I, O>): Batcher<I, O> {
  const maxItems = options.maxItems ?? 256;
  const schedule = options.schedule ?? ((run: () => void) => setImmediate(run));
  let waiting: { item: I; resolve(value: O): void; reject(error: unknown): void }[] = [];
  let scheduled = false;
  let writing = false;
  /** Told when the batch being written is done (`drain`). */
  let idle: (() => void)[] = [];

  const flush = async () => {
    scheduled = false;
    if (writing || waiting.length === 0) return;
    writing = true;
    const batch = waiting.length <= maxItems ? waiting : waiting.slice(0, maxItems);
    waiting = waiting.length <= maxItems ? [] : waiting.slice(maxItems);
    try {
      const results = await options.write(batch.map((w) => w.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} was answered ${results.length} results`);
      }
      batch.forEach((w, i) => {
        const result = results[i] as O | Error;
        if (result instanceof Error) w.reject(result);
        else w.resolve(result);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      writing = false;
      for (const done of idle) done();
      idle = [];
      // Those that arrived meanwhile have waited a whole batch already: written at once.
      if (waiting.length > 0 && !options.paced) void flush();
      else if (waiting.length > 0 && !scheduled) {
        scheduled = true;
        schedule(() => void flush());
      }
    }
  };

  const add = (item: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!scheduled && !writing) {
        scheduled = true;
        schedule(() => void flush());
      }
    });
  // A turn of `schedule` asked for before a drain still comes after it, and finds nothing to
  // write, or only what came since.
  const drain = async () => {
    while (writing || waiting.length > 0) {
      if (writing) await new Promise<void>((resolve) => idle.push(resolve));
      else await flush();
    }
  };
  return Object.assign(add, { drain });
}
