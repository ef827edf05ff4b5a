import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDrop } from "~/catalogue/catalogue.server";
import { type Database, toTimestamp } from "~/db/database.server";
import { PROOF_REFUSED_HEADER } from "~/rate-limits/proof-headers";
import { PROOF_MESSAGES } from "~/rate-limits/proof-of-work.server";
import { LIMIT_RULES } from "~/rate-limits/request-limits.server";
import { MAIL_CAPS } from "~/waitlist/mail-caps.server";
import { SIGN_UP_MESSAGES, SIGNED_UP_MESSAGE } from "~/waitlist/sign-up-input";
import { confirmSubscription, signUp } from "~/waitlist/waitlist.server";
import { CHEAP_PROOF_OF_WORK, shopBrowser, solvedProof } from "../support/browser";
import { upcomingDrop } from "../support/catalogue";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";
import { readable } from "../support/smtp";

/*
 * 'Avísame' over HTTP (decision 16): the form on an upcoming drop's page posted without
 * JavaScript and through React Router's data request (the fetcher), the links of its e-mails, bad
 * input, and the request limits' 429 that the form shows.
 */
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-waitlist-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const HOUR = 3_600_000;

describeEachDatabase("'Avísame' over HTTP", (harness) => {
  let database: Database;
  let server: RunningServer;
  let dropId: string;
  let productId: string;
  let dataDir: string;

  beforeAll(async () => {
    database = await harness.fresh();
    dropId = (await upcomingDrop(database, "Luna de Octubre", 24 * HOUR)).id;
    productId =
      (await database.db.selectFrom("products").select("id").where("drop_id", "=", dropId).executeTakeFirst())
        ?.id ?? "";
    dataDir = path.join(tmp, harness.dialect);
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      REQUEST_LIMITS: "true",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  /** A browser's cookie, from the shop. */
  const newBrowser = () => shopBrowser(server.url);

  /** A sign-up as a browser sends it: a plain form post (a page back), or the fetcher's data request. */
  async function post(
    fields: Record<string, string>,
    options: { cookie: string; data?: boolean; path?: string },
  ) {
    const target = `${server.url}${options.path ?? `/coleccion/${dropId}`}${options.data ? ".data" : ""}`;
    const res = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: options.data ? "*/*" : "text/html",
        origin: server.url,
        cookie: options.cookie,
      },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  /** The confirmation page's button: a form post of the link's token to the link's own address. */
  function confirmFromPage(link: string) {
    return fetch(link, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        origin: server.url,
      },
      body: new URLSearchParams({ t: new URL(link).searchParams.get("t") ?? "" }).toString(),
      redirect: "manual",
    });
  }

  /** The outbox's messages to `to`, as read. */
  function outboxFor(to: string): string[] {
    const dir = path.join(dataDir, "outbox");
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .sort()
      .map((f) => readable(fs.readFileSync(path.join(dir, f), "utf8")))
      .filter((m) => m.includes(`To: ${to}`));
  }

  async function waitForMail(to: string, count: number): Promise<string[]> {
    for (let i = 0; i < 100; i++) {
      const found = outboxFor(to);
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no e-mail for ${to}`);
  }

  it("a plain form post signs up and the page answers in Spanish; the e-mail's links confirm and unsubscribe", async () => {
    const to = `ana.${harness.dialect}@example.mx`;
    const page = await post({ correo: to, consentimiento: "si" }, { cookie: await newBrowser() });
    expect(page.status).toBe(200);
    expect(page.body).toContain(SIGNED_UP_MESSAGE);
    expect(page.headers.get("cache-control")).toMatch(/no-store/);
    expect(page.body).toContain('href="/aviso-de-privacidad"');

    const [mail] = await waitForMail(to, 1);
    const confirm = /http:\/\/[^\s"]+\/avisame\/confirmar\?t=[A-Za-z0-9._-]+/.exec(mail ?? "")?.[0];
    const leave = /http:\/\/[^\s"]+\/avisame\/baja\?t=[A-Za-z0-9._-]+/.exec(mail ?? "")?.[0];
    if (!confirm || !leave) throw new Error(`links missing in ${mail}`);
    expect(new URL(confirm).origin).toBe(server.url);

    // Opening the link asks (a mail scanner following it confirms nobody); the button confirms.
    const opened = await fetch(confirm);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("Confirmar mi correo");
    const status = () =>
      database.db
        .selectFrom("waitlist_subscriptions")
        .select("status")
        .where("email", "=", to)
        .executeTakeFirstOrThrow();
    expect(await status()).toEqual({ status: "pendiente" });
    const first = await confirmFromPage(confirm);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("¡Correo confirmado!");
    expect(await status()).toEqual({ status: "confirmada" });
    const again = await confirmFromPage(confirm);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("Tu correo ya estaba confirmado");

    // Opening the unsubscribe link asks; it changes nothing by itself.
    const ask = await fetch(leave);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Darme de baja");
    const row = await database.db
      .selectFrom("waitlist_subscriptions")
      .select("status")
      .where("email", "=", to)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("confirmada");
    // A mail client's one-click post (RFC 8058): no origin, the token in the address.
    const oneClick = await fetch(leave, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("te diste de baja");
    const shown = await fetch(leave);
    expect(await shown.text()).toContain("Ya estabas dado de baja");
    expect(
      (
        await database.db
          .selectFrom("waitlist_subscriptions")
          .select("status")
          .where("email", "=", to)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("baja");
  });

  it("a confirmation link past its week says it expired (410) and how to get another; nothing changes", async () => {
    const to = `tarde.${harness.dialect}@example.mx`;
    await post({ correo: to, consentimiento: "si" }, { cookie: await newBrowser() });
    const [mail] = await waitForMail(to, 1);
    const confirm = /http:\/\/[^\s"]+\/avisame\/confirmar\?t=[A-Za-z0-9._-]+/.exec(mail ?? "")?.[0];
    if (!confirm) throw new Error(`link missing in ${mail}`);
    // The e-mail was sent eight days ago.
    await database.db
      .updateTable("waitlist_subscriptions")
      .set({ confirmation_sent_at: toTimestamp(new Date(Date.now() - 8 * 24 * 3_600_000)) })
      .where("email", "=", to)
      .execute();
    const res = await confirmFromPage(confirm);
    expect(res.status).toBe(410);
    const html = await res.text();
    expect(html).toContain("Este enlace venció");
    expect(html).toContain("Regístrate de nuevo");
    const row = await database.db
      .selectFrom("waitlist_subscriptions")
      .select("status")
      .where("email", "=", to)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("pendiente");
  });

  it("the fetcher's data request, from the product page too, gets the same answer", async () => {
    const cookie = await newBrowser();
    const viaCollection = await post(
      { correo: `luz.${harness.dialect}@example.mx`, consentimiento: "si" },
      { cookie, data: true },
    );
    expect(viaCollection.status).toBe(200);
    expect(viaCollection.body).toContain(SIGNED_UP_MESSAGE);
    const viaProduct = await post(
      { correo: `sol.${harness.dialect}@example.mx`, consentimiento: "si" },
      { cookie, data: true, path: `/drop/${dropId}/product/${productId}` },
    );
    expect(viaProduct.status).toBe(200);
    expect(viaProduct.body).toContain(SIGNED_UP_MESSAGE);
    // The upcoming drop's pages show the form.
    const pageHtml = await (await fetch(`${server.url}/drop/${dropId}/product/${productId}`)).text();
    expect(pageHtml).toContain("Avísame cuando abra");
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain(`action="/coleccion/${dropId}"`);
  });

  it("bad input gets a Spanish 4xx, never a 5xx", async () => {
    const cookie = await newBrowser();
    for (const data of [false, true]) {
      const bad = await post({ correo: "ana@", consentimiento: "si" }, { cookie: await newBrowser(), data });
      expect(bad.status).toBe(400);
      expect(bad.body).toContain(SIGN_UP_MESSAGES.correo_invalido);
      const noConsent = await post({ correo: "ana@example.mx" }, { cookie: await newBrowser(), data });
      expect(noConsent.status).toBe(400);
      expect(noConsent.body).toContain(SIGN_UP_MESSAGES.sin_consentimiento);
    }
    const unknown = await post(
      { correo: "ana@example.mx", consentimiento: "si" },
      { cookie, path: "/coleccion/zzzzzzzzzzzzzzzz" },
    );
    expect(unknown.status).toBe(404);
    // A body that is not a form at all.
    const garbage = await fetch(`${server.url}/coleccion/${dropId}`, {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        origin: server.url,
        cookie: await newBrowser(),
      },
      body: "--y\r\nnada",
    });
    expect(garbage.status).toBeGreaterThanOrEqual(400);
    expect(garbage.status).toBeLessThan(500);
    for (const link of ["/avisame/confirmar", "/avisame/confirmar?t=abc", "/avisame/baja?t=x.y"]) {
      const res = await fetch(`${server.url}${link}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("no es válido");
    }
    const forged = await fetch(`${server.url}/avisame/baja?t=x.y`, { method: "POST" });
    expect(forged.status).toBe(400);
  });

  it("a sign-up past a cap answers exactly as an accepted one, byte for byte, and sends nothing", async () => {
    const mailbox = `tope.${harness.dialect}`;
    /**
     * The answer as compared: status, the body's bytes and every header but those each request has
     * its own of (the date, the request's id, the page's script nonce).
     */
    const shape = (answer: { status: number; headers: Headers; body: string }) => ({
      status: answer.status,
      headers: [...answer.headers]
        .filter(([name]) => name !== "date" && name !== "x-request-id")
        .map(([name, value]) => [name, value.replace(/'nonce-[^']+'/, "'nonce-…'")]),
      body: answer.body,
    });
    const accepted = [];
    for (let i = 1; i <= MAIL_CAPS.mailboxPerDay; i++) {
      accepted.push(
        await post(
          { correo: `${mailbox}+${i}@example.mx`, consentimiento: "si" },
          { cookie: await newBrowser(), data: true },
        ),
      );
    }
    // The mailbox has had its three: a fourth plus-address is capped.
    const capped = await post(
      { correo: `${mailbox}+4@example.mx`, consentimiento: "si" },
      { cookie: await newBrowser(), data: true },
    );
    expect(capped.status).toBe(200);
    expect(capped.body).toContain(SIGNED_UP_MESSAGE);
    for (const answer of accepted) expect(shape(capped)).toEqual(shape(answer));
    // Without JavaScript too: the same page, the same status and message.
    const cappedPage = await post(
      { correo: `${mailbox}+5@example.mx`, consentimiento: "si" },
      { cookie: await newBrowser() },
    );
    expect(cappedPage.status).toBe(200);
    expect(cappedPage.body).toContain(SIGNED_UP_MESSAGE);
    expect(cappedPage.headers.get("cache-control")).toBe(accepted[0]?.headers.get("cache-control"));

    // Three e-mails went out, none for the capped ones; those are not on the list, only counted.
    const sent = await waitForMail(`${mailbox}+3@example.mx`, 1);
    expect(sent).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    for (const i of [4, 5]) expect(outboxFor(`${mailbox}+${i}@example.mx`)).toEqual([]);
    const listed = await database.db
      .selectFrom("waitlist_subscriptions")
      .select("email")
      .where("email", "like", `${mailbox}+%`)
      .execute();
    expect(listed).toHaveLength(MAIL_CAPS.mailboxPerDay);
    const refused = await database.db
      .selectFrom("waitlist_mail_refusals")
      .select((eb) => eb.fn.sum<string | number>("refusals").as("n"))
      .where("drop_id", "=", dropId)
      .where("reason", "=", "buzon")
      .executeTakeFirst();
    expect(Number(refused?.n)).toBe(2);
  });

  it("past a browser's allowance, a Spanish 429 with Retry-After, in the page and in the fetcher's answer", async () => {
    const cookie = await newBrowser();
    const allowance = LIMIT_RULES.waitlist.browser.points;
    const answers = [];
    for (let i = 0; i < allowance + 2; i++) {
      answers.push(
        await post(
          { correo: `prisa.${harness.dialect}@example.mx`, consentimiento: "si" },
          { cookie, data: i % 2 === 1 },
        ),
      );
    }
    expect(answers.slice(0, allowance).map((a) => a.status)).toEqual(Array(allowance).fill(200));
    for (const refused of answers.slice(allowance)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toMatch(
        /Demasiados intentos seguidos\. Intenta de nuevo en \d+ (segundos?|minutos?)\./,
      );
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    // The refused page is still the drop's page, with the message in its form.
    const refusedPage = answers
      .slice(allowance)
      .find((a) => a.headers.get("content-type")?.startsWith("text/html"));
    expect(refusedPage?.body).toContain("Avísame cuando abra");
    expect(refusedPage?.body).toContain("Demasiados intentos seguidos");
    // Another browser behind the same address still signs up.
    const other = await post(
      { correo: `otra.${harness.dialect}@example.mx`, consentimiento: "si" },
      { cookie: await newBrowser() },
    );
    expect(other.status).toBe(200);
  });
});

describeEachDatabase("'Avísame' with the proof of work on", (harness) => {
  let database: Database;
  let server: RunningServer;
  let dropId: string;

  beforeAll(async () => {
    database = await harness.fresh();
    dropId = (await upcomingDrop(database, "Luna de Octubre", 24 * HOUR)).id;
    server = await startServer({
      DATA_DIR: path.join(tmp, `${harness.dialect}-reto`),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      // Spent proofs are remembered in the request limits' store.
      REQUEST_LIMITS: "true",
      CHECKOUT_CHALLENGE: "true",
      ...CHEAP_PROOF_OF_WORK,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The fetcher's data request, as the page sends it. */
  async function post(fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/coleccion/${dropId}.data`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: server.url,
        cookie,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }
  const sendOf = (email: string) =>
    database.db
      .selectFrom("waitlist_confirmation_sends")
      .select("without_proof")
      .where("mailbox", "=", email)
      .executeTakeFirst();
  const listed = async (email: string) =>
    (await database.db.selectFrom("waitlist_subscriptions").select("id").where("email", "=", email).execute())
      .length;

  it("with a proof (the form's field or the X-Altcha header) a sign-up goes as before; it is spent", async () => {
    const { proof, cookie } = await solvedProof(server.url, null);
    const email = `conreto.${harness.dialect}@example.mx`;
    const signed = await post({ correo: email, consentimiento: "si", reto: proof }, cookie);
    expect(signed.status).toBe(200);
    expect(signed.body).toContain(SIGNED_UP_MESSAGE);
    expect(await sendOf(email)).toEqual({ without_proof: 0 });

    // Spent: shown again, it is refused in Spanish, and the page is told to solve another.
    const replayed = await post({ correo: `otra.${email}`, consentimiento: "si", reto: proof }, cookie);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toContain(PROOF_MESSAGES.usado);
    expect(replayed.headers.get(PROOF_REFUSED_HEADER)).toBe("usado");
    expect(await listed(`otra.${email}`)).toBe(0);

    const header = await solvedProof(server.url, cookie);
    const viaHeader = `cabecera.${harness.dialect}@example.mx`;
    const again = await post({ correo: viaHeader, consentimiento: "si" }, cookie, {
      "x-altcha": header.proof,
    });
    expect(again.status).toBe(200);
    expect(await sendOf(viaHeader)).toEqual({ without_proof: 0 });
  });

  it("without a proof (a form posted without JavaScript) the sign-up is taken, under the tighter caps", async () => {
    const email = `sinreto.${harness.dialect}@example.mx`;
    const cookie = await shopBrowser(server.url);
    const page = await fetch(`${server.url}/coleccion/${dropId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, cookie },
      body: new URLSearchParams({ correo: email, consentimiento: "si" }).toString(),
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(SIGNED_UP_MESSAGE);
    expect(await sendOf(email)).toEqual({ without_proof: 1 });
  });

  it("a forged proof, or one solved for another browser, is a Spanish 400 that signs up nobody", async () => {
    const cookie = await shopBrowser(server.url);
    const email = `falsa.${harness.dialect}@example.mx`;
    const forged = Buffer.from(
      JSON.stringify({
        challenge: { parameters: { algorithm: "PBKDF2/SHA-256", nonce: "n", salt: "s" }, signature: "x" },
        solution: { counter: 1, derivedKey: "00" },
      }),
    ).toString("base64");
    for (const reto of [forged, "basura", "x".repeat(5_000)]) {
      const answer = await post({ correo: email, consentimiento: "si", reto }, cookie);
      expect(answer.status).toBe(400);
      expect(answer.body).toContain(PROOF_MESSAGES.invalido);
      expect(answer.headers.get(PROOF_REFUSED_HEADER)).toBe("invalido");
    }
    const theirs = await solvedProof(server.url, await shopBrowser(server.url));
    const stolen = await post({ correo: email, consentimiento: "si", reto: theirs.proof }, cookie);
    expect(stolen.status).toBe(400);
    expect(stolen.headers.get(PROOF_REFUSED_HEADER)).toBe("ajeno");
    expect(await listed(email)).toBe(0);
    // Its own browser may still spend it.
    const own = await post({ correo: email, consentimiento: "si", reto: theirs.proof }, theirs.cookie);
    expect(own.status).toBe(200);
    expect(await listed(email)).toBe(1);
  });
});

describeEachDatabase("'Avísame' opening notices with two app servers", (harness) => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  it("when a drop opens, each confirmed address gets exactly one e-mail, whichever server sends it", async () => {
    const database = await harness.fresh();
    const opensAt = Date.now() + HOUR;
    const dropId = await createDrop(database.db, {
      name: "Estrella Fugaz",
      status: "proximamente",
      startAt: new Date(opensAt),
      endAt: new Date(opensAt + 48 * HOUR),
      products: [],
    });
    const confirmed: string[] = [];
    for (let i = 0; i < 16; i++) {
      const email = `fugaz${i}.${harness.dialect}@example.mx`;
      const result = await signUpDirectly(database, dropId, email);
      // Every fourth never confirms: it hears nothing.
      if (i % 4 !== 0) {
        await confirmSubscription(database.db, result);
        confirmed.push(email);
      }
    }
    // It opens now, before either server starts (sign-ups are taken only before the opening).
    await database.db
      .updateTable("drops")
      .set({ start_at: toTimestamp(new Date(Date.now() - 200)) })
      .where("id", "=", dropId)
      .execute();
    // The sign-ups' confirmations were queued: sent first, by whichever server comes first.
    const dirs = ["a", "b"].map((name) => path.join(tmp, `${harness.dialect}-opening-${name}`));
    const started = await Promise.all(
      dirs.map((dir) =>
        startServer({
          DATA_DIR: dir,
          DATABASE_URL: harness.lastUrl(),
          DEMO_DATA: "false",
          DEMO_PAYMENTS: "true",
        }),
      ),
    );
    servers.push(...started);

    const openings = () =>
      dirs.flatMap((dir) => {
        const outbox = path.join(dir, "outbox");
        if (!fs.existsSync(outbox)) return [];
        return fs
          .readdirSync(outbox)
          .map((f) => readable(fs.readFileSync(path.join(outbox, f), "utf8")))
          .filter((m) => m.includes("Subject: ¡Ya abrió Estrella Fugaz!"));
      });
    for (let i = 0; i < 600 && openings().length < confirmed.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // A moment more: nothing else arrives.
    await new Promise((r) => setTimeout(r, 1_500));
    const recipients = openings().map((m) => /^To: (.+)$/m.exec(m)?.[1]?.trim());
    expect(recipients.sort()).toEqual([...confirmed].sort());
  });
});

async function signUpDirectly(database: Database, dropId: string, email: string): Promise<string> {
  const result = await signUp(database.db, {
    dropId,
    email,
    consent: "si",
    siteUrl: "http://127.0.0.1",
    from: { address: "127.0.0.1", proven: true },
  });
  if (!result.ok) throw new Error(result.reason);
  if (result.subscriptionId === null) throw new Error(`capped: ${result.outcome}`);
  return result.subscriptionId;
}
