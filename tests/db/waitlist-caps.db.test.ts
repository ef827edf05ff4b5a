import { Migrator } from "kysely";
import { expect, it, vi } from "vitest";
import { type Database, migrateToLatest, openDatabase } from "~/db/database.server";
import { migrations } from "~/db/migrations";
import { newId } from "~/lib/ids";
import { WAITLIST_CONFIRM_EMAIL } from "~/mail/kinds";
import { MAIL_CAPS, type SignUpSource } from "~/waitlist/mail-caps.server";
import { type SignUpResult, signUp } from "~/waitlist/waitlist.server";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { oldDrop } from "../support/old-rows";

/*
 * 'Avísame' cannot be turned into a mail cannon (decision 31): confirmation e-mails are capped per
 * recipient mailbox, per address bucket and shop-wide per hour, counted in the database so that
 * racing sign-ups on several app servers cannot pass a cap.
 */
vi.setConfig({ testTimeout: 240_000 });

const SITE = "http://tienda.test:3000";
const HOUR = 3_600_000;

function join(database: Database, dropId: string, email: string, from: SignUpSource, now?: Date) {
  return signUp(database.db, { dropId, email, consent: "si", siteUrl: SITE, from, now });
}

/** Confirmation e-mails in the mail queue, per recipient as typed. */
async function confirmations(database: Database): Promise<string[]> {
  const rows = await database.db
    .selectFrom("emails")
    .select("recipient")
    .where("kind", "=", WAITLIST_CONFIRM_EMAIL)
    .execute();
  return rows.map((r) => r.recipient);
}

async function refusals(database: Database, dropId: string): Promise<Record<string, number>> {
  const rows = await database.db
    .selectFrom("waitlist_mail_refusals")
    .select(["reason", "refusals"])
    .where("drop_id", "=", dropId)
    .execute();
  const counted: Record<string, number> = {};
  for (const r of rows) counted[r.reason] = (counted[r.reason] ?? 0) + Number(r.refusals);
  return counted;
}

