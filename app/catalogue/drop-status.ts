import { DROP_STATUSES, type DropStatus } from "~/db/taxonomy";

/**
 * Reads a drop status as typed by a person or an old form. The spec's edit form says
 * `archivado` while lists filter on `archivada`: both mean archived and are stored as `archivada`.
 * Returns null for anything else.
 */
export function normalizeDropStatus(input: string): DropStatus | null {
  const value = input
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
  if (value === "archivado") return "archivada";
  return (DROP_STATUSES as readonly string[]).includes(value) ? (value as DropStatus) : null;
}
