/*
 * Background work of an app server: one timer per job, none of them keeping the process alive.
 * Every job is safe when several app servers run it at once (each claims its rows with a
 * conditional update), so each server simply runs them all.
 */

export interface Job {
  name: string;
  everyMs: number;
  /** Also run once right after start-up. */
  runAtStart?: boolean;
  /** Returns a line to log when it did something worth saying. */
  run(): Promise<string | null | undefined>;
}

/**
 * How long stopping waits for rounds under way. The whole stop has 10 s (server.js), the requests
 * in flight first; a round cut short is safe (every step is its own conditional move) and the next
 * start takes it up again. Without a bound, a long round (the JPEG copies of a whole catalogue on a
 * busy machine, a sweep of many holds) held the stop past its 10 s, and the process was killed.
 */
export const JOBS_STOP_WAIT_MS = 4_000;

/** Starts the jobs; the function it returns stops them and waits a while for rounds under way. */
export function startJobs(jobs: Job[], log: (line: string) => void): (waitMs?: number) => Promise<void> {
  const running = new Set<Promise<void>>();
  const runningNames = new Set<string>();
  const timers = jobs.map((job) => {
    let busy = false;
    const tick = () => {
      if (busy) return; // a slow round is never overlapped by the next one
      busy = true;
      runningNames.add(job.name);
      const round = (async () => {
        try {
          const said = await job.run();
          if (said) log(said);
        } catch (error) {
          log(`${job.name} falló: ${(error as Error).message ?? String(error)}`);
        } finally {
          busy = false;
          runningNames.delete(job.name);
        }
      })();
      running.add(round);
      void round.finally(() => running.delete(round));
    };
    if (job.runAtStart) tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return async (waitMs = JOBS_STOP_WAIT_MS) => {
    for (const timer of timers) clearInterval(timer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cut = new Promise<"cortado">((resolve) => {
      timer = setTimeout(() => resolve("cortado"), waitMs);
      timer.unref();
    });
    const done = Promise.allSettled([...running]).then(() => "hecho" as const);
    if ((await Promise.race([done, cut])) === "cortado")
      log(`Al cerrar quedaron trabajos a medias (se retoman al arrancar): ${[...runningNames].join(", ")}.`);
    clearTimeout(timer);
  };
}
