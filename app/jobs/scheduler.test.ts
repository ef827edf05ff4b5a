import { describe, expect, it } from "vitest";
import { startJobs } from "./scheduler.server";

describe("the jobs' scheduler", () => {
  it("stopping waits for a round under way, but not past its bound: a long round is cut short and said", async () => {
    const lines: string[] = [];
    let finish = () => {};
    const stop = startJobs(
      [
        {
          name: "Copias JPEG de las fotos",
          everyMs: 60_000,
          runAtStart: true,
          run: () =>
            new Promise<null>((resolve) => {
              finish = () => resolve(null);
            }),
        },
      ],
      (line) => lines.push(line),
    );
    const started = Date.now();
    await stop(100);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(lines).toEqual([
      "Al cerrar quedaron trabajos a medias (se retoman al arrancar): Copias JPEG de las fotos.",
    ]);
    finish();
  });

  it("a round that ends in time is waited for, and nothing is said", async () => {
    const lines: string[] = [];
    let ended = false;
    const stop = startJobs(
      [
        {
          name: "Correos",
          everyMs: 60_000,
          runAtStart: true,
          run: async () => {
            await new Promise((resolve) => setTimeout(resolve, 50));
            ended = true;
            return null;
          },
        },
      ],
      (line) => lines.push(line),
    );
    await stop(1_000);
    expect(ended).toBe(true);
    expect(lines).toEqual([]);
  });
});
