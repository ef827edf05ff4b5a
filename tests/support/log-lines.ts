/** One line of the server's log (app/config/log.server.ts): a JSON object. */
export interface LogLine {
  level: string;
  time: string;
  pid: number;
  msg: string;
  /** The request being handled when the line was written. */
  reqId?: string;
  /** Set by logLines on a line that is not JSON (its text is `msg`). */
  plain?: true;
  [field: string]: unknown;
}

/** The server's output, line by line: JSON lines parsed, any other line kept as `plain`. */
export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as LogLine;
      } catch {}
      return { level: "", time: "", pid: 0, msg: line, plain: true };
    });
}

/** The access lines (LOG_REQUESTS) among them. */
export function accessLines(output: string): LogLine[] {
  return logLines(output).filter((line) => line.msg === "Solicitud");
}

/**
 * How long a test waits for a line to be written: access lines are gathered in memory and written
 * a fraction of a second after their answers, later on a machine busy with other suites (vi.waitFor's
 * own 1 s was once too short there). What is asserted is the line, not how soon it came.
 */
export const LINE_WRITTEN = { timeout: 10_000, interval: 50 };
