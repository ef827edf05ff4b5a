import type { KyselyPlugin, QueryId, RootOperationNode, TableNode } from "kysely";
import type { Db } from "~/db/database.server";
import { type HeldOrder, holdCart } from "~/orders/holds.server";

/** Holds a cart that the test expects to be held; a refusal fails the test with its message. */
export async function hold(db: Db, input: Parameters<typeof holdCart>[1]): Promise<HeldOrder> {
  const result = await holdCart(db, input);
  if (!result.ok) throw new Error(`hold refused: ${result.message}`);
  return result;
}

/**
 * `db` with a gate after the first statement `at` picks (e.g. `writeTo("products", "update")`: a
 * checkout taking its first piece): the transaction running it stops there, its locks held (on
 * SQLite the write lock), until `open()`. `reached` resolves when it has stopped. For tests of what
 * runs beside a checkout still in its transaction.
 */
export function gatedAfter(db: Db, at: (node: RootOperationNode) => boolean) {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let stopped = () => {};
  const reached = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  let armed = true;
  const gated = new WeakSet<QueryId>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (armed && at(node)) {
        armed = false;
        gated.add(queryId);
      }
      return node;
    },
    async transformResult({ queryId, result }) {
      if (gated.has(queryId)) {
        stopped();
        await opened;
      }
      return result;
    },
  };
  return { db: db.withPlugin(plugin), reached, open };
}

/** Picks a statement writing `table` (for `gatedAfter`). */
export function writeTo(table: string, kind: "insert" | "update") {
  return (node: RootOperationNode): boolean => {
    const target =
      kind === "update" && node.kind === "UpdateQueryNode"
        ? node.table
        : kind === "insert" && node.kind === "InsertQueryNode"
          ? node.into
          : undefined;
    return target?.kind === "TableNode" && (target as TableNode).table.identifier.name === table;
  };
}
