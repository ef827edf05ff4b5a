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
