import { migrations } from "~/db/migrations";

/**
 * The migrations from `first` to the newest, in the order they run: what a database stopped just
 * before `first` runs at its next start. Derived from the one list, so a new migration is not
 * written again into every test that migrates an old database forward.
 */
export function migrationsFrom(first: string): string[] {
  const names = Object.keys(migrations).sort();
  if (!names.includes(first)) throw new Error(`no migration ${first}`);
  return names.filter((name) => name >= first);
}
