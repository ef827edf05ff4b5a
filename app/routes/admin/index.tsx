import { redirect } from "react-router";
import { requireAdmin } from "~/web/guards.server";
import { pageTakesNoForm } from "~/web/methods";
import type { Route } from "./+types/index";

// /admin itself has no page of its own: orders are where the day's work is.
export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  throw redirect("/admin/orders");
}

export const action = pageTakesNoForm;

export default function AdminIndex() {
  return null;
}
