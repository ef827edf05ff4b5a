/*
 * The mailbox an address reaches, for counting e-mails per recipient ('Avísame', decision 31):
 * `ana+drop1@example.mx` and `ana+drop2@example.mx` land in one mailbox, and so do
 * `a.na@gmail.com` and `ana@googlemail.com`. Only for counting: mail still goes to the address
 * as typed. Pure: the migration that fills the counts for e-mails sent before uses it too.
 */

/** Providers that ignore dots in the local part, and the domain each folds to (a Map: any domain is looked up). */
const DOTLESS_DOMAINS: ReadonlyMap<string, string> = new Map([
  ["gmail.com", "gmail.com"],
  ["googlemail.com", "gmail.com"],
]);

/**
 * The folded mailbox of an address: lower case, no spaces around; the local part cut at its first
 * `+` (sub-addressing, for every domain: the common spelling, and a shop that counts one extra
 * mailbox by mistake only sends less); dots dropped, and the domain unified, where the provider
 * ignores them. An address without `@` is returned as it is, lower-cased.
 */
export function foldMailbox(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const plus = local.indexOf("+");
  // `+tag@…` alone (nothing before the plus) is a mailbox of its own name.
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS.get(domain);
  if (dotless !== undefined) {
    domain = dotless;
    local = local.replaceAll(".", "") || local;
  }
  return `${local}@${domain}`;
}
