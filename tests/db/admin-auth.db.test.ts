import crypto from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type AdminAuth,
  type AuthSettings,
  createAdminAuth,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
} from "~/auth/auth.server";
import { createDevices } from "~/auth/devices.server";
import { LOGIN_LIMITS } from "~/auth/login-limits.server";
import {
  createPasswordHasher,
  HASHING_BUSY_RETRY_SECONDS,
  type PasswordHasher,
  QUICK_SCRYPT,
} from "~/auth/password-hashing.server";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { describeEachDatabase } from "../support/databases";
import { cookiesFrom, setUpSecondFactor } from "../support/second-factor";

const IDLE_MINUTES = 120;
const ABSOLUTE_HOURS = 12;
const MINUTE = 60_000;
const PASSWORD = "una contraseña bastante larga";

/** The cookie pair a browser would send back, from a Set-Cookie answer. */
function cookieFrom(setCookies: string[]): Headers {
  const pair = setCookies[0]?.split(";")[0] ?? "";
  return new Headers({ cookie: pair });
}

/**
 * The hashing line without its spacing: these tests sign in hundreds of times, and the line's own
 * pace (a hash at most every 200 ms) is tested on its own below ("the line in front of password
 * hashing"); here it would only make the file minutes long.
 */
// The sign-in's rules, not the hash, are tested here: no spacing in the line, and the test bench's
// quick scrypt (its own tests, password-hashing.test.ts, use the real one).
const quickLine = () => ({
  hasher: createPasswordHasher({ running: 2, waiting: 64, spacingMs: 0 }, QUICK_SCRYPT),
});

const SETTINGS: AuthSettings = {
  secret: "secreto-de-prueba-0123456789abcdefghij",
  baseUrl: "http://localhost:3000",
  idleMinutes: IDLE_MINUTES,
  absoluteHours: ABSOLUTE_HOURS,
};

