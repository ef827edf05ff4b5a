/**
 * A problem the operator must fix before the shop can start (bad setting, unreachable
 * database, unwritable folder). server.js prints its message alone, without a stack trace.
 */
export class StartupError extends Error {
  override name = "StartupError";
}
