/** An error as one line of the log: its message, without the stack or an object dump. */
export function errorLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 500);
}