const outcomes = (results: SignUpResult[]) => {
  const counted: Record<string, number> = {};
  for (const r of results) {
    const key = r.ok ? (r.outcome === "limitada" ? `limitada:${r.cap}` : r.outcome) : r.reason;
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
};

describeEachDatabase("'Avísame' mail caps", (harness) => {
  it("5,000 racing sign-ups for plus-addressed variants of one mailbox, from one address, on two app servers, queue exactly 3 e-mails; a second mailbox still gets its one", async () => {
    const database = await harness.fresh();
    // A second app server: its own pool on PostgreSQL. On SQLite every writer of the file takes
    // the same lock (BEGIN IMMEDIATE), so both halves share one handle.
    const second =
      harness.dialect === "postgres"
        ? await openDatabase({ kind: "postgres", url: harness.lastUrl() }, { poolMax: 10 })
        : database;
    try {
      const drop = await upcomingDrop(database);
      const from = { address: "198.51.100.7", proven: true };
      // One racer per connection of each server's pool (20 and 10 on PostgreSQL), so every
      // connection is always racing and no racer waits for one: racers beyond a pool's size only
      // queued for its connections, past their 5 s timeout on a slow machine (CI runs failed so).
      const [onFirst, onSecond] = harness.dialect === "postgres" ? [20, 10] : [20, 20];
      const results: SignUpResult[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: onFirst + onSecond }, async (_, worker) => {
          for (let i = next++; i < 5_000; i = next++) {
            results[i] = await join(
              worker < onFirst ? database : second,
              drop.id,
              `victima+${i}@example.mx`,
              from,
            );
          }
        }),
      );
      expect(MAIL_CAPS.mailboxPerDay).toBe(3);
      // Every one of them answered as accepted; three sent, the rest stopped at the mailbox.
      expect(outcomes(results)).toEqual({ nueva: 3, "limitada:buzon": 4_997 });
      const sent = await confirmations(database);
      expect(sent).toHaveLength(3);
      expect(sent.every((to) => /^victima\+\d+@example\.mx$/.test(to))).toBe(true);
      // Capped sign-ups are not kept on the list: only the three that were mailed.
      const listed = await database.db.selectFrom("waitlist_subscriptions").select("email").execute();
      expect(listed.map((r) => r.email).sort()).toEqual([...sent].sort());
      expect(await refusals(database, drop.id)).toEqual({ buzon: 4_997 });

      // A real second mailbox, from the same address, still gets its one e-mail.
      expect(await join(database, drop.id, "ana.perez@example.mx", from)).toMatchObject({
        ok: true,
        outcome: "nueva",
      });
      expect((await confirmations(database)).filter((to) => to === "ana.perez@example.mx")).toHaveLength(1);
    } finally {
      if (second !== database) await second.close();
    }
  });

  it("Gmail's dots and googlemail.com fold to one mailbox; the cap looks back a day, not forever", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database, "Luna de Octubre", 72 * HOUR);
    const now = new Date();
    const spellings = [
      "ana.perez@gmail.com",
      "anaperez@gmail.com",
      "A.n.A.perez+x@googlemail.com",
      "a.naperez@gmail.com",
    ];
    const results: SignUpResult[] = [];
    for (const [i, email] of spellings.entries()) {
      // Each from an address of its own: only the mailbox can stop them.
      results.push(
        await join(database, drop.id, email, { address: `203.0.113.${i + 1}`, proven: true }, now),
      );
    }
    expect(outcomes(results)).toEqual({ nueva: 3, "limitada:buzon": 1 });
    // Dots count elsewhere: another provider's a.na and ana are two people.
    for (const email of ["ana.perez@example.mx", "anaperez@example.mx"]) {
      expect(
        await join(database, drop.id, email, { address: "203.0.113.9", proven: true }, now),
      ).toMatchObject({
        outcome: "nueva",
      });
    }
    // A day later the mailbox may hear from the shop again.
    const tomorrow = new Date(now.getTime() + 24 * HOUR + 60_000);
    expect(
      await join(
        database,
        drop.id,
        "a.naperez@gmail.com",
        { address: "203.0.113.4", proven: true },
        tomorrow,
      ),
    ).toMatchObject({ outcome: "nueva" });
  });

  it("IPv6 addresses of one /64 share one bucket's hourly cap; another /64 and the next hour are free", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const now = new Date();
    const results: SignUpResult[] = [];
    for (let i = 0; i < MAIL_CAPS.bucketPerHour + 5; i++) {
      // A new interface id and a new mailbox each time, within one /64.
      const address = `2001:db8:aa:bb:${(i + 1).toString(16)}:0:0:${(i * 7 + 3).toString(16)}`;
      results.push(await join(database, drop.id, `persona${i}@example.mx`, { address, proven: true }, now));
    }
    expect(MAIL_CAPS.bucketPerHour).toBe(30);
    expect(outcomes(results)).toEqual({ nueva: 30, "limitada:direccion": 5 });
    expect(await confirmations(database)).toHaveLength(30);
    expect(
      await join(database, drop.id, "vecina@example.mx", { address: "2001:db8:aa:bc::1", proven: true }, now),
    ).toMatchObject({ outcome: "nueva" });
    const later = new Date(now.getTime() + HOUR + 60_000);
    expect(
      await join(
        database,
        drop.id,
        "tarde@example.mx",
        { address: "2001:db8:aa:bb::99", proven: true },
        later,
      ),
    ).toMatchObject({ outcome: "nueva" });
    expect(await refusals(database, drop.id)).toEqual({ direccion: 5 });
  });

  it("a sign-up without a proof of work weighs three against its address, and such sign-ups share 100 of the shop's hour", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const now = new Date();
    const results: SignUpResult[] = [];
    for (let i = 0; i < 11; i++) {
      results.push(
        await join(database, drop.id, `sinjs${i}@example.mx`, { address: "192.0.2.50", proven: false }, now),
      );
    }
    expect(outcomes(results)).toEqual({ nueva: 10, "limitada:direccion": 1 });
    // Shop-wide: at most 100 without a proof in an hour, whatever their addresses.
    const more: SignUpResult[] = [];
    for (let i = 0; i < 95; i++) {
      more.push(
        await join(
          database,
          drop.id,
          `lejos${i}@example.mx`,
          { address: `192.0.2.${100 + (i % 100)}`, proven: false },
          now,
        ),
      );
    }
    expect(outcomes(more)).toEqual({ nueva: 90, "limitada:tienda": 5 });
    // A sign-up with its proof still goes.
    expect(
      await join(database, drop.id, "conjs@example.mx", { address: "192.0.2.250", proven: true }, now),
    ).toMatchObject({ outcome: "nueva" });
  });

  it("the shop sends at most 600 confirmations an hour, from however many addresses", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const now = new Date();
    const results: SignUpResult[] = [];
    for (let i = 0; i < MAIL_CAPS.shopPerHour + 10; i++) {
      // 25 to an address, each a mailbox of its own.
      const address = `100.64.${Math.floor(i / 25)}.1`;
      results.push(await join(database, drop.id, `fan${i}@example.mx`, { address, proven: true }, now));
    }
    expect(MAIL_CAPS.shopPerHour).toBe(600);
    expect(outcomes(results)).toEqual({ nueva: 600, "limitada:tienda": 10 });
    expect(await confirmations(database)).toHaveLength(600);
    expect(await refusals(database, drop.id)).toEqual({ tienda: 10 });
    // An hour on, the shop sends again.
    const later = new Date(now.getTime() + HOUR + 60_000);
    expect(
      await join(database, drop.id, "siguiente@example.mx", { address: "100.64.200.1", proven: true }, later),
    ).toMatchObject({ outcome: "nueva" });
  });

  it("a capped repeat of an address already on the list keeps it as it was and sends nothing", async () => {
    const database = await harness.fresh();
    const drop = await upcomingDrop(database);
    const other = await upcomingDrop(database, "Sol de Invierno", 3 * HOUR);
    const now = new Date();
    const from = { address: "198.51.100.20", proven: true };
    // Three e-mails to the mailbox: two drops, then a re-send past the pause.
    expect(await join(database, drop.id, "rosa@example.mx", from, now)).toMatchObject({ outcome: "nueva" });
    expect(await join(database, other.id, "rosa+b@example.mx", from, now)).toMatchObject({
      outcome: "nueva",
    });
    const later = new Date(now.getTime() + 11 * 60_000);
    expect(await join(database, drop.id, "rosa@example.mx", from, later)).toMatchObject({
      outcome: "reenviada",
    });
    const before = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["id", "confirmation_sent_at"])
      .where("email", "=", "rosa+b@example.mx")
      .executeTakeFirstOrThrow();
    const capped = await join(database, other.id, "rosa+b@example.mx", from, later);
    expect(capped).toEqual({ ok: true, outcome: "limitada", cap: "buzon", subscriptionId: before.id });
    const after = await database.db
      .selectFrom("waitlist_subscriptions")
      .select(["id", "confirmation_sent_at"])
      .where("email", "=", "rosa+b@example.mx")
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await confirmations(database)).toHaveLength(3);
    expect(await refusals(database, other.id)).toEqual({ buzon: 1 });
  });

  it("migration 0017 counts the last day's confirmations of the list against their mailboxes", async () => {
    const database = await harness.fresh({ migrate: true });
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo("0016_per_person_limit")).error).toBeUndefined();
    const now = Date.now();
    // An upcoming drop of that day's shape (today's createDrop writes columns it did not have yet).
    const drop = {
      id: await oldDrop(database, {
        name: "Luna de Octubre",
        status: "proximamente",
        startAt: new Date(now + 2 * HOUR),
        endAt: new Date(now + 26 * HOUR),
      }),
    };
    const row = (email: string, sentAgo: number) => ({
      id: newId(),
      drop_id: drop.id,
      email,
      status: "pendiente" as const,
      site_url: SITE,
      created_at: new Date(now - sentAgo).toISOString(),
      confirmation_sent_at: new Date(now - sentAgo).toISOString(),
    });
    await database.db
      .insertInto("waitlist_subscriptions")
      .values([
        row("victima+1@example.mx", HOUR),
        row("victima+2@example.mx", 2 * HOUR),
        row("vieja@example.mx", 30 * HOUR),
      ])
      .execute();
    expect(await migrateToLatest(database)).toContain("0017_waitlist_caps");
    const sends = await database.db
      .selectFrom("waitlist_confirmation_sends")
      .select(["mailbox", "bucket", "without_proof"])
      .orderBy("mailbox")
      .execute();
    expect(sends).toEqual([
      { mailbox: "victima@example.mx", bucket: "", without_proof: 0 },
      { mailbox: "victima@example.mx", bucket: "", without_proof: 0 },
    ]);
    // Two of the mailbox's three already spent: one more goes, the next is capped.
    const from = { address: "198.51.100.30", proven: true };
    expect(await join(database, drop.id, "victima+3@example.mx", from)).toMatchObject({ outcome: "nueva" });
    expect(await join(database, drop.id, "victima+4@example.mx", from)).toMatchObject({
      outcome: "limitada",
      cap: "buzon",
    });
  });
});
