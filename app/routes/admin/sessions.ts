import { redirect } from "react-router";
import { requireAdmin } from "~/web/guards.server";
import { servicesContext } from "~/web/services";
import type { Route } from "./+types/sessions";

/** 'Cerrar sesión en todos los dispositivos': every session of this administrator ends (lost phone). */
export async function action(args: Route.ActionArgs) {
  const admin = requireAdmin(args);
  await args.context.get(servicesContext).auth.signOutEverywhere(admin.userId);
  throw redirect("/login?sesion=cerrada");
}

export function loader(args: Route.LoaderArgs) {
  requireAdmin(args);
  throw redirect("/admin/orders");
}