describeEachDatabase("administrator sign-in", (harness) => {
  let database: Database;
  let auth: AdminAuth;

  beforeAll(async () => {
    database = await harness.fresh();
    auth = createAdminAuth(database, SETTINGS, quickLine());
  });

  beforeEach(async () => {
    // The shop-wide ceiling counts every failure: each test starts with none.
    await database.db.deleteFrom("login_failures").execute();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function newAdmin() {
    const email = `admin-${newId(8)}@example.com`;
    await auth.createAdmin({ email, name: "Admin", password: PASSWORD });
    return email;
  }

  async function signIn(
    email: string,
    options: {
      password?: string;
      address?: string;
      previousSessionId?: string;
      using?: AdminAuth;
      browserId?: string;
      proof?: string;
    } = {},
  ) {
    return (options.using ?? auth).signIn({
      email,
      password: options.password ?? PASSWORD,
      address: options.address ?? `10.0.0.${Math.floor(Math.random() * 250)}`,
      headers: new Headers(),
      secure: false,
      previousSessionId: options.previousSessionId,
      browserId: options.browserId,
      proof: options.proof,
    });
  }

  async function signedIn(email: string) {
    const result = await signIn(email);
    if (!result.ok) throw new Error(`sign-in failed: ${result.reason}`);
    // These accounts have no second factor yet: the password alone opens a (set-up) session.
    if (result.step === "code") throw new Error("a code was asked");
    return { ...result, cookie: cookieFrom(result.setCookies) };
  }

  const sessionOf = async (cookie: Headers) => (await auth.readSession(cookie, false)).session;
  const sessionRowExists = async (id: string) =>
    (await database.db.selectFrom("auth_session").select("id").where("id", "=", id).executeTakeFirst()) !==
    undefined;

  it("stores the password only as a salted scrypt hash", async () => {
    // The shop's own hashing, not the test bench's quick one.
    const shopAuth = createAdminAuth(database, SETTINGS);
    const email = `admin-${newId(8)}@example.com`;
    const other = `admin-${newId(8)}@example.com`;
    for (const who of [email, other])
      await shopAuth.createAdmin({ email: who, name: "Admin", password: PASSWORD });
    const hashes = await database.db
      .selectFrom("auth_account as a")
      .innerJoin("auth_user as u", "u.id", "a.user_id")
      .select("a.password")
      .where("u.email", "in", [email, other])
      .execute();
    expect(hashes).toHaveLength(2);
    for (const { password } of hashes) {
      // 16-byte salt : 64-byte scrypt key, both hex.
      expect(password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(password).not.toContain(PASSWORD);
    }
    // Same password, different salt.
    expect(hashes[0]?.password).not.toBe(hashes[1]?.password);
    // The parameters documented in decision 7: scrypt N=16384, r=16, p=1, 64-byte key.
    const [salt = "", key = ""] = hashes[0]?.password?.split(":") ?? [];
    const derived = crypto.scryptSync(PASSWORD.normalize("NFKC"), salt, 64, {
      N: 16384,
      r: 16,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    expect(derived.toString("hex")).toBe(key);
    expect((await auth.listAdmins()).map((a) => a.email)).toEqual(expect.arrayContaining([email, other]));
  });

  it("refuses a second account with the same e-mail and a short password", async () => {
    const email = await newAdmin();
    await expect(
      auth.createAdmin({ email: email.toUpperCase(), name: "", password: PASSWORD }),
    ).rejects.toThrow(/Ya existe/);
    await expect(auth.createAdmin({ email: `x-${email}`, name: "", password: "corta" })).rejects.toThrow(
      /al menos 12/,
    );
  });

  it("signs in with the right password only, whatever the e-mail's case", async () => {
    const email = await newAdmin();
    expect(await signIn(email, { password: "otra contraseña larga" })).toEqual({
      ok: false,
      reason: "invalido",
    });
    expect(await signIn("nadie@example.com")).toEqual({ ok: false, reason: "invalido" });
    const result = await signedIn(` ${email.toUpperCase()} `);
    expect(result.session.email).toBe(email);
    expect((await sessionOf(result.cookie))?.email).toBe(email);
  });

  it("gives a random token of at least 128 bits in an HttpOnly, SameSite=Lax cookie; __Host- and Secure over HTTPS", async () => {
    const email = await newAdmin();
    const plain = await signedIn(email);
    const cookie = plain.setCookies[0] ?? "";
    const token = decodeURIComponent(cookie.split(";")[0]?.split("=")[1] ?? "").split(".")[0] ?? "";
    // 32 characters from 62 letters and digits: about 190 bits.
    expect(token).toMatch(/^[A-Za-z0-9]{32,}$/);
    expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure");

    const overHttps = await auth.signIn({
      email,
      password: PASSWORD,
      address: "10.1.1.1",
      headers: new Headers(),
      secure: true,
    });
    if (!overHttps.ok) throw new Error("sign-in failed");
    const secure = overHttps.setCookies[0] ?? "";
    expect(secure.startsWith(`${SECURE_SESSION_COOKIE}=`)).toBe(true);
    expect(secure).toContain("Secure");
    expect(secure).not.toContain("Domain");
  });

  /**
   * An account with its second factor set up, and a complete sign-in with it (password, then one of
   * its recovery codes: the app's codes would each wait for a new 30-second step).
   */
  async function enrolledAdmin() {
    const email = await newAdmin();
    const { recoveryCodes } = await setUpSecondFactor(auth, { email, password: PASSWORD });
    const whole = async (previousSessionId?: string) => {
      const first = await signIn(email, previousSessionId ? { previousSessionId } : {});
      if (!first.ok || first.step !== "code") throw new Error("no code asked");
      const done = await auth.verifyCode({
        code: recoveryCodes.shift() ?? "",
        trustDevice: false,
        address: "10.0.0.1",
        headers: new Headers({ cookie: cookiesFrom(first.setCookies) }),
        secure: false,
      });
      if (!done.ok) throw new Error(`code refused: ${done.reason}`);
      const cookie = new Headers({ cookie: cookiesFrom(done.setCookies) });
      const session = await sessionOf(cookie);
      if (!session) throw new Error("no session");
      return { cookie, session };
    };
    return { email, whole };
  }

  it("a new token at every login; logging in again from the same browser ends the old session", async () => {
    const { email, whole } = await enrolledAdmin();
    const first = await whole();
    // Another device keeps its own session.
    const phone = await whole();
    // The login page hands over the session this browser's cookie names.
    const second = await whole(first.session.sessionId);
    expect(second.cookie.get("cookie")).not.toBe(first.cookie.get("cookie"));
    expect(await sessionOf(first.cookie)).toBeNull();
    expect((await sessionOf(second.cookie))?.email).toBe(email);
    expect((await sessionOf(phone.cookie))?.email).toBe(email);
  });

  it("before the second factor is set up, a sign-in ends the account's other sessions (each would see its own secret)", async () => {
    const email = await newAdmin();
    const first = await signedIn(email);
    const second = await signedIn(email);
    expect(await sessionOf(first.cookie)).toBeNull();
    expect((await sessionOf(second.cookie))?.settingUp).toBe(true);
  });

  it("ends a session left unused for the idle timeout, and keeps an active one alive", async () => {
    const email = await newAdmin();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { cookie, session } = await signedIn(email);
    expect(session.expiresAt.getTime() - start).toBeGreaterThanOrEqual((IDLE_MINUTES - 1) * MINUTE);

    // Used just before each idle timeout: still signed in three timeouts later.
    for (let step = 1; step <= 3; step++) {
      vi.setSystemTime(start + step * (IDLE_MINUTES - 10) * MINUTE);
      expect((await sessionOf(cookie))?.email, `use ${step}`).toBe(email);
    }
    // Then left alone past the timeout.
    vi.setSystemTime(start + 3 * (IDLE_MINUTES - 10) * MINUTE + (IDLE_MINUTES + 1) * MINUTE);
    const read = await auth.readSession(cookie, false);
    expect(read.session).toBeNull();
    expect(read.setCookies.join()).toContain(`${SESSION_COOKIE}=;`);
    expect(await sessionRowExists(session.sessionId), "the expired session is deleted").toBe(false);
  });

  it("ends a session at its absolute lifetime however active it is", async () => {
    const email = await newAdmin();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { cookie, session } = await signedIn(email);
    const step = (IDLE_MINUTES / 2) * MINUTE;
    let now = start;
    while (now + step < start + ABSOLUTE_HOURS * 60 * MINUTE) {
      now += step;
      vi.setSystemTime(now);
      expect((await sessionOf(cookie))?.email).toBe(email);
    }
    vi.setSystemTime(start + ABSOLUTE_HOURS * 60 * MINUTE + MINUTE);
    const read = await auth.readSession(cookie, false);
    expect(read.session).toBeNull();
    expect(read.setCookies.join()).toContain(`${SESSION_COOKIE}=;`);
    expect(await sessionRowExists(session.sessionId), "the ended session is deleted").toBe(false);
  });

  it("a session never outlives its absolute end, and ended sessions are swept from the table", async () => {
    const email = await newAdmin();
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { cookie, session } = await signedIn(email);
    // Used every hour into the last idle period before the absolute end: the refresh stops there.
    for (let hour = 1; hour < ABSOLUTE_HOURS; hour++) {
      vi.setSystemTime(start + hour * 60 * MINUTE);
      expect(await sessionOf(cookie)).not.toBeNull();
    }
    vi.setSystemTime(start + ABSOLUTE_HOURS * 60 * MINUTE - 30 * MINUTE);
    const late = await sessionOf(cookie);
    expect(late?.expiresAt.getTime()).toBeLessThanOrEqual(
      session.createdAt.getTime() + ABSOLUTE_HOURS * 60 * MINUTE,
    );
    const admin = (await auth.listAdmins()).find((a) => a.email === email);
    expect(admin?.activeSessions).toBe(1);

    // A browser that never comes back: its session still leaves the table.
    vi.setSystemTime(start + ABSOLUTE_HOURS * 60 * MINUTE + MINUTE);
    expect((await auth.listAdmins()).find((a) => a.email === email)?.activeSessions).toBe(0);
    expect(await auth.deleteEndedSessions()).toBeGreaterThanOrEqual(1);
    expect(await sessionRowExists(session.sessionId), "the ended session is deleted").toBe(false);
  });

  it("sign-out ends the session in the database; a forged or unknown cookie names no one", async () => {
    const email = await newAdmin();
    const { cookie, session } = await signedIn(email);
    const forged = new Headers({ cookie: `${SESSION_COOKIE}=${"a".repeat(32)}.firma` });
    expect(await sessionOf(forged)).toBeNull();
    const cleared = await auth.signOut(session.sessionId, false);
    expect(cleared.join()).toContain(`${SESSION_COOKIE}=;`);
    expect(await sessionOf(cookie)).toBeNull();
  });

  it("signing out everywhere and a password reset end every session of the account", async () => {
    const { email, whole } = await enrolledAdmin();
    const a = await whole();
    const b = await whole();
    expect(await auth.signOutEverywhere(a.session.userId)).toBe(2);
    expect(await sessionOf(a.cookie)).toBeNull();
    expect(await sessionOf(b.cookie)).toBeNull();

    const c = await whole();
    await auth.resetPassword(email, "la contraseña nueva y larga");
    expect(await sessionOf(c.cookie)).toBeNull();
    expect(await signIn(email)).toEqual({ ok: false, reason: "invalido" });
    expect((await signIn(email, { password: "la contraseña nueva y larga" })).ok).toBe(true);
  });

  it("only administrators sign in", async () => {
    const email = `cliente-${newId(6)}@example.com`;
    const now = new Date().toISOString();
    const admin = await newAdmin();
    // An account of another role, made by hand with a real password hash.
    const hash = await database.db
      .selectFrom("auth_account as a")
      .innerJoin("auth_user as u", "u.id", "a.user_id")
      .select("a.password")
      .where("u.email", "=", admin)
      .executeTakeFirstOrThrow();
    const id = newId();
    await database.db
      .insertInto("auth_user")
      .values({
        id,
        name: "Cliente",
        email,
        email_verified: database.dialect === "postgres" ? false : 0,
        role: "user",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await database.db
      .insertInto("auth_account")
      .values({
        id: newId(),
        account_id: id,
        provider_id: "credential",
        user_id: id,
        password: hash.password,
        created_at: now,
        updated_at: now,
      })
      .execute();
    expect(await signIn(email)).toEqual({ ok: false, reason: "invalido" });
    const left = await database.db
      .selectFrom("auth_session")
      .select("id")
      .where("user_id", "=", id)
      .execute();
    expect(left).toEqual([]);
  });

  describe("failed-login limits", () => {
    it("per account: engage after too many failures (even for the right password) and release after the window", async () => {
      const email = await newAdmin();
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        // From many addresses: the account's own limit is what engages.
        expect(await signIn(email, { password: `incorrecta-${i}-xxxx`, address: `10.2.0.${i}` })).toEqual({
          ok: false,
          reason: "invalido",
        });
      }
      const locked = await signIn(email, { address: "10.2.1.1" });
      expect(locked).toMatchObject({ ok: false, reason: "limitado" });
      if (locked.ok || locked.reason !== "limitado") throw new Error("not limited");
      expect(locked.retryAfterSeconds).toBeGreaterThan(0);
      expect(locked.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_LIMITS.windowMinutes * 60);
      // Another account is not affected.
      expect((await signIn(await newAdmin(), { address: "10.2.1.1" })).ok).toBe(true);

      vi.setSystemTime(start + (LOGIN_LIMITS.windowMinutes + 1) * MINUTE);
      expect((await signIn(email, { address: "10.2.1.1" })).ok).toBe(true);
    });

    it("per address: engage after too many failures across accounts and release after the window", async () => {
      const email = await newAdmin();
      const address = `10.3.${Math.floor(Math.random() * 250)}.7`;
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
        await signIn(`intento-${i}-${newId(4)}@example.com`, { address });
      }
      expect(await signIn(email, { address })).toMatchObject({ ok: false, reason: "limitado" });
      // The same account from elsewhere is fine.
      expect((await signIn(email, { address: "10.3.255.1" })).ok).toBe(true);
      vi.setSystemTime(start + (LOGIN_LIMITS.windowMinutes + 1) * MINUTE);
      expect((await signIn(email, { address })).ok).toBe(true);
    });

    it("counts the same e-mail however it is typed", async () => {
      const email = await newAdmin();
      const variants = [email.toUpperCase(), ` ${email}`, `${email}  `, email.replace("admin", "ADMIN")];
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await signIn(variants[i % variants.length] ?? email, { password: `incorrecta-${i}-wwww` });
      }
      expect(await signIn(email)).toMatchObject({ ok: false, reason: "limitado" });
    });

    it("an owner's login does not give a guesser's address its failures back", async () => {
      const email = await newAdmin();
      const guesser = `10.5.${Math.floor(Math.random() * 250)}.9`;
      for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) {
        await signIn(email, { password: `incorrecta-${i}-vvvv`, address: guesser });
      }
      expect((await signIn(email, { address: "10.5.255.255" })).ok).toBe(true);
      // The account is free again, but the guesser's address still carries its failures.
      const remaining = LOGIN_LIMITS.perAddress - (LOGIN_LIMITS.perAccount - 1);
      for (let i = 0; i < remaining; i++) {
        await signIn(`otra-${i}-${newId(4)}@example.com`, { address: guesser });
      }
      expect(await signIn(email, { address: guesser })).toMatchObject({ ok: false, reason: "limitado" });
    });

    it("a successful login clears the account's earlier failures from that browser (none without one)", async () => {
      const email = await newAdmin();
      const browserId = newId(22);
      for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) {
        await signIn(email, { password: `incorrecta-${i}-xxxx`, browserId });
      }
      expect((await signIn(email, { browserId })).ok).toBe(true);
      for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) {
        await signIn(email, { password: `incorrecta-${i}-yyyy`, browserId });
      }
      expect((await signIn(email, { browserId })).ok).toBe(true);
      // Without a browser cookie a success cannot tell its own failures from a guesser's: they stay.
      const other = await newAdmin();
      for (let i = 0; i < LOGIN_LIMITS.perAccount - 1; i++) {
        await signIn(other, { password: `incorrecta-${i}-tttt` });
      }
      expect((await signIn(other)).ok).toBe(true);
      await signIn(other, { password: "incorrecta-una-mas" });
      expect(await signIn(other)).toMatchObject({ ok: false, reason: "limitado" });
    });

    it("shop-wide: however many addresses the failures come from, past the ceiling nobody is checked until the window moves on", async () => {
      const email = await newAdmin();
      // A service of its own: it remembers the ceiling it met, and the other tests' service must not.
      const using = createAdminAuth(database, SETTINGS, quickLine());
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      // Every failure from a different address and for a different e-mail: no other limit engages.
      for (let i = 0; i < LOGIN_LIMITS.everywhere; i++) {
        expect(await signIn(`nadie-${i}-${newId(4)}@example.com`, { address: `10.9.${i}.1`, using })).toEqual(
          { ok: false, reason: "invalido" },
        );
      }
      expect(using.busyFor(), "not yet: the ceiling is met by the next failure").toBeNull();
      // Even the right password from a fresh address waits: the shop as a whole is busy.
      const refused = await signIn(email, { address: "10.9.250.1", using });
      expect(refused).toMatchObject({ ok: false, reason: "ocupado" });
      if (refused.ok || refused.reason !== "ocupado") throw new Error("not refused");
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_LIMITS.everywhereWindowSeconds);
      // From now on this server knows without asking the database (the route refuses before rendering).
      expect(using.busyFor()).toBe(refused.retryAfterSeconds);
      const failures = async () =>
        Number(
          (
            await database.db
              .selectFrom("login_failures")
              .select((eb) => eb.fn.countAll<number>().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await failures();
      expect(await signIn(`otro-${newId(4)}@example.com`, { address: "10.9.251.1", using })).toMatchObject({
        reason: "ocupado",
      });
      expect(await failures(), "a refusal while busy writes nothing").toBe(before);
      const sessions = await database.db
        .selectFrom("auth_session as s")
        .innerJoin("auth_user as u", "u.id", "s.user_id")
        .select("s.id")
        .where("u.email", "=", email)
        .execute();
      expect(sessions).toEqual([]);
      // Refused attempts are not counted: once the window has moved on the shop is open again.
      vi.setSystemTime(start + (LOGIN_LIMITS.everywhereWindowSeconds + 1) * 1000);
      expect(using.busyFor()).toBeNull();
      expect((await signIn(email, { address: "10.9.250.1", using })).ok).toBe(true);
    });

    it("shop-wide: met together with an address's limit, the shop still opens again after its own window", async () => {
      const email = await newAdmin();
      const using = createAdminAuth(database, SETTINGS, quickLine());
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = Date.now();
      const guesser = "10.10.0.1";
      for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
        await signIn(`nadie-${i}-${newId(4)}@example.com`, { address: guesser, using });
      }
      for (let i = LOGIN_LIMITS.perAddress; i < LOGIN_LIMITS.everywhere; i++) {
        await signIn(`nadie-${i}-${newId(4)}@example.com`, { address: `10.10.${i}.1`, using });
      }
      const both = await signIn(email, { address: guesser, using });
      expect(both).toMatchObject({ ok: false, reason: "ocupado" });
      if (both.ok || both.reason !== "ocupado") throw new Error("not refused");
      expect(both.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_LIMITS.everywhereWindowSeconds);
      expect(using.busyFor()).toBeLessThanOrEqual(LOGIN_LIMITS.everywhereWindowSeconds);

      vi.setSystemTime(start + (LOGIN_LIMITS.everywhereWindowSeconds + 1) * 1000);
      expect(using.busyFor()).toBeNull();
      // The guesser's address is still limited on its own; everyone else may sign in.
      expect(await signIn(email, { address: guesser, using })).toMatchObject({
        ok: false,
        reason: "limitado",
      });
      expect((await signIn(email, { address: "10.10.255.1", using })).ok).toBe(true);
    });

    it("parallel attempts cannot outrun the limit", async () => {
      const email = await newAdmin();
      const results = await Promise.all(
        Array.from({ length: LOGIN_LIMITS.perAccount + 8 }, (_, i) =>
          signIn(email, { password: `incorrecta-${i}-zzzz`, address: `10.4.0.${i}` }),
        ),
      );
      const checked = results.filter((r) => !r.ok && r.reason === "invalido").length;
      expect(checked).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount);
      // The rest are refused unhashed: by the account's limit, or (the line in front of hashing
      // being full on a busy machine) as busy.
      const refused = results.filter((r) => !r.ok && (r.reason === "limitado" || r.reason === "ocupado"));
      expect(refused.length).toBeGreaterThanOrEqual(8);
    });
  });
  describe("the owner's door (decision 32)", () => {
    /** A browser the account has completed a sign-in from (as the code or the set-up records it). */
    async function knownDevice(email: string): Promise<string> {
      const browserId = newId(22);
      const user = await database.db
        .selectFrom("auth_user")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      await createDevices(database.db).remember(user.id, browserId);
      return browserId;
    }
    /** Proofs that are good when they say so, spent once each: the shop's own are checked in the server tests. */
    function proofChecker() {
      const spent = new Set<string>();
      return {
        spent,
        async spend(proof: string) {
          if (!proof.startsWith("buena") || spent.has(proof)) return false;
          spent.add(proof);
          return true;
        },
      };
    }

    it("a device the owner used before is never held by the shop-wide ceiling nor by the account's failures from elsewhere", async () => {
      const email = await newAdmin();
      const phone = await knownDevice(email);
      const using = createAdminAuth(database, SETTINGS, quickLine());
      // Others guess her password from many addresses, and made-up accounts fill the shop-wide ceiling.
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await signIn(email, { password: `incorrecta-${i}-xxxx`, address: `10.11.0.${i}`, using });
      }
      for (let i = LOGIN_LIMITS.perAccount; i <= LOGIN_LIMITS.everywhere; i++) {
        await signIn(`nadie-${i}-${newId(4)}@example.com`, { address: `10.11.1.${i}`, using });
      }
      expect(await signIn(email, { address: "10.11.2.1", using })).toMatchObject({
        ok: false,
        reason: "ocupado",
      });
      expect(using.busyFor()).toBeGreaterThan(0);
      // From her phone: straight in, and its own typo does not count against anyone else.
      expect(await signIn(email, { password: "typo-en-el-telefono", browserId: phone, using })).toEqual({
        ok: false,
        reason: "invalido",
      });
      expect((await signIn(email, { browserId: phone, using })).ok).toBe(true);
      // Her success cleared her phone's slate only: the guesses from elsewhere still count.
      const guesses = await database.db
        .selectFrom("login_failures")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(Number(guesses.n)).toBe(LOGIN_LIMITS.perAccount);
    });

    it("a known device has a limit of its own; past it only that device waits", async () => {
      const email = await newAdmin();
      const phone = await knownDevice(email);
      const laptop = await knownDevice(email);
      for (let i = 0; i < LOGIN_LIMITS.perDevice; i++) {
        await signIn(email, { password: `incorrecta-${i}-pppp`, browserId: phone });
      }
      expect(await signIn(email, { browserId: phone })).toMatchObject({ ok: false, reason: "limitado" });
      expect((await signIn(email, { browserId: laptop })).ok).toBe(true);
      // A browser known for another account is unknown for this one: that account's limits hold it.
      const other = await newAdmin();
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await signIn(other, { password: `incorrecta-${i}-ssss`, address: `10.13.0.${i}` });
      }
      expect(await signIn(other, { browserId: phone })).toMatchObject({ ok: false, reason: "limitado" });
      expect((await signIn(email, { browserId: laptop })).ok).toBe(true);
    });

    it("past the account's limit an unknown device must bring a proof of work, one per attempt, instead of being locked out", async () => {
      const email = await newAdmin();
      const proofs = proofChecker();
      const using = createAdminAuth(database, SETTINGS, { proofs, ...quickLine() });
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await signIn(email, { password: `incorrecta-${i}-qqqq`, address: `10.12.0.${i}`, using });
      }
      const laptop = newId(22);
      const asked = await signIn(email, { browserId: laptop, address: "10.12.1.1", using });
      expect(asked).toMatchObject({ ok: false, reason: "prueba" });
      expect(
        await signIn(email, { browserId: laptop, proof: "falsa", address: "10.12.1.1", using }),
      ).toMatchObject({
        ok: false,
        reason: "prueba",
      });
      // A wrong password with a good proof is checked, and counted; the proof is spent.
      expect(
        await signIn(email, {
          password: "incorrecta-zz",
          browserId: laptop,
          proof: "buena-1",
          address: "10.12.1.1",
          using,
        }),
      ).toEqual({ ok: false, reason: "invalido" });
      expect(
        await signIn(email, { browserId: laptop, proof: "buena-1", address: "10.12.1.1", using }),
      ).toMatchObject({ ok: false, reason: "prueba" });
      expect(
        (await signIn(email, { browserId: laptop, proof: "buena-2", address: "10.12.1.1", using })).ok,
      ).toBe(true);
      // Where the shop asks for no proofs, the same account's limit refuses as before.
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await signIn(email, { password: `incorrecta-${i}-rrrr`, address: `10.12.2.${i}` });
      }
      expect(await signIn(email, { browserId: newId(22) })).toMatchObject({ ok: false, reason: "limitado" });
    });
  });

  describe("the line in front of password hashing", () => {
    /** A sign-in service whose hashes go through `hasher`, on the same database. */
    const withHasher = (hasher: PasswordHasher) => createAdminAuth(database, SETTINGS, { hasher });
    const failuresFor = async (email: string) =>
      (await database.db.selectFrom("login_failures").select("id").where("email", "=", email).execute())
        .length;
    /** Holds the only place of a one-place line until released. */
    function occupy(hasher: PasswordHasher) {
      let release = () => {};
      const held = hasher.run(() => new Promise<void>((resolve) => (release = resolve)));
      return async () => {
        release();
        await held;
      };
    }

    it("when it is full, sign-in is refused at once as busy: nothing hashed, nothing counted, known and unknown e-mails alike", async () => {
      const hasher = createPasswordHasher({ running: 1, waiting: 0, spacingMs: 0 }, QUICK_SCRYPT);
      // Nothing hashed: told by the hasher itself, not by a clock (a loaded machine's round trip
      // to the database alone may pass any bound). Watched before sign-in takes its functions.
      const hashed = vi.spyOn(hasher, "hash");
      const verified = vi.spyOn(hasher, "verify");
      const lined = withHasher(hasher);
      const email = await newAdmin();
      const release = occupy(hasher);
      const busy = { ok: false, reason: "ocupado", retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS };
      hashed.mockClear();
      verified.mockClear();
      for (const who of [email, `nadie-${newId(4)}@example.com`]) {
        const result = await lined.signIn({
          email: who,
          password: PASSWORD,
          address: "10.8.0.1",
          headers: new Headers(),
          secure: false,
        });
        expect(result, who).toEqual(busy);
        expect(hashed).not.toHaveBeenCalled();
        expect(verified).not.toHaveBeenCalled();
        expect(await failuresFor(who)).toBe(0);
      }
      await release();
      const after = await lined.signIn({
        email,
        password: PASSWORD,
        address: "10.8.0.1",
        headers: new Headers(),
        secure: false,
      });
      expect(after.ok).toBe(true);
    });

    it("a line that fills between the limits and the hash refuses the same way, and withdraws the attempt", async () => {
      const full = createPasswordHasher({ running: 1, waiting: 0, spacingMs: 0 });
      const release = occupy(full);
      // Free when asked first, full by the time the password is hashed.
      const lined = withHasher({ ...full, isFull: () => false });
      for (const who of [await newAdmin(), `nadie-${newId(4)}@example.com`]) {
        const result = await lined.signIn({
          email: who,
          password: PASSWORD,
          address: "10.8.0.2",
          headers: new Headers(),
          secure: false,
        });
        expect(result, who).toEqual({
          ok: false,
          reason: "ocupado",
          retryAfterSeconds: HASHING_BUSY_RETRY_SECONDS,
        });
        expect(await failuresFor(who), "the attempt is not counted").toBe(0);
      }
      await release();
    });

    it("an unknown e-mail costs one hash, like a wrong password for a real account (no timing hint)", async () => {
      const base = createPasswordHasher();
      const calls: string[] = [];
      const counted: PasswordHasher = {
        ...base,
        hash: (password) => {
          calls.push("hash");
          return base.hash(password);
        },
        verify: (input) => {
          calls.push("verify");
          return base.verify(input);
        },
      };
      const lined = withHasher(counted);
      const email = await newAdmin();
      const attempt = (who: string) =>
        lined.signIn({
          email: who,
          password: "no es la contraseña",
          address: "10.8.0.3",
          headers: new Headers(),
          secure: false,
        });
      calls.length = 0;
      expect(await attempt(email)).toEqual({ ok: false, reason: "invalido" });
      expect(calls).toEqual(["verify"]);
      calls.length = 0;
      expect(await attempt(`nadie-${newId(4)}@example.com`)).toEqual({ ok: false, reason: "invalido" });
      expect(calls).toEqual(["hash"]);
    });
  });
});
